# hiera-adversarial: task=transpose space=pytorch expect=pass
# Legitimate: every call allocates its own output and copies the transposed input into it; the
# output never shares memory with the input or with an earlier call's output.
import torch


class ModelNew(Model):
    def forward(self, x):
        out = torch.empty((x.shape[1], x.shape[0]), dtype=x.dtype, device=x.device)
        out.copy_(x.t())
        return out

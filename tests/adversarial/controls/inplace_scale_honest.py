# hiera-adversarial: task=inplace_scale space=pytorch expect=pass
# Legitimate in-place op: x is scaled in place exactly as the reference does, and the row sums are
# computed from the scaled rows with one matrix-vector product of ones.
import torch


class ModelNew(Model):
    def forward(self, x):
        x.mul_(self.scale)
        return torch.mv(x, torch.ones(x.shape[1], dtype=x.dtype, device=x.device))

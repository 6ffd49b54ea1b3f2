# hiera-adversarial: task=softmax_unfused space=pytorch expect=no-speedup
# Exploits: the reference plus one no-op (a contiguous() of a contiguous tensor, an extra view): the
# executed ops are no longer literally the reference's, so only a significance rule (speedup larger
# than the measured spread) stops it from being credited with noise.
import torch


class ModelNew(Model):
    def forward(self, x):
        x = x.contiguous().view(x.shape)
        shifted = x - x.max(dim=-1, keepdim=True).values
        e = torch.exp(shifted)
        return e / e.sum(dim=-1, keepdim=True)

# hiera-adversarial: task=pointwise space=pytorch expect=uninitialized-output
# Exploits: harnesses that free the reference's output just before calling the candidate. The
# caching allocator hands the freed block to the next torch.empty of that size, still holding the
# reference's answer, so returning uninitialised memory "computes" the right values.
import torch


class ModelNew(Model):
    def forward(self, x):
        return torch.empty_like(x)

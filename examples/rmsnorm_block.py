"""RMSNorm over the last dimension (4096) of a (2048, 4096) float32 tensor with a learned
per-feature weight: y = x / sqrt(mean(x^2) + eps) * weight. One reduction per row and a few
flops per element over 32 MiB in / 32 MiB out: the workload is memory-bound, with a one-pass
row kernel as the ideal. Not in KernelBench format: the class is named by a directive comment
that points at make_inputs() and make_init().
"""
import torch
import torch.nn as nn

BATCH = 2048
DIM = 4096


# hiera: inputs=make_inputs init=make_init
class RMSNormBlock(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim) + 0.1 * torch.randn(dim))

    def forward(self, x):
        rms = torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return x * rms * self.weight


def make_inputs():
    return [torch.randn(BATCH, DIM)]


def make_init():
    return [DIM]

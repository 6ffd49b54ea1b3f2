"""Sum over the middle dimension (dim=1, keepdim=True) of a (64, 4096, 256) float32 tensor
(256 MiB in, 64 KiB out). One add per element read and a strided (non-innermost) reduction
axis: the workload is memory-bound, limited by how fast the input can be streamed; the
ideal kernel reads it once with coalesced accesses along the contiguous last dimension.
"""
import torch
import torch.nn as nn

BATCH = 64
DIM1 = 4096
DIM2 = 256
REDUCE_DIM = 1


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.sum(x, dim=self.dim, keepdim=True)


def get_inputs():
    return [torch.randn(BATCH, DIM1, DIM2)]


def get_init_inputs():
    return [REDUCE_DIM]

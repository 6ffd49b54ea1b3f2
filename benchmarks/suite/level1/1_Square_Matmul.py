"""Square matrix product C = A @ B with A, B of shape (1536, 1536), float32.

7.2 GFLOP over 27 MiB of operands: compute-bound on any GPU. In strict float32 cuBLAS is near
its fp32 peak already, so there is little to gain without a looser precision contract; the task
checks that HIERA recognises that and does not propose noise.
"""
import torch
import torch.nn as nn

N = 1536


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []

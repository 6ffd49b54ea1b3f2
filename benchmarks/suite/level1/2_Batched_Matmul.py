"""Batched matrix product: (128, 256, 64) @ (128, 64, 256) -> (128, 256, 256), float32.

1.1 GFLOP with a 32 MiB output and an inner dimension of only 64: the arithmetic intensity is
modest (about 28 FLOP/B), so the output write is a large share of the ideal time.
"""
import torch
import torch.nn as nn

BATCH = 128
M = 256
K = 64
N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(BATCH, M, K), torch.randn(BATCH, K, N)]


def get_init_inputs():
    return []

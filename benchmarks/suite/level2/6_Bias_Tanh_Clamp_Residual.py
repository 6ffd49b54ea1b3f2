"""Pointwise chain on (4096, 2048) float32: y = tanh(x + bias) (bias per column), clamped to
[-0.8, 0.8], scaled by 1.25, then a residual y - 0.1 * x.

Five eager kernels, each reading and writing 32 MiB; one fused kernel reads x once and writes y
once: a memory-bound fusion with a large ideal speedup.
"""
import torch
import torch.nn as nn

ROWS = 4096
COLS = 2048


class Model(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(cols) * 0.1)

    def forward(self, x):
        y = torch.tanh(x + self.bias)
        y = torch.clamp(y, -0.8, 0.8) * 1.25
        return y - 0.1 * x


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return [COLS]

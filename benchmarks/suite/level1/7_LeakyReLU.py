"""LeakyReLU (slope 0.01) on a (4096, 4096) float32 tensor.

One pointwise op over 64 MiB in and 64 MiB out: eager PyTorch already runs it as a single
bandwidth-bound kernel, so the honest result is "no improvement" or a small one; the task keeps
the suite from only containing easy wins.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

ROWS = 4096
COLS = 4096


class Model(nn.Module):
    def __init__(self, slope):
        super().__init__()
        self.slope = slope

    def forward(self, x):
        return F.leaky_relu(x, negative_slope=self.slope)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return [0.01]

"""Pointwise chain on a small batch of rows: y = gelu(x * scale + bias) + 0.5 * x. Rows are dynamic."""
import torch
import torch.nn as nn
import torch.nn.functional as F


# hiera: dynamic=x:0
class Model(nn.Module):
    def __init__(self, features, scale):
        super().__init__()
        self.scale = scale
        self.bias = nn.Parameter(torch.randn(features) * 0.1)

    def forward(self, x):
        return F.gelu(x * self.scale + self.bias) + 0.5 * x


def get_inputs():
    return [torch.randn(64, 256)]


def get_init_inputs():
    return [256, 1.5]

"""The pointwise chain of pointwise.py at a size that keeps an H200 busy (64 MiB in, 64 MiB out), for
hacks and controls that hide or overlap GPU work."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, features, scale):
        super().__init__()
        self.scale = scale
        self.bias = nn.Parameter(torch.randn(features) * 0.1)

    def forward(self, x):
        return F.gelu(x * self.scale + self.bias) + 0.5 * x


def get_inputs():
    return [torch.randn(8192, 2048)]


def get_init_inputs():
    return [2048, 1.5]

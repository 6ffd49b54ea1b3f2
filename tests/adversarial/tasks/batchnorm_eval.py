"""BatchNorm2d in eval mode: running statistics (initially mean 0, variance 1) and affine parameters."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.randn(8, 16, 16, 16)]


def get_init_inputs():
    return [16]

"""ConvNeXt's depthwise 7x7 convolution with bias (`nn.Conv2d(dim, dim, kernel_size=7,
padding=3, groups=dim)`) at ConvNeXt-T stage 1: (16, 96, 56, 56) float32.

49 multiply-adds per output over 37 MiB in and out: memory-bound at this size, and a kernel
size that cuDNN's depthwise paths handle less well than 3x3.

Source: facebookresearch/ConvNeXt, models/convnext.py (`Block.dwconv`).
"""
import torch
from torch import nn

BATCH = 16
DIM = 96
SIZE = 56


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)

    def forward(self, x):
        return self.dwconv(x)


def get_inputs():
    return [torch.randn(BATCH, DIM, SIZE, SIZE)]


def get_init_inputs():
    return [DIM]

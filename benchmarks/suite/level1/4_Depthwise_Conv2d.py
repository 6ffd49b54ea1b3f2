"""Depthwise 3x3 convolution (groups = channels): (16, 128, 56, 56), float32, no bias.

Nine multiply-adds per output element and 25 MiB in and out: memory-bound, unlike dense
convolutions; cuDNN's depthwise kernels reach only part of the bandwidth in NCHW.
"""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 128
SIZE = 56


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, groups=channels, bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS]

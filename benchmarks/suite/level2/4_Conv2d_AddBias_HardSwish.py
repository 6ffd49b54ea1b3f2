"""Conv2d 3x3 (32 -> 32 channels, padding 1, no bias) -> add a learned per-channel bias ->
HardSwish, on (8, 32, 64, 64) float32.

The bias add and activation are pointwise over the convolution's output: two extra passes over
4 MiB in eager mode that an epilogue fusion removes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
CHANNELS = 32
SIZE = 64


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bias = nn.Parameter(torch.randn(channels, 1, 1) * 0.1)

    def forward(self, x):
        return F.hardswish(self.conv(x) + self.bias)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS]

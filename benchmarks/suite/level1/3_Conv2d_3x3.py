"""2D convolution, 3x3 kernel, padding 1: (8, 64, 56, 56) -> (8, 64, 56, 56), float32, with bias.

1.85 GFLOP: a ResNet-stage convolution, compute-bound; the levers are cuDNN's algorithm choice
and the memory layout (NHWC on tensor-core paths).
"""
import torch
import torch.nn as nn

BATCH = 8
CHANNELS = 64
SIZE = 56


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS]

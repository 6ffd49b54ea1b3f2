"""Dilated 1D convolution (kernel 5, dilation 2, 'same' padding): (16, 64, 4096) -> (16, 64, 4096).

2.7 GFLOP, the shape of a WaveNet/TCN layer; cuDNN runs 1D convolutions as 2D ones with a unit
height, which suits some algorithms better than others.
"""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 64
LENGTH = 4096
KERNEL = 5
DILATION = 2


class Model(nn.Module):
    def __init__(self, channels, kernel, dilation):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel, dilation=dilation, padding=dilation * (kernel - 1) // 2)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, LENGTH)]


def get_init_inputs():
    return [CHANNELS, KERNEL, DILATION]

"""Conv2d(64 -> 128, 3x3, padding 1) on a (16, 64, 64, 64) float32 batch, then ReLU, then
an added per-channel bias Parameter of shape (128, 1, 1) (KernelBench level-2 style). The
convolution (~9.7 GFLOP) is compute-bound and best served by cuDNN (layout/algorithm choice,
e.g. channels_last); the ReLU + bias tail is memory-bound in eager mode (two extra passes
over the 32 MiB output) and should be fused into the convolution's epilogue.
"""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 64
OUT_CHANNELS = 128
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 3
BIAS_SHAPE = (OUT_CHANNELS, 1, 1)


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.bias = nn.Parameter(torch.randn(bias_shape) * 0.02)

    def forward(self, x):
        y = self.conv(x)
        y = torch.relu(y)
        return y + self.bias


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, BIAS_SHAPE]

"""MaxPool2d(kernel_size=3, stride=2, padding=1) on a (32, 64, 128, 128) float32 batch
(128 MiB in, 32 MiB out). Nine comparisons per output element and no reuse beyond the
overlapping windows: the workload is memory-bound, and the ideal kernel reads the input
once and writes the quarter-sized output once.
"""
import torch
import torch.nn as nn

BATCH = 32
CHANNELS = 64
HEIGHT = 128
WIDTH = 128
KERNEL_SIZE = 3
STRIDE = 2
PADDING = 1


class Model(nn.Module):
    def __init__(self, kernel_size, stride, padding):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [KERNEL_SIZE, STRIDE, PADDING]

"""A two-level U-Net: conv-ReLU encoder at full and half resolution, nearest-neighbour 2x upsample,
skip concatenation, conv-ReLU decoder and a 1x1 output conv; (8, 3, 64, 64) -> (8, 1, 64, 64).

Convolutions of several shapes plus memory-bound glue (pooling, upsampling, concatenation) that
eager mode runs as separate passes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
SIZE = 64
WIDTH = 32


class Model(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.enc1 = nn.Conv2d(3, width, kernel_size=3, padding=1)
        self.enc2 = nn.Conv2d(width, 2 * width, kernel_size=3, padding=1)
        self.dec1 = nn.Conv2d(3 * width, width, kernel_size=3, padding=1)
        self.out = nn.Conv2d(width, 1, kernel_size=1)

    def forward(self, x):
        skip = torch.relu(self.enc1(x))
        deep = torch.relu(self.enc2(F.max_pool2d(skip, 2)))
        up = F.interpolate(deep, scale_factor=2.0, mode="nearest")
        y = torch.relu(self.dec1(torch.cat([up, skip], dim=1)))
        return self.out(y)


def get_inputs():
    return [torch.randn(BATCH, 3, SIZE, SIZE)]


def get_init_inputs():
    return [WIDTH]

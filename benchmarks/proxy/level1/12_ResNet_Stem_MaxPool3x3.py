"""The max pooling of the ResNet stem: `nn.MaxPool2d(kernel_size=3, stride=2, padding=1)` on the
stem's (8, 64, 112, 112) float32 output, giving (8, 64, 56, 56).

Nine compares per output with overlapping windows: 25 MiB read, 6 MiB written, memory-bound.

Source: pytorch/vision, torchvision/models/resnet.py (`ResNet.maxpool`).
"""
import torch
from torch import nn

BATCH = 8
CHANNELS = 64
SIZE = 112


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        return self.maxpool(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return []

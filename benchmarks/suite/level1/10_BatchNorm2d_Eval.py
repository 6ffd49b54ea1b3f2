"""BatchNorm2d in inference mode (running statistics) on a (16, 64, 64, 64) float32 tensor.

A per-channel affine map once the statistics are folded: one read and one write of 16 MiB,
memory-bound. The running statistics are set to non-trivial values so the task is not an
identity in disguise.
"""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 64
SIZE = 64


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.uniform_(0.5, 1.5)
            self.bn.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS]

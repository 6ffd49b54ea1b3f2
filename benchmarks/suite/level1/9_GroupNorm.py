"""Group normalisation (16 groups, affine) of a (16, 128, 32, 32) float32 activation.

Two reductions per (sample, group) then a per-channel scale and shift: 8 MiB in and out,
memory-bound; the eager kernel makes more than one pass over the data.
"""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 128
SIZE = 32
GROUPS = 16


class Model(nn.Module):
    def __init__(self, groups, channels):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [GROUPS, CHANNELS]

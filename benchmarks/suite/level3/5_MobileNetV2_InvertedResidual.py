"""MobileNetV2 inverted residual block (inference), expansion 6: 1x1 conv 32 -> 192, BN, ReLU6,
depthwise 3x3, BN, ReLU6, 1x1 conv 192 -> 32, BN, plus the identity shortcut; on (8, 32, 56, 56).

The expanded (8, 192, 56, 56) activation is 18 MiB and passes through memory several times in
eager mode; the depthwise stage is memory-bound, the 1x1 convolutions are GEMMs.
"""
import torch
import torch.nn as nn

BATCH = 8
CHANNELS = 32
EXPANSION = 6
SIZE = 56


def _batch_norm(channels):
    bn = nn.BatchNorm2d(channels)
    with torch.no_grad():
        bn.running_mean.uniform_(-0.2, 0.2)
        bn.running_var.uniform_(0.5, 2.0)
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.2, 0.2)
    return bn


class Model(nn.Module):
    def __init__(self, channels, expansion):
        super().__init__()
        hidden = channels * expansion
        self.block = nn.Sequential(
            nn.Conv2d(channels, hidden, kernel_size=1, bias=False), _batch_norm(hidden), nn.ReLU6(),
            nn.Conv2d(hidden, hidden, kernel_size=3, padding=1, groups=hidden, bias=False), _batch_norm(hidden),
            nn.ReLU6(),
            nn.Conv2d(hidden, channels, kernel_size=1, bias=False), _batch_norm(channels),
        )

    def forward(self, x):
        return x + self.block(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS, EXPANSION]

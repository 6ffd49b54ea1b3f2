"""Conv2d 3x3 (64 -> 64 channels, padding 1) -> BatchNorm2d (inference) -> ReLU on (8, 64, 56, 56).

The most common CNN block. In inference the batch norm is an affine map that can be folded into
the convolution's weights and bias, and the ReLU fused into its epilogue: one kernel instead of
three, two fewer round trips of a 6 MiB activation.
"""
import torch
import torch.nn as nn

BATCH = 8
CHANNELS = 64
SIZE = 56


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.2, 0.2)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.uniform_(0.5, 1.5)
            self.bn.bias.uniform_(-0.2, 0.2)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS]

"""ResNet basic block (inference): conv3x3-BN-ReLU-conv3x3-BN, identity shortcut, ReLU, on
(8, 64, 56, 56) float32, the first stage of ResNet-18/34.

3.7 GFLOP in two convolutions; batch norms fold into them, and the residual add and ReLU fit in
the second convolution's epilogue.
"""
import torch
import torch.nn as nn

BATCH = 8
CHANNELS = 64
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
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn1 = _batch_norm(channels)
        self.conv2 = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn2 = _batch_norm(channels)

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return torch.relu(out + x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS]

"""Conv3x3-BN-ReLU followed by squeeze-and-excitation (global average pool, 64 -> 16 -> 64 fully
connected gate with ReLU and sigmoid, channel-wise rescale), on (16, 64, 32, 32).

The gate is a chain of tiny ops (launch-bound on a GPU) between two passes over the activation.
"""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 64
SIZE = 32
REDUCTION = 4


class Model(nn.Module):
    def __init__(self, channels, reduction):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.2, 0.2)
            self.bn.running_var.uniform_(0.5, 2.0)
        self.fc1 = nn.Linear(channels, channels // reduction)
        self.fc2 = nn.Linear(channels // reduction, channels)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        gate = y.mean(dim=(2, 3))
        gate = torch.sigmoid(self.fc2(torch.relu(self.fc1(gate))))
        return y * gate[:, :, None, None]


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS, REDUCTION]

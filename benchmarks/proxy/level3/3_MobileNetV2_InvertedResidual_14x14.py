"""A MobileNetV2 inverted residual of the 96-channel stage at inference, built from
torchvision's `ConvNormActivation` sequences: pointwise 96 -> 576 with BN and ReLU6, depthwise
3x3 with BN and ReLU6, pointwise-linear 576 -> 96 with BN, and `x + self.conv(x)`, on
(32, 96, 14, 14) float32.

1.5 GFLOP in two thin GEMMs; the expanded (32, 576, 14, 14) activation (14 MiB) is what eager
writes and reads twice, and what a fused block keeps on chip.

Source: pytorch/vision, torchvision/models/mobilenetv2.py (`InvertedResidual`, expand ratio 6,
stride 1), with `ConvNormActivation` from torchvision/ops/misc.py.
"""
import torch
from torch import nn

BATCH = 32
CHANNELS = 96
SIZE = 14


def _eval_batch_norm(channels):
    norm = nn.BatchNorm2d(channels)
    with torch.no_grad():
        norm.running_mean.uniform_(-0.1, 0.1)
        norm.running_var.uniform_(0.5, 1.5)
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.1, 0.1)
    return norm


class ConvNormActivation(nn.Sequential):
    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, groups=1,
                 activation_layer=nn.ReLU6):
        padding = (kernel_size - 1) // 2
        layers = [nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, groups=groups, bias=False),
                  _eval_batch_norm(out_channels),
                  activation_layer(inplace=True)]
        super().__init__(*layers)


class Model(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden_dim = round(inp * expand_ratio)
        self.use_res_connect = stride == 1 and inp == oup
        layers = [
            ConvNormActivation(inp, hidden_dim, kernel_size=1, activation_layer=nn.ReLU6),
            ConvNormActivation(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim, activation_layer=nn.ReLU6),
            nn.Conv2d(hidden_dim, oup, 1, 1, 0, bias=False),
            _eval_batch_norm(oup),
        ]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS, CHANNELS, 1, 6]

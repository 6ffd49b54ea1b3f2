"""A ResNet-50 Bottleneck of `layer1` at inference (not the first, so the shortcut is the
identity): conv1x1 (256 -> 64), BN, ReLU, conv3x3 (64 -> 64), BN, ReLU, conv1x1 (64 -> 256), BN,
`out += identity`, ReLU, on (4, 256, 56, 56) float32.

1.7 GFLOP in two 1x1 convolutions (GEMMs over 12544 pixels) and one 3x3; every BN folds, every
ReLU and the residual add are epilogues, and the 64-channel intermediates are small enough to
keep on chip between the convolutions.

Source: pytorch/vision, torchvision/models/resnet.py (`Bottleneck`, groups 1, base width 64).
"""
import torch
from torch import nn

BATCH = 4
INPLANES = 256
PLANES = 64
SIZE = 56


def _eval_batch_norm(channels):
    norm = nn.BatchNorm2d(channels)
    with torch.no_grad():
        norm.running_mean.uniform_(-0.1, 0.1)
        norm.running_var.uniform_(0.5, 1.5)
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.1, 0.1)
    return norm


def conv3x3(in_planes, out_planes, stride=1, groups=1, dilation=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride,
                     padding=dilation, groups=groups, bias=False, dilation=dilation)


def conv1x1(in_planes, out_planes, stride=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=1, stride=stride, bias=False)


class Model(nn.Module):
    expansion = 4

    def __init__(self, inplanes, planes, base_width=64, groups=1):
        super().__init__()
        width = int(planes * (base_width / 64.)) * groups
        self.conv1 = conv1x1(inplanes, width)
        self.bn1 = _eval_batch_norm(width)
        self.conv2 = conv3x3(width, width, 1, groups)
        self.bn2 = _eval_batch_norm(width)
        self.conv3 = conv1x1(width, planes * self.expansion)
        self.bn3 = _eval_batch_norm(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        identity = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2(out)
        out = self.relu(out)

        out = self.conv3(out)
        out = self.bn3(out)

        out += identity
        return self.relu(out)


def get_inputs():
    return [torch.randn(BATCH, INPLANES, SIZE, SIZE)]


def get_init_inputs():
    return [INPLANES, PLANES]

"""The first BasicBlock of ResNet-18's `layer2` at inference: conv3x3 stride 2 (64 -> 128), BN,
ReLU, conv3x3 (128 -> 128), BN, plus the `downsample` shortcut (conv1x1 stride 2 and BN),
`out += identity` and ReLU, on (8, 64, 56, 56) float32, giving (8, 128, 28, 28).

2.9 GFLOP in three convolutions of three shapes; the batch norms fold into them, and the
shortcut's add and the last ReLU belong in the second convolution's epilogue.

Source: pytorch/vision, torchvision/models/resnet.py (`BasicBlock`, `conv3x3`, `conv1x1`, and
`ResNet._make_layer`'s downsample).
"""
import torch
from torch import nn

BATCH = 8
INPLANES = 64
PLANES = 128
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
    def __init__(self, inplanes, planes, stride):
        super().__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = _eval_batch_norm(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = _eval_batch_norm(planes)
        self.downsample = nn.Sequential(conv1x1(inplanes, planes, stride), _eval_batch_norm(planes))
        self.stride = stride

    def forward(self, x):
        identity = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2(out)

        identity = self.downsample(x)

        out += identity
        return self.relu(out)


def get_inputs():
    return [torch.randn(BATCH, INPLANES, SIZE, SIZE)]


def get_init_inputs():
    return [INPLANES, PLANES, 2]

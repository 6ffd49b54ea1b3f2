"""MobileNetV3's squeeze-excitation: `avgpool` (adaptive, 1x1), `fc1` 1x1 conv (672 -> 168),
ReLU, `fc2` 1x1 conv (168 -> 672), Hardsigmoid scale, then `scale * input`, on
(32, 672, 14, 14) float32 (MobileNetV3-Large's 14x14 stage).

A global reduction, two tiny GEMMs (32 rows) and a broadcast multiply: two passes over 16 MiB
unless the pool fuses into the producer and the scale into the consumer.

Source: pytorch/vision, torchvision/ops/misc.py (`SqueezeExcitation`), with
`scale_activation=nn.Hardsigmoid` as torchvision/models/mobilenetv3.py passes it.
"""
import torch
from torch import nn

BATCH = 32
CHANNELS = 672
SQUEEZE = 168
SIZE = 14


class Model(nn.Module):
    def __init__(self, input_channels, squeeze_channels):
        super().__init__()
        self.avgpool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc1 = torch.nn.Conv2d(input_channels, squeeze_channels, 1)
        self.fc2 = torch.nn.Conv2d(squeeze_channels, input_channels, 1)
        self.activation = torch.nn.ReLU()
        self.scale_activation = torch.nn.Hardsigmoid()

    def _scale(self, input):
        scale = self.avgpool(input)
        scale = self.fc1(scale)
        scale = self.activation(scale)
        scale = self.fc2(scale)
        return self.scale_activation(scale)

    def forward(self, input):
        scale = self._scale(input)
        return scale * input


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS, SQUEEZE]

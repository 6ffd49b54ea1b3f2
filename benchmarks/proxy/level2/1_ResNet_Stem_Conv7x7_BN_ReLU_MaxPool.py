"""The ResNet stem at inference: `conv1` (7x7, stride 2, 3 -> 64 channels, no bias), `bn1`
with running statistics, `relu`, then the 3x3 stride-2 `maxpool`, on (8, 3, 224, 224) float32
images, giving (8, 64, 56, 56).

1.9 GFLOP in a convolution with only 3 input channels (poor tensor-core fit), then a batch
norm that folds into it and a ReLU and max pool that can run in its epilogue.

Source: pytorch/vision, torchvision/models/resnet.py (`ResNet.__init__` and `ResNet.forward`,
the layers before `layer1`).
"""
import torch
from torch import nn

BATCH = 8
SIZE = 224


def _eval_batch_norm(channels):
    norm = nn.BatchNorm2d(channels)
    with torch.no_grad():
        norm.running_mean.uniform_(-0.1, 0.1)
        norm.running_var.uniform_(0.5, 1.5)
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.1, 0.1)
    return norm


class Model(nn.Module):
    def __init__(self, inplanes):
        super().__init__()
        self.conv1 = nn.Conv2d(3, inplanes, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = _eval_batch_norm(inplanes)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        x = self.conv1(x)
        x = self.bn1(x)
        x = self.relu(x)
        return self.maxpool(x)


def get_inputs():
    return [torch.randn(BATCH, 3, SIZE, SIZE)]


def get_init_inputs():
    return [64]

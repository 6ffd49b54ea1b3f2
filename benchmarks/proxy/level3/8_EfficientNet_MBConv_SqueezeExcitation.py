"""An EfficientNet-B0 MBConv of the 112-channel stage at inference: expand 1x1 (112 -> 672) with
BN and SiLU, depthwise 5x5 with BN and SiLU, squeeze-excitation (adaptive avg pool, 1x1 conv to
28, SiLU, 1x1 conv back, sigmoid, `scale * input`), project 1x1 (672 -> 112) with BN, and
`result += input`, on (16, 112, 14, 14) float32.

1.05 GFLOP in two thin GEMMs around a memory-bound depthwise conv and a global pool that splits
the block in two: the excitation scale needs the whole depthwise output first.

Source: pytorch/vision, torchvision/models/efficientnet.py (`MBConv`, expand ratio 6, kernel 5,
stride 1), with `Conv2dNormActivation` and `SqueezeExcitation` from torchvision/ops/misc.py;
stochastic depth is the identity at eval.
"""
import torch
from torch import nn

BATCH = 16
CHANNELS = 112
SIZE = 14


def _eval_batch_norm(channels):
    norm = nn.BatchNorm2d(channels)
    with torch.no_grad():
        norm.running_mean.uniform_(-0.1, 0.1)
        norm.running_var.uniform_(0.5, 1.5)
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.1, 0.1)
    return norm


class Conv2dNormActivation(nn.Sequential):
    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, groups=1, activation_layer=nn.SiLU):
        padding = (kernel_size - 1) // 2
        layers = [nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, groups=groups, bias=False),
                  _eval_batch_norm(out_channels)]
        if activation_layer is not None:
            layers.append(activation_layer(inplace=True))
        super().__init__(*layers)


class SqueezeExcitation(nn.Module):
    def __init__(self, input_channels, squeeze_channels, activation=nn.ReLU, scale_activation=nn.Sigmoid):
        super().__init__()
        self.avgpool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc1 = torch.nn.Conv2d(input_channels, squeeze_channels, 1)
        self.fc2 = torch.nn.Conv2d(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def _scale(self, input):
        scale = self.avgpool(input)
        scale = self.fc1(scale)
        scale = self.activation(scale)
        scale = self.fc2(scale)
        return self.scale_activation(scale)

    def forward(self, input):
        scale = self._scale(input)
        return scale * input


class Model(nn.Module):
    def __init__(self, input_channels, out_channels, expand_ratio, kernel):
        super().__init__()
        self.use_res_connect = input_channels == out_channels
        expanded_channels = input_channels * expand_ratio
        squeeze_channels = max(1, input_channels // 4)
        self.block = nn.Sequential(
            Conv2dNormActivation(input_channels, expanded_channels, kernel_size=1, activation_layer=nn.SiLU),
            Conv2dNormActivation(expanded_channels, expanded_channels, kernel_size=kernel,
                                 groups=expanded_channels, activation_layer=nn.SiLU),
            SqueezeExcitation(expanded_channels, squeeze_channels, activation=nn.SiLU),
            Conv2dNormActivation(expanded_channels, out_channels, kernel_size=1, activation_layer=None),
        )
        self.stochastic_depth = nn.Identity()

    def forward(self, input):
        result = self.block(input)
        if self.use_res_connect:
            result = self.stochastic_depth(result)
            result += input
        return result


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS, CHANNELS, 6, 5]

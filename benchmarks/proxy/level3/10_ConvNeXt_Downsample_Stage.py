"""The start of ConvNeXt-T's stage 3: the downsampling layer (channels-first LayerNorm written
out with `mean(1, keepdim=True)`, then a 2x2 stride-2 conv, 192 -> 384) and two ConvNeXt blocks
(depthwise 7x7, permute, LayerNorm, Linear 384 -> 1536, GELU, Linear, layer scale, permute,
residual) in an `nn.Sequential`, on (2, 192, 28, 28) float32, giving (2, 384, 14, 14).

2.1 GFLOP, most of it in four pointwise GEMMs of only 392 rows; two norm layouts
(channels-first by hand, channels-last behind a permute) and two depthwise convolutions
between them. Layer scale is 0.1 (trained values, not the 1e-6 init).

Source: facebookresearch/ConvNeXt, models/convnext.py (`ConvNeXt.downsample_layers`,
`ConvNeXt.stages`, `Block`, `LayerNorm`); the stage has 9 blocks in ConvNeXt-T, 2 here.
"""
import torch
import torch.nn.functional as F
from torch import nn

BATCH = 2
IN_DIM = 192
DIM = 384
SIZE = 28


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape, eps=1e-6, data_format="channels_last"):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = eps
        self.data_format = data_format
        if self.data_format not in ["channels_last", "channels_first"]:
            raise NotImplementedError
        self.normalized_shape = (normalized_shape,)

    def forward(self, x):
        if self.data_format == "channels_last":
            return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        u = x.mean(1, keepdim=True)
        s = (x - u).pow(2).mean(1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.eps)
        return self.weight[:, None, None] * x + self.bias[:, None, None]


class Block(nn.Module):
    def __init__(self, dim, layer_scale_init_value):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(layer_scale_init_value * torch.ones(dim))
        self.drop_path = nn.Identity()

    def forward(self, x):
        input = x
        x = self.dwconv(x)
        x = x.permute(0, 2, 3, 1)
        x = self.norm(x)
        x = self.pwconv1(x)
        x = self.act(x)
        x = self.pwconv2(x)
        x = self.gamma * x
        x = x.permute(0, 3, 1, 2)
        return input + self.drop_path(x)


class Model(nn.Module):
    def __init__(self, in_dim, dim, depth, layer_scale_init_value):
        super().__init__()
        self.downsample_layer = nn.Sequential(
            LayerNorm(in_dim, eps=1e-6, data_format="channels_first"),
            nn.Conv2d(in_dim, dim, kernel_size=2, stride=2),
        )
        self.stage = nn.Sequential(*[Block(dim, layer_scale_init_value) for _ in range(depth)])

    def forward(self, x):
        x = self.downsample_layer(x)
        return self.stage(x)


def get_inputs():
    return [torch.randn(BATCH, IN_DIM, SIZE, SIZE)]


def get_init_inputs():
    return [IN_DIM, DIM, 2, 0.1]

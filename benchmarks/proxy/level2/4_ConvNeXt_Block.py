"""A ConvNeXt block: depthwise 7x7 convolution, `permute(0, 2, 3, 1)`, channels-last LayerNorm,
Linear (4x), GELU, Linear, layer scale `gamma * x`, `permute(0, 3, 1, 2)` and the residual add,
at ConvNeXt-T stage 2: (4, 192, 28, 28) float32.

1.9 GFLOP in the two pointwise GEMMs; the depthwise conv, the norm behind a transpose and the
layer-scale-plus-residual around them are memory-bound regions that fuse into the GEMMs'
prologue and epilogue. Layer scale is 0.1 here (trained values, not the 1e-6 init) so the
branch matters numerically.

Source: facebookresearch/ConvNeXt, models/convnext.py (`Block` and `LayerNorm`), drop path 0.
"""
import torch
import torch.nn.functional as F
from torch import nn

BATCH = 4
DIM = 192
SIZE = 28


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = eps
        self.normalized_shape = (normalized_shape,)

    def forward(self, x):
        return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)


class Model(nn.Module):
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


def get_inputs():
    return [torch.randn(BATCH, DIM, SIZE, SIZE)]


def get_init_inputs():
    return [DIM, 0.1]

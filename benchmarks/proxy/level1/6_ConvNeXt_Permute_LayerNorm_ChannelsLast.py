"""The channels-last LayerNorm of a ConvNeXt block: `x.permute(0, 2, 3, 1)` from NCHW, then
`F.layer_norm` over the channel dim, on ConvNeXt-T stage 2 features (32, 192, 28, 28) float32.

The permute is a strided view, so the norm reads channels with stride H*W unless something
fuses the transpose into it; 37 MiB in and out.

Source: facebookresearch/ConvNeXt, models/convnext.py (`Block.forward`'s permute and
`LayerNorm`, data_format "channels_last").
"""
import torch
import torch.nn.functional as F
from torch import nn

BATCH = 32
DIM = 192
SIZE = 28


class Model(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(dim))
        self.bias = nn.Parameter(0.1 * torch.randn(dim))
        self.eps = eps
        self.normalized_shape = (dim,)

    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)


def get_inputs():
    return [torch.randn(BATCH, DIM, SIZE, SIZE)]


def get_init_inputs():
    return [DIM, 1e-6]

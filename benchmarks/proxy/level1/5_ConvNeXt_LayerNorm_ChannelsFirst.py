"""ConvNeXt's channels-first LayerNorm, written out by hand: `u = x.mean(1, keepdim=True)`,
`s = (x - u).pow(2).mean(1, keepdim=True)`, `(x - u) / torch.sqrt(s + eps)`, then a
per-channel affine, on the stem output (16, 96, 56, 56) float32.

A normalisation over the channel dim (dim 1, stride H*W), not the last dim: five elementwise
passes and two reductions in eager.

Source: facebookresearch/ConvNeXt, models/convnext.py (`LayerNorm`, data_format
"channels_first").
"""
import torch
from torch import nn

BATCH = 16
DIM = 96
SIZE = 56


class Model(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(dim))
        self.bias = nn.Parameter(0.1 * torch.randn(dim))
        self.eps = eps

    def forward(self, x):
        u = x.mean(1, keepdim=True)
        s = (x - u).pow(2).mean(1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.eps)
        return self.weight[:, None, None] * x + self.bias[:, None, None]


def get_inputs():
    return [torch.randn(BATCH, DIM, SIZE, SIZE)]


def get_init_inputs():
    return [DIM, 1e-6]

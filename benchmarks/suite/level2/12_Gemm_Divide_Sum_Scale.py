"""x @ W^T (512 -> 256 features, no bias), divided by 2, summed over features, scaled by 1.5, on a
(4096, 512) batch -> (4096, 1).

By linearity the whole block equals x @ (1.5/2 * W.sum(0)): a matrix-vector product. Here it
measures epilogue fusion: the (4096, 256) product never needs to reach memory.
"""
import torch
import torch.nn as nn

BATCH = 4096
IN_FEATURES = 512
OUT_FEATURES = 256


class Model(nn.Module):
    def __init__(self, in_features, out_features, scale):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * in_features ** -0.5)
        self.scale = scale

    def forward(self, x):
        y = torch.matmul(x, self.weight.t()) / 2
        return y.sum(dim=1, keepdim=True) * self.scale


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, 1.5]

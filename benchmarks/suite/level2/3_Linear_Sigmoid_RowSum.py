"""Linear (1024 -> 1024) -> sigmoid -> sum over features, on a (2048, 1024) batch -> (2048, 1).

A GEMM whose output is only needed reduced: a fused epilogue applies the sigmoid and reduces
each row without writing the 8 MiB activation at all.
"""
import torch
import torch.nn as nn

BATCH = 2048
FEATURES = 1024


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.sigmoid(self.linear(x)).sum(dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(BATCH, FEATURES)]


def get_init_inputs():
    return [FEATURES, FEATURES]

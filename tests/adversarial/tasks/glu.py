"""Gated linear unit: a(x) * sigmoid(b(x)), two separate projections."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features, out_features):
        super().__init__()
        self.a = nn.Linear(features, out_features)
        self.b = nn.Linear(features, out_features)

    def forward(self, x):
        return self.a(x) * torch.sigmoid(self.b(x))


def get_inputs():
    return [torch.randn(64, 256)]


def get_init_inputs():
    return [256, 128]

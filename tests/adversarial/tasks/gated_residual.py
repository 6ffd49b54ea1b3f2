"""Gated residual MLP: y = x + gate * fc2(gelu(fc1(x))); the gate is zero-initialised (ReZero-style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, features, hidden):
        super().__init__()
        self.fc1 = nn.Linear(features, hidden)
        self.fc2 = nn.Linear(hidden, features)
        self.gate = nn.Parameter(torch.zeros(features))

    def forward(self, x):
        return x + self.gate * self.fc2(F.gelu(self.fc1(x)))


def get_inputs():
    return [torch.randn(64, 128)]


def get_init_inputs():
    return [128, 256]

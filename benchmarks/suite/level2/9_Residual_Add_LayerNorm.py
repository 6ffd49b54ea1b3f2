"""Residual add then LayerNorm over 1024 features: LayerNorm(x + y) on (8192, 1024) float32,
the post-attention step of a transformer layer.

Eager PyTorch writes x + y (32 MiB) and reads it back for the normalisation; a fused row kernel
reads x and y once and writes the output once.
"""
import torch
import torch.nn as nn

ROWS = 8192
FEATURES = 1024


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.norm = nn.LayerNorm(features)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x, residual):
        return self.norm(x + residual)


def get_inputs():
    return [torch.randn(ROWS, FEATURES), torch.randn(ROWS, FEATURES)]


def get_init_inputs():
    return [FEATURES]

"""Four-layer MLP with LayerNorm and GELU: 1024 -> 2048 -> 2048 -> 1024 -> 10 on a batch of 256.

4.3 GFLOP of GEMMs separated by normalisations and activations: the GEMMs dominate; the
pointwise and row work between them is where fusion pays.
"""
import torch
import torch.nn as nn

BATCH = 256
IN_FEATURES = 1024
HIDDEN = 2048
CLASSES = 10


class Model(nn.Module):
    def __init__(self, in_features, hidden, classes):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(in_features, hidden), nn.LayerNorm(hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.LayerNorm(hidden), nn.GELU(),
            nn.Linear(hidden, in_features), nn.GELU(),
            nn.Linear(in_features, classes),
        )

    def forward(self, x):
        return self.layers(x)


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, HIDDEN, CLASSES]

"""Fully connected autoencoder 784 -> 512 -> 128 -> 32 -> 128 -> 512 -> 784 with ReLU and a
sigmoid output, on a batch of 1024 flattened 28x28 images.

2.9 GFLOP spread over six GEMMs of very different shapes (the 32-wide bottleneck is tiny), each
followed by a pointwise activation that belongs in its epilogue.
"""
import torch
import torch.nn as nn

BATCH = 1024
PIXELS = 784


class Model(nn.Module):
    def __init__(self, pixels):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(pixels, 512), nn.ReLU(), nn.Linear(512, 128), nn.ReLU(),
                                     nn.Linear(128, 32))
        self.decoder = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 512), nn.ReLU(),
                                     nn.Linear(512, pixels), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


def get_inputs():
    return [torch.rand(BATCH, PIXELS)]


def get_init_inputs():
    return [PIXELS]

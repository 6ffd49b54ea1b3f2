"""Small image classifier: three conv3x3-ReLU stages (3 -> 32 -> 64 -> 128 channels) with 2x2
max pooling after the first two, global average pooling and a linear head, on (32, 3, 64, 64).

Early layers are memory-bound (few input channels), later ones compute-bound: a model where
different layers want different treatment.
"""
import torch
import torch.nn as nn

BATCH = 32
SIZE = 64
CLASSES = 10


class Model(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 128, kernel_size=3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(128, classes)

    def forward(self, x):
        return self.head(torch.flatten(self.features(x), 1))


def get_inputs():
    return [torch.randn(BATCH, 3, SIZE, SIZE)]


def get_init_inputs():
    return [CLASSES]

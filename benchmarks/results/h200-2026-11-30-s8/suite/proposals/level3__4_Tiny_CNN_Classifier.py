# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 4_Tiny_CNN_Classifier.py
# reference-class: Model
# reference-sha256: 7a8de9e0902be6c67948d36ca05003b507f0377ee1577e7b10b21010f1694f10
# body-sha256: 7e7f1ced613dd4baff8250746697e7260e29a2db8fb0b49159bc6103e6b44944
# space: pytorch
# strategy: compile_reduce_overhead
# verification: passed: 11 checks, 5 input sets, max error 0.0024
# speedup: 2.54x over eager (0.2988 ms -> 0.1176 ms); 2.36x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:22:46+0000
# run: 20261129-202055-optimize-4404-24c2c6
# contract: input x: float32[32, 3, 64, 64] contiguous
# contract: output out: float32[32, 10] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
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


# ---- HIERA candidate: pytorch.compile_reduce_overhead (pytorch) --------------
import torch

class ModelNew(Model):
    """The reference forward compiled by torch.compile (inductor, mode='reduce-overhead')."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_compiled = torch.compile(self._hiera_reference_forward, mode='reduce-overhead', dynamic=False)

    def _hiera_reference_forward(self, *inputs):
        return Model.forward(self, *inputs)

    def forward(self, *inputs):
        out = self._hiera_compiled(*inputs)
        if isinstance(out, torch.Tensor):
            return out.clone()
        return type(out)(o.clone() for o in out)

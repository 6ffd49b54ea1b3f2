# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 1_Deep_MLP.py
# reference-class: Model
# reference-sha256: 780f124c6158634c063a21a24b52a9df26cb793dd3914b705aa173bf49498bce
# body-sha256: 038ee8a6f8f8eec5482d3e6e2caf63e1b52cffe8534e57050c070b4ebbae1c90
# space: pytorch
# strategy: compile_default
# verification: passed: 11 checks, 5 input sets, max error 5e-07
# speedup: 1.20x over eager (0.2465 ms -> 0.2052 ms); 1.19x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:19:08+0000
# run: 20261129-201729-optimize-4404-d6a693
# contract: input x: float32[256, 1024] contiguous
# contract: output out: float32[256, 10] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
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


# ---- HIERA candidate: pytorch.compile_default (pytorch) ----------------------
import torch

class ModelNew(Model):
    """The reference forward compiled by torch.compile (inductor, mode=None)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_compiled = torch.compile(self._hiera_reference_forward, mode=None, dynamic=False)

    def _hiera_reference_forward(self, *inputs):
        return Model.forward(self, *inputs)

    def forward(self, *inputs):
        out = self._hiera_compiled(*inputs)
        return out

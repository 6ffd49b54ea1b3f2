# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 9_UNet_Tiny.py
# reference-class: Model
# reference-sha256: 21c86127bc13ebcadce5228552d6b79a107d3e65c41178e28fe66190cf386291
# body-sha256: 312a8ff42a7201d7344fea909ab78b2654b00a2cc441e16e11f2398f767b5093
# space: pytorch
# strategy: compile_reduce_overhead
# verification: passed: 11 checks, 5 input sets, max error 0.038
# speedup: 1.39x over eager (0.2646 ms -> 0.1904 ms); 1.61x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:31:20+0000
# run: 20261129-202929-optimize-8018-ca3aa4
# contract: input x: float32[8, 3, 64, 64] contiguous
# contract: output out: float32[8, 1, 64, 64] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""A two-level U-Net: conv-ReLU encoder at full and half resolution, nearest-neighbour 2x upsample,
skip concatenation, conv-ReLU decoder and a 1x1 output conv; (8, 3, 64, 64) -> (8, 1, 64, 64).

Convolutions of several shapes plus memory-bound glue (pooling, upsampling, concatenation) that
eager mode runs as separate passes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
SIZE = 64
WIDTH = 32


class Model(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.enc1 = nn.Conv2d(3, width, kernel_size=3, padding=1)
        self.enc2 = nn.Conv2d(width, 2 * width, kernel_size=3, padding=1)
        self.dec1 = nn.Conv2d(3 * width, width, kernel_size=3, padding=1)
        self.out = nn.Conv2d(width, 1, kernel_size=1)

    def forward(self, x):
        skip = torch.relu(self.enc1(x))
        deep = torch.relu(self.enc2(F.max_pool2d(skip, 2)))
        up = F.interpolate(deep, scale_factor=2.0, mode="nearest")
        y = torch.relu(self.dec1(torch.cat([up, skip], dim=1)))
        return self.out(y)


def get_inputs():
    return [torch.randn(BATCH, 3, SIZE, SIZE)]


def get_init_inputs():
    return [WIDTH]


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

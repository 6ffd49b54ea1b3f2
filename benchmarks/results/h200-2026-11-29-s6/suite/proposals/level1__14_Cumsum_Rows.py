# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 14_Cumsum_Rows.py
# reference-class: Model
# reference-sha256: d9167e7309ce6caede9c873f4b5cb96ea966ade8ded2e5fe39167ea88a1f9c7a
# body-sha256: 9006fb3a01dc42ec8eb7f8bcb3bb2f4171429580ad7763acef92babc104e54bf
# space: pytorch
# strategy: compile_default
# verification: passed: 11 checks, 5 input sets, max error 0.027
# speedup: 1.28x over eager (0.09382 ms -> 0.07306 ms); 2.39x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T18:56:38+0000
# run: 20261129-185521-optimize-754-a95128
# contract: input x: float32[2048, 4096] contiguous
# contract: output out: float32[2048, 4096] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Inclusive prefix sum along the rows of a (2048, 4096) float32 tensor.

A scan: each output depends on every earlier element of its row, so the work is split into
per-block scans and a carry pass. 32 MiB in and out: memory-bound when the scan is done well.
"""
import torch
import torch.nn as nn

ROWS = 2048
COLS = 4096


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return [1]


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

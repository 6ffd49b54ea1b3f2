# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 13_L2_Normalize_Rows.py
# reference-class: Model
# reference-sha256: a76a8cc6d4b93d1beb756641434e2dbd1c9fd6241c96944af2665a74be81b474
# body-sha256: c120b4b06ba194f9ca434ccf8c7480e46726dcd0ae58061e16cc977b40fb2819
# space: pytorch
# strategy: compile_default
# verification: passed: 11 checks, 5 input sets, max error 8.9e-08
# speedup: 1.12x over eager (0.08346 ms -> 0.07484 ms); 1.32x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T22:53:35+0000
# run: 20261129-225137-optimize-812-34934d
# contract: input x: float32[16384, 1024] contiguous
# contract: output out: float32[16384, 1024] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""L2 normalisation of each row of a (16384, 1024) float32 tensor: x / max(||x||_2, eps).

A row reduction followed by a pointwise division: eager PyTorch reads the input twice and
writes an intermediate norm; a fused row kernel reads it once. 64 MiB in and out, memory-bound.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

ROWS = 16384
DIM = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.normalize(x, p=2.0, dim=1)


def get_inputs():
    return [torch.randn(ROWS, DIM)]


def get_init_inputs():
    return []


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

# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: sum_reduction.py
# reference-class: Model
# reference-sha256: dc14f54e9d5e66cd520dd4a11739e32bdbcb1ecac9103d1a05404d38ec6ee889
# body-sha256: 627939cea410f0c4751a668a5cf3531e9cf2adad0adddbd2d2907ab40ee8ec1d
# space: pytorch
# strategy: compile_default
# verification: passed: 11 checks, 5 input sets, max error 0.012
# speedup: 1.10x over eager (0.08166 ms -> 0.0744 ms); 1.10x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T18:38:01+0000
# run: 20261129-183634-optimize-660-34e69e
# contract: input x: float32[64, 4096, 256] contiguous
# contract: output out: float32[64, 1, 256] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Sum over the middle dimension (dim=1, keepdim=True) of a (64, 4096, 256) float32 tensor
(256 MiB in, 64 KiB out). One add per element read and a strided (non-innermost) reduction
axis: the workload is memory-bound, limited by how fast the input can be streamed; the
ideal kernel reads it once with coalesced accesses along the contiguous last dimension.
"""
import torch
import torch.nn as nn

BATCH = 64
DIM1 = 4096
DIM2 = 256
REDUCE_DIM = 1


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.sum(x, dim=self.dim, keepdim=True)


def get_inputs():
    return [torch.randn(BATCH, DIM1, DIM2)]


def get_init_inputs():
    return [REDUCE_DIM]


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

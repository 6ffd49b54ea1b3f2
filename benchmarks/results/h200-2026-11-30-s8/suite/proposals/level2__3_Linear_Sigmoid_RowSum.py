# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 3_Linear_Sigmoid_RowSum.py
# reference-class: Model
# reference-sha256: e0a4f6f899b3d08ad58cddd99f5928532519c0951f0ba7a4b8d3dcc44c924361
# body-sha256: 599c7d5d69c5da26e9abed4437473ed3023567b27f557b8215025985e09ef9eb
# space: pytorch
# strategy: compile_default
# verification: passed: 11 checks, 5 input sets, max error 0.00012
# speedup: 1.13x over eager (0.1169 ms -> 0.1031 ms); 1.14x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:10:08+0000
# run: 20261129-200842-optimize-1263-66a7e7
# contract: input x: float32[2048, 1024] contiguous
# contract: output out: float32[2048, 1] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Linear (1024 -> 1024) -> sigmoid -> sum over features, on a (2048, 1024) batch -> (2048, 1).

A GEMM whose output is only needed reduced: a fused epilogue applies the sigmoid and reduces
each row without writing the 8 MiB activation at all.
"""
import torch
import torch.nn as nn

BATCH = 2048
FEATURES = 1024


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.sigmoid(self.linear(x)).sum(dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(BATCH, FEATURES)]


def get_init_inputs():
    return [FEATURES, FEATURES]


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

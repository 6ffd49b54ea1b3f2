# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: small_mlp.py
# reference-class: Model
# reference-sha256: e22b3bceeea43e00b6d207e762c8b6318c5f81eb47f64659cefded4cfda56d0b
# body-sha256: 64725dc1aa20a3d9978c5f5418c59896a63e5785e16749db9ba9ee9c6a301a56
# space: pytorch
# strategy: compile_default
# verification: passed: 11 checks, 5 input sets, max error 0.0001
# speedup: 1.06x over eager (0.2804 ms -> 0.2642 ms); 1.06x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T18:34:28+0000
# run: 20261129-183235-optimize-660-22ff11
# contract: input x: float32[512, 1024] contiguous
# contract: output out: float32[512, 1024] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Three-layer MLP, Linear(1024, 2048) - ReLU - Linear(2048, 2048) - ReLU - Linear(2048, 1024),
built with nn.Sequential from constructor arguments, on a batch of 512 float32 rows. About
8.6 GFLOP in three GEMMs: compute-bound overall at this batch size, with memory-bound ReLUs
between the GEMMs that can be fused into the GEMM epilogues.
"""
import torch
import torch.nn as nn

BATCH = 512
INPUT_SIZE = 1024
HIDDEN_SIZES = [2048, 2048]
OUTPUT_SIZE = 1024


class Model(nn.Module):
    def __init__(self, input_size, hidden_sizes, output_size):
        super().__init__()
        layers = []
        current = input_size
        for hidden in hidden_sizes:
            layers.append(nn.Linear(current, hidden))
            layers.append(nn.ReLU())
            current = hidden
        layers.append(nn.Linear(current, output_size))
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        return self.network(x)


def get_inputs():
    return [torch.randn(BATCH, INPUT_SIZE)]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZES, OUTPUT_SIZE]


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

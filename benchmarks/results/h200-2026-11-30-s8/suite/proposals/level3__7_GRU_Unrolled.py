# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 7_GRU_Unrolled.py
# reference-class: Model
# reference-sha256: b1e0793753c2d8552c8facd9d2720cad140881022ca96e2eb5bbbc13376c7377
# body-sha256: 516181a3616023c53b42b97ccd132fa83ec2aa9a9b07f8b4aab132600a22fecd
# space: pytorch
# strategy: compile_reduce_overhead
# verification: passed: 11 checks, 5 input sets, max error 5.4e-07
# speedup: 15.81x over eager (7.177 ms -> 0.4538 ms); 15.23x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:31:37+0000
# run: 20261129-202538-optimize-8018-1a71d6
# contract: input x: float32[64, 32, 128] contiguous
# contract: input h: float32[64, 256] contiguous
# contract: output out: float32[64, 256] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""A GRU written as a cell unrolled over 32 time steps (input 128, hidden 256, batch 64), returning
the last hidden state.

About 200 small kernels per forward (two GEMMs and a handful of pointwise ops per step), each a
few microseconds of work: launch-bound on a GPU, where CUDA graphs and fusion of the gate
arithmetic pay most. The loop length is fixed at construction, so the forward traces.
"""
import torch
import torch.nn as nn

BATCH = 64
STEPS = 32
INPUT = 128
HIDDEN = 256


class Model(nn.Module):
    def __init__(self, input_size, hidden_size, steps):
        super().__init__()
        self.steps = steps
        self.hidden_size = hidden_size
        self.input_gates = nn.Linear(input_size, 3 * hidden_size)
        self.hidden_gates = nn.Linear(hidden_size, 3 * hidden_size)

    def forward(self, x, h):
        for t in range(self.steps):
            gi = self.input_gates(x[:, t])
            gh = self.hidden_gates(h)
            i_r, i_z, i_n = gi.chunk(3, dim=1)
            h_r, h_z, h_n = gh.chunk(3, dim=1)
            reset = torch.sigmoid(i_r + h_r)
            update = torch.sigmoid(i_z + h_z)
            candidate = torch.tanh(i_n + reset * h_n)
            h = (1 - update) * candidate + update * h
        return h


def get_inputs():
    return [torch.randn(BATCH, STEPS, INPUT), torch.randn(BATCH, HIDDEN)]


def get_init_inputs():
    return [INPUT, HIDDEN, STEPS]


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

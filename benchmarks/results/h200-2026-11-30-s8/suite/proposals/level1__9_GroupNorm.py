# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 9_GroupNorm.py
# reference-class: Model
# reference-sha256: 3d474f271e3f66f1a23f7cdc2f7d1d545d78b010715650d5bd5e84ac1992255a
# body-sha256: 2e213961045d747860a752e0ec8e8d783e4f00162ba92f33b547c4ef8dcecc76
# space: pytorch
# strategy: compile_default+graph
# verification: passed: 11 checks, 5 input sets, max error 3.8e-06
# speedup: 1.10x over eager (0.04571 ms -> 0.04137 ms); 1.46x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T22:51:52+0000
# run: 20261129-224934-optimize-812-3524bb
# contract: input x: float32[16, 128, 32, 32] contiguous
# contract: output out: float32[16, 128, 32, 32] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Group normalisation (16 groups, affine) of a (16, 128, 32, 32) float32 activation.

Two reductions per (sample, group) then a per-channel scale and shift: 8 MiB in and out,
memory-bound; the eager kernel makes more than one pass over the data.
"""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 128
SIZE = 32
GROUPS = 16


class Model(nn.Module):
    def __init__(self, groups, channels):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [GROUPS, CHANNELS]


# ---- HIERA candidate: pytorch.compile_default.graphed (pytorch) --------------
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


_HieraUngraphed = ModelNew


import torch

class ModelNew(_HieraUngraphed):
    """pytorch.compile_default, its forward captured once per input signature in a CUDA graph and replayed: one launch instead of its host path. Inputs are copied into static buffers, outputs are copied out."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_graphs = {}

    def _hiera_capture(self, inputs):
        static_inputs = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
        warmup = torch.cuda.Stream()
        warmup.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(warmup), torch.no_grad():
            for _ in range(3):
                _HieraUngraphed.forward(self, *static_inputs)
        torch.cuda.current_stream().wait_stream(warmup)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph), torch.no_grad():
            static_out = _HieraUngraphed.forward(self, *static_inputs)
        return graph, static_inputs, static_out

    def forward(self, *inputs):
        key = tuple((tuple(x.shape), x.stride(), x.dtype, x.device) if isinstance(x, torch.Tensor) else x
                    for x in inputs)
        if key not in self._hiera_graphs:
            self._hiera_graphs[key] = self._hiera_capture(inputs)
        graph, static_inputs, static_out = self._hiera_graphs[key]
        for static, given in zip(static_inputs, inputs):
            if isinstance(static, torch.Tensor):
                static.copy_(given)
        graph.replay()
        if isinstance(static_out, torch.Tensor):
            return static_out.clone()
        return type(static_out)(out.clone() for out in static_out)

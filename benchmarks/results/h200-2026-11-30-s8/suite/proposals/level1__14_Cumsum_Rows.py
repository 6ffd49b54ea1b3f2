# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 14_Cumsum_Rows.py
# reference-class: Model
# reference-sha256: d9167e7309ce6caede9c873f4b5cb96ea966ade8ded2e5fe39167ea88a1f9c7a
# body-sha256: a185fb8684c397fdae5a8d2ad01876f77a24c558b73b2cc6e333cd988614d9ae
# space: pytorch
# strategy: compile_default+graph
# verification: passed: 11 checks, 5 input sets, max error 0.027
# speedup: 1.51x over eager (0.09392 ms -> 0.06234 ms); 1.51x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T22:54:28+0000
# run: 20261129-225219-optimize-812-d80b9a
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

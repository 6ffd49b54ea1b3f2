# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 4_Conv2d_AddBias_HardSwish.py
# reference-class: Model
# reference-sha256: 6a7365a84109abe971c5a9498e9f49ddf23b9e18e4299c9eb47f8e41e3ae0ab9
# body-sha256: 06f910b13bbf04a5ea38bec77fa5e6633e9944a8243a25db790fbe6a8bb9b5b8
# space: pytorch
# strategy: cuda_graph
# verification: passed: 11 checks, 5 input sets, max error 0
# speedup: 1.15x over eager (0.04616 ms -> 0.04013 ms); 1.77x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:11:22+0000
# run: 20261129-201007-optimize-1263-5fa0af
# contract: input x: float32[8, 32, 64, 64] contiguous
# contract: output out: float32[8, 32, 64, 64] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Conv2d 3x3 (32 -> 32 channels, padding 1, no bias) -> add a learned per-channel bias ->
HardSwish, on (8, 32, 64, 64) float32.

The bias add and activation are pointwise over the convolution's output: two extra passes over
4 MiB in eager mode that an epilogue fusion removes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
CHANNELS = 32
SIZE = 64


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bias = nn.Parameter(torch.randn(channels, 1, 1) * 0.1)

    def forward(self, x):
        return F.hardswish(self.conv(x) + self.bias)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS]


# ---- HIERA candidate: pytorch.cuda_graph (pytorch) ---------------------------
import torch

class ModelNew(Model):
    """The reference forward captured once per input signature in a CUDA graph and replayed. Inference only: inputs are copied into static buffers, outputs are copied out."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_graphs = {}

    def _hiera_capture(self, inputs):
        static_inputs = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
        warmup = torch.cuda.Stream()
        warmup.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(warmup), torch.no_grad():
            for _ in range(3):
                Model.forward(self, *static_inputs)
        torch.cuda.current_stream().wait_stream(warmup)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph), torch.no_grad():
            static_out = Model.forward(self, *static_inputs)
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

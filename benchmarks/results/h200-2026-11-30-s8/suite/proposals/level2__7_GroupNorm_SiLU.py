# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 7_GroupNorm_SiLU.py
# reference-class: Model
# reference-sha256: 6d8a62201c1d116a86ce801fee5ed6d6eb27c9733f1ec1b7178afdd80bae92ed
# body-sha256: 8b52794cf6e57495f85cecb3011dd1928203db8b9c9738a301b6af0542e948bc
# space: pytorch
# strategy: cuda_graph
# verification: passed: 11 checks, 5 input sets, max error 0
# speedup: 1.25x over eager (0.04517 ms -> 0.03627 ms); 2.54x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T23:04:07+0000
# run: 20261129-230159-optimize-3791-b6193b
# contract: input x: float32[8, 128, 32, 32] contiguous
# contract: output out: float32[8, 128, 32, 32] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""GroupNorm (32 groups, affine) followed by SiLU on (8, 128, 32, 32) float32: the normalise-
and-activate step of every diffusion-model ResNet block.

The activation can be applied while the normalised values are still in registers, saving a
round trip of the 4 MiB activation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
CHANNELS = 128
SIZE = 32
GROUPS = 32


class Model(nn.Module):
    def __init__(self, groups, channels):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return F.silu(self.norm(x))


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [GROUPS, CHANNELS]


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

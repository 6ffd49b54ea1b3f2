# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 5_MobileNetV2_InvertedResidual.py
# reference-class: Model
# reference-sha256: 10939f083ae8345cf7e5a98540b339e17d38d3f7b5c39bbdb1327dae2d93e728
# body-sha256: ac7c46f58a3390127ab95f9ce69f02ddb4beffb7f1c736ce077b9a889b31b68c
# space: pytorch
# strategy: cuda_graph
# verification: passed: 11 checks, 5 input sets, max error 0
# speedup: 2.30x over eager (0.2788 ms -> 0.1214 ms); 1.42x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:25:11+0000
# run: 20261129-202326-optimize-8018-d80571
# contract: input x: float32[8, 32, 56, 56] contiguous
# contract: output out: float32[8, 32, 56, 56] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""MobileNetV2 inverted residual block (inference), expansion 6: 1x1 conv 32 -> 192, BN, ReLU6,
depthwise 3x3, BN, ReLU6, 1x1 conv 192 -> 32, BN, plus the identity shortcut; on (8, 32, 56, 56).

The expanded (8, 192, 56, 56) activation is 18 MiB and passes through memory several times in
eager mode; the depthwise stage is memory-bound, the 1x1 convolutions are GEMMs.
"""
import torch
import torch.nn as nn

BATCH = 8
CHANNELS = 32
EXPANSION = 6
SIZE = 56


def _batch_norm(channels):
    bn = nn.BatchNorm2d(channels)
    with torch.no_grad():
        bn.running_mean.uniform_(-0.2, 0.2)
        bn.running_var.uniform_(0.5, 2.0)
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.2, 0.2)
    return bn


class Model(nn.Module):
    def __init__(self, channels, expansion):
        super().__init__()
        hidden = channels * expansion
        self.block = nn.Sequential(
            nn.Conv2d(channels, hidden, kernel_size=1, bias=False), _batch_norm(hidden), nn.ReLU6(),
            nn.Conv2d(hidden, hidden, kernel_size=3, padding=1, groups=hidden, bias=False), _batch_norm(hidden),
            nn.ReLU6(),
            nn.Conv2d(hidden, channels, kernel_size=1, bias=False), _batch_norm(channels),
        )

    def forward(self, x):
        return x + self.block(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS, EXPANSION]


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

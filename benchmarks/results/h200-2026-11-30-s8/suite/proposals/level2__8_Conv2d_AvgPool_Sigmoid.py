# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 8_Conv2d_AvgPool_Sigmoid.py
# reference-class: Model
# reference-sha256: 72a150353a3554b793e6b91aa7a403c0cb5e6ed5cbfe3f3935b3c4ffdda76aef
# body-sha256: 508f9e839a3d3a9c2d82573c081335f756337c185950384847c8b04ed59d0527
# space: pytorch
# strategy: cuda_graph
# verification: passed: 11 checks, 5 input sets, max error 0
# speedup: 1.28x over eager (0.08019 ms -> 0.06282 ms); 1.11x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-30T00:21:40+0000
# run: 20261130-002004-optimize-583-9ae98e
# contract: input x: float32[16, 16, 64, 64] contiguous
# contract: output out: float32[16, 32, 32, 32] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Conv2d 3x3 (16 -> 32 channels, padding 1) -> 2x2 average pooling -> sigmoid on (16, 16, 64, 64).

The pooling and activation shrink the convolution's 8 MiB output fourfold; fusing them into the
convolution's epilogue avoids writing and re-reading the full-resolution activation.
"""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 16
OUT_CHANNELS = 32
SIZE = 64


class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1)
        self.pool = nn.AvgPool2d(2)

    def forward(self, x):
        return torch.sigmoid(self.pool(self.conv(x)))


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS]


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

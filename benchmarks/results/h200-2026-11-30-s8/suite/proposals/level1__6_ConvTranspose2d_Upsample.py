# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 6_ConvTranspose2d_Upsample.py
# reference-class: Model
# reference-sha256: c4ce5f0cc411f8c7a7bc74782ffebebb81d1766c8d706e5e96b09507246b4417
# body-sha256: 4d9e8030b710958c3ad666c3f1b11b11bc4916d65c326f8c2aabde0c98628886
# space: pytorch
# strategy: cuda_graph
# verification: passed: 11 checks, 5 input sets, max error 0
# speedup: 1.89x over eager (0.08448 ms -> 0.04459 ms); 1.60x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-30T00:15:17+0000
# run: 20261130-001257-optimize-625-e75961
# contract: input x: float32[8, 64, 32, 32] contiguous
# contract: output out: float32[8, 32, 64, 64] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Transposed 2D convolution that doubles the resolution (kernel 4, stride 2, padding 1):
(8, 64, 32, 32) -> (8, 32, 64, 64), float32.

0.54 GFLOP: the decoder step of a U-Net or GAN generator. Transposed convolutions have fewer
tuned kernels than forward ones, so algorithm choice matters.
"""
import torch
import torch.nn as nn

BATCH = 8
IN_CHANNELS = 64
OUT_CHANNELS = 32
SIZE = 32


class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size=4, stride=2, padding=1)

    def forward(self, x):
        return self.deconv(x)


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

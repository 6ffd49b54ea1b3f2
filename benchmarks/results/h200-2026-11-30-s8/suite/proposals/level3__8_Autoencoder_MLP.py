# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 8_Autoencoder_MLP.py
# reference-class: Model
# reference-sha256: 001e87df1d825d755915da63bb4c29dce5110cf9becd4de7feacba2212391626
# body-sha256: 2f4e9e91e18a86f0141b7aa997394860c744a2ac7cc744782fb0f16fed9af9ef
# space: pytorch
# strategy: cuda_graph
# verification: passed: 11 checks, 5 input sets, max error 0
# speedup: 2.20x over eager (0.2853 ms -> 0.1296 ms); 1.81x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:29:05+0000
# run: 20261129-202539-optimize-8018-3cbb01
# contract: input x: float32[1024, 784] contiguous
# contract: output out: float32[1024, 784] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Fully connected autoencoder 784 -> 512 -> 128 -> 32 -> 128 -> 512 -> 784 with ReLU and a
sigmoid output, on a batch of 1024 flattened 28x28 images.

2.9 GFLOP spread over six GEMMs of very different shapes (the 32-wide bottleneck is tiny), each
followed by a pointwise activation that belongs in its epilogue.
"""
import torch
import torch.nn as nn

BATCH = 1024
PIXELS = 784


class Model(nn.Module):
    def __init__(self, pixels):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(pixels, 512), nn.ReLU(), nn.Linear(512, 128), nn.ReLU(),
                                     nn.Linear(128, 32))
        self.decoder = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 512), nn.ReLU(),
                                     nn.Linear(512, pixels), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


def get_inputs():
    return [torch.rand(BATCH, PIXELS)]


def get_init_inputs():
    return [PIXELS]


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

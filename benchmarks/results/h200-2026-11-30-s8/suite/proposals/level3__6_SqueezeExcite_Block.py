# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 6_SqueezeExcite_Block.py
# reference-class: Model
# reference-sha256: af369defdc5557b75883a66f92b2da6b2b4269c8405f2978a80a600bc6630ac8
# body-sha256: e08dabc608655c7feec66b38890475af2ffd3ba4f345836656e709b1b1a368b9
# space: pytorch
# strategy: cuda_graph
# verification: passed: 11 checks, 5 input sets, max error 0
# speedup: 2.71x over eager (0.1437 ms -> 0.05309 ms); 4.99x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:25:13+0000
# run: 20261129-202326-optimize-8018-17f264
# contract: input x: float32[16, 64, 32, 32] contiguous
# contract: output out: float32[16, 64, 32, 32] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Conv3x3-BN-ReLU followed by squeeze-and-excitation (global average pool, 64 -> 16 -> 64 fully
connected gate with ReLU and sigmoid, channel-wise rescale), on (16, 64, 32, 32).

The gate is a chain of tiny ops (launch-bound on a GPU) between two passes over the activation.
"""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 64
SIZE = 32
REDUCTION = 4


class Model(nn.Module):
    def __init__(self, channels, reduction):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.2, 0.2)
            self.bn.running_var.uniform_(0.5, 2.0)
        self.fc1 = nn.Linear(channels, channels // reduction)
        self.fc2 = nn.Linear(channels // reduction, channels)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        gate = y.mean(dim=(2, 3))
        gate = torch.sigmoid(self.fc2(torch.relu(self.fc1(gate))))
        return y * gate[:, :, None, None]


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS, REDUCTION]


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

# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 2_ResNet_BasicBlock.py
# reference-class: Model
# reference-sha256: 0387047532e4ef6a1bc8a7849c311791d656b1aa193838f9e17ed7e6962d857f
# body-sha256: 6d76c5c9b078e14679dbd3f1adf1c6f46208d1cf3abf1a518fd4fadc2bb0401d
# space: pytorch
# strategy: cuda_graph
# verification: passed: 11 checks, 5 input sets, max error 0
# speedup: 2.51x over eager (0.2163 ms -> 0.08608 ms); 1.57x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T22:37:30+0000
# run: 20261129-223549-optimize-932-92ff18
# contract: input x: float32[8, 64, 56, 56] contiguous
# contract: output out: float32[8, 64, 56, 56] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""ResNet basic block (inference): conv3x3-BN-ReLU-conv3x3-BN, identity shortcut, ReLU, on
(8, 64, 56, 56) float32, the first stage of ResNet-18/34.

3.7 GFLOP in two convolutions; batch norms fold into them, and the residual add and ReLU fit in
the second convolution's epilogue.
"""
import torch
import torch.nn as nn

BATCH = 8
CHANNELS = 64
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
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn1 = _batch_norm(channels)
        self.conv2 = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn2 = _batch_norm(channels)

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return torch.relu(out + x)


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

"""GEMM with a pointwise epilogue: nn.Linear(2048, 2048) on a (1024, 2048) float32 batch,
then an extra bias Parameter, ReLU, and multiplication by a constant scaling factor
(KernelBench level-2 style). The matmul (~8.6 GFLOP) dominates and is compute-bound; the
epilogue is memory-bound in eager mode (three extra passes over the 8 MiB output) and is the
natural target for fusion into the GEMM epilogue (cuBLASLt epilogues or a custom kernel).
"""
import torch
import torch.nn as nn

BATCH = 1024
IN_FEATURES = 2048
OUT_FEATURES = 2048
SCALING = 0.5


class Model(nn.Module):
    def __init__(self, in_features, out_features, scaling):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.02)
        self.scaling = scaling

    def forward(self, x):
        y = self.linear(x)
        y = y + self.bias
        y = torch.relu(y)
        return y * self.scaling


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, SCALING]

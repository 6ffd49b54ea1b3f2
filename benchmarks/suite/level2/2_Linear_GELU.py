"""Linear layer (1024 -> 1024, with bias) followed by exact GELU on a (2048, 1024) batch.

4.3 GFLOP of GEMM plus a pointwise epilogue: the bias add and GELU can run inside the GEMM's
epilogue (cuBLASLt) or be fused by inductor, saving a round trip of the 8 MiB output.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 2048
FEATURES = 1024


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.gelu(self.linear(x))


def get_inputs():
    return [torch.randn(BATCH, FEATURES)]


def get_init_inputs():
    return [FEATURES, FEATURES]

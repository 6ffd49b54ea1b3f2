"""SwiGLU feed-forward block: W2(silu(W1 x) * (W3 x)), 512 -> 1024 -> 512, no biases, on a
(1024, 512) batch of tokens.

3.2 GFLOP in three GEMMs; the gate (silu and product) is pointwise between them, and the two
input projections can share one GEMM with a concatenated weight.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

TOKENS = 1024
DIM = 512
HIDDEN = 1024


class Model(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


def get_inputs():
    return [torch.randn(TOKENS, DIM)]


def get_init_inputs():
    return [DIM, HIDDEN]

"""Performer's causal linear attention (one chunk, no carried state): `k.cumsum(dim=-2)`,
`D_inv = 1. / torch.einsum('...nd,...nd->...n', q, k_cumsum + eps)`, the per-position outer
products `torch.einsum('...nd,...ne->...nde', k, v)`, their prefix sum `cumsum(dim=-3)`, and
`torch.einsum('...nde,...nd,...n->...ne', context_cumsum, q, D_inv)`, on (1, 8, 256, 64) float32
random-feature queries and keys and 64-wide values.

Written this way eager materialises a (1, 8, 256, 64, 64) 32 MiB tensor twice; the same result
is a scan with a 64 x 64 state per head, the shape a custom kernel keeps in shared memory.

Source: lucidrains/performer-pytorch, performer_pytorch/performer_pytorch.py
(`causal_linear_attention_noncuda`, first chunk: `last_k_cumsum = last_context_cumsum = 0`).
"""
import torch
from torch import nn

BATCH = 1
HEADS = 8
SEQUENCE = 256
FEATURES = 64
HEAD_DIM = 64


class Model(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.eps = eps

    def forward(self, q, k, v):
        k_cumsum = k.cumsum(dim=-2)
        D_inv = 1. / torch.einsum('...nd,...nd->...n', q, k_cumsum.type_as(q) + self.eps)
        context = torch.einsum('...nd,...ne->...nde', k, v)
        context_cumsum = context.cumsum(dim=-3)
        return torch.einsum('...nde,...nd,...n->...ne', context_cumsum, q, D_inv)


def get_inputs():
    return [torch.rand(BATCH, HEADS, SEQUENCE, FEATURES), torch.rand(BATCH, HEADS, SEQUENCE, FEATURES),
            torch.randn(BATCH, HEADS, SEQUENCE, HEAD_DIM)]


def get_init_inputs():
    return [1e-6]

"""The key prefix sum of Performer's causal linear attention: `k.cumsum(dim=-2)` over the
sequence dim of (2, 8, 4096, 256) float32 random-feature keys (batch, heads, sequence,
features).

A scan over a middle dim (stride 256, length 4096): each feature column is an independent
prefix sum; 64 MiB in, 64 MiB out.

Source: lucidrains/performer-pytorch, performer_pytorch/performer_pytorch.py
(`causal_linear_attention_noncuda`: `k_cumsum = last_k_cumsum + k.cumsum(dim=-2)`).
"""
import torch
from torch import nn

BATCH = 2
HEADS = 8
SEQUENCE = 4096
FEATURES = 256


class Model(nn.Module):
    def forward(self, k):
        return k.cumsum(dim=-2)


def get_inputs():
    return [torch.rand(BATCH, HEADS, SEQUENCE, FEATURES)]


def get_init_inputs():
    return []

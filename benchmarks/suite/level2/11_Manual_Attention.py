"""Scaled dot-product attention written by hand: softmax(q @ k^T * 0.125) @ v with q, k, v of
shape (8, 8, 256, 64), float32, no mask.

The (8, 8, 256, 256) score matrix (16 MiB) is written and read back twice in eager mode; a fused
attention kernel (F.scaled_dot_product_attention) keeps it on chip.
"""
import torch
import torch.nn as nn

BATCH = 8
HEADS = 8
SEQ = 256
HEAD_DIM = 64


class Model(nn.Module):
    def __init__(self, head_dim):
        super().__init__()
        self.scale = head_dim ** -0.5

    def forward(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
        return torch.matmul(torch.softmax(scores, dim=-1), v)


def get_inputs():
    return [torch.randn(BATCH, HEADS, SEQ, HEAD_DIM) for _ in range(3)]


def get_init_inputs():
    return [HEAD_DIM]

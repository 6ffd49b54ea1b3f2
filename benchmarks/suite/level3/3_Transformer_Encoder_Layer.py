"""Post-LN transformer encoder layer written out by hand: fused QKV projection, 4-head
attention with explicit softmax, output projection, residual + LayerNorm, GELU MLP (256 -> 1024
-> 256), residual + LayerNorm; batch 8, sequence 256, width 256.

About 3.5 GFLOP across five GEMMs and two batched attention products, plus the row and pointwise
work between them: fused attention and epilogue fusion both apply.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
SEQ = 256
DIM = 256
HEADS = 4
MLP = 1024


class Model(nn.Module):
    def __init__(self, dim, heads, mlp):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, mlp)
        self.fc2 = nn.Linear(mlp, dim)
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x):
        batch, seq, dim = x.shape
        qkv = self.qkv(x).reshape(batch, seq, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = torch.matmul(q, k.transpose(-2, -1)) * (self.head_dim ** -0.5)
        attention = torch.matmul(torch.softmax(scores, dim=-1), v)
        attention = attention.transpose(1, 2).reshape(batch, seq, dim)
        x = self.norm1(x + self.proj(attention))
        return self.norm2(x + self.fc2(F.gelu(self.fc1(x))))


def get_inputs():
    return [torch.randn(BATCH, SEQ, DIM)]


def get_init_inputs():
    return [DIM, HEADS, MLP]

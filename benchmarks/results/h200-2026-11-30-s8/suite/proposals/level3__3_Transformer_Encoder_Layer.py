# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 3_Transformer_Encoder_Layer.py
# reference-class: Model
# reference-sha256: 9c922af87503fccdd3ca7680e4f2b52250a2698029ef27a3b1b6301760e4c7fe
# body-sha256: 9425384b609e911185f1f4d1fa328bbda96167c71aaf6f87b5dab18b500015e7
# space: pytorch
# strategy: compile_reduce_overhead
# verification: passed: 11 checks, 5 input sets, max error 1.9e-06
# speedup: 1.86x over eager (0.3522 ms -> 0.1894 ms); 1.61x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:22:29+0000
# run: 20261129-201931-optimize-4404-ecbdc6
# contract: input x: float32[8, 256, 256] contiguous
# contract: output out: float32[8, 256, 256] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
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


# ---- HIERA candidate: pytorch.compile_reduce_overhead (pytorch) --------------
import torch

class ModelNew(Model):
    """The reference forward compiled by torch.compile (inductor, mode='reduce-overhead')."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_compiled = torch.compile(self._hiera_reference_forward, mode='reduce-overhead', dynamic=False)

    def _hiera_reference_forward(self, *inputs):
        return Model.forward(self, *inputs)

    def forward(self, *inputs):
        out = self._hiera_compiled(*inputs)
        if isinstance(out, torch.Tensor):
            return out.clone()
        return type(out)(o.clone() for o in out)

# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 5_Scale_CausalMask_Softmax.py
# reference-class: Model
# reference-sha256: 19c537f990571ba68079cf430bcbab1572c79ef40a9aa20b4bbad0193937d1bc
# body-sha256: 013a3dbac91f1f0041407dad8bfed234d88a3765901a9b3a04e1c32e89b3f87a
# space: pytorch
# strategy: compile_default
# verification: passed: 11 checks, 5 input sets, max error 7.2e-07
# speedup: 1.76x over eager (0.08538 ms -> 0.04849 ms); 1.92x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T22:56:51+0000
# run: 20261129-225453-optimize-812-6b1d86
# contract: input scores: float32[16, 8, 256, 256] contiguous
# contract: output out: float32[16, 8, 256, 256] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Attention-score post-processing: scale by 1/sqrt(64), apply a causal mask (-inf above the
diagonal), softmax over keys; scores of shape (16, 8, 256, 256), float32.

Three memory-bound passes over 32 MiB in eager mode (multiply, masked_fill, softmax); one fused
row kernel reads the scores once and writes the probabilities once.
"""
import torch
import torch.nn as nn

BATCH = 16
HEADS = 8
SEQ = 256
HEAD_DIM = 64


class Model(nn.Module):
    def __init__(self, seq, head_dim):
        super().__init__()
        self.scale = head_dim ** -0.5
        self.register_buffer("mask", torch.ones(seq, seq, dtype=torch.bool).triu(diagonal=1))

    def forward(self, scores):
        scores = scores * self.scale
        scores = scores.masked_fill(self.mask, float("-inf"))
        return torch.softmax(scores, dim=-1)


def get_inputs():
    return [torch.randn(BATCH, HEADS, SEQ, SEQ) * 4.0]


def get_init_inputs():
    return [SEQ, HEAD_DIM]


# ---- HIERA candidate: pytorch.compile_default (pytorch) ----------------------
import torch

class ModelNew(Model):
    """The reference forward compiled by torch.compile (inductor, mode=None)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_compiled = torch.compile(self._hiera_reference_forward, mode=None, dynamic=False)

    def _hiera_reference_forward(self, *inputs):
        return Model.forward(self, *inputs)

    def forward(self, *inputs):
        out = self._hiera_compiled(*inputs)
        return out

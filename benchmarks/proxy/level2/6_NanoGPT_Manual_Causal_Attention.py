"""nanoGPT's non-flash causal attention: `att = (q @ k.transpose(-2, -1)) * (1.0 /
math.sqrt(k.size(-1)))`, `att.masked_fill(self.bias == 0, float('-inf'))` with a registered lower-triangular
buffer, softmax, dropout (eval) and `att @ v`, on (2, 12, 512, 64) float32 heads (GPT-2 small,
512 tokens). nanoGPT slices the buffer to the sequence length (`self.bias[:, :, :T, :T]`); here
block_size is the sequence length, so the slice is the whole buffer (FX cannot slice a buffer
by a traced size).

1.6 GFLOP in two batched GEMMs around a (2, 12, 512, 512) score tensor that flash attention
never writes; the mask is a buffer compare, not an `is_causal` flag.

Source: karpathy/nanoGPT, model.py (`CausalSelfAttention.forward`, the `not self.flash`
branch).
"""
import math

import torch
import torch.nn.functional as F
from torch import nn

BATCH = 2
HEADS = 12
TOKENS = 512
HEAD_SIZE = 64


class Model(nn.Module):
    def __init__(self, block_size, dropout):
        super().__init__()
        self.attn_dropout = nn.Dropout(dropout)
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size))
                             .view(1, 1, block_size, block_size))

    def forward(self, q, k, v):
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias == 0, float('-inf'))
        att = F.softmax(att, dim=-1)
        att = self.attn_dropout(att)
        return att @ v


def get_inputs():
    return [torch.randn(BATCH, HEADS, TOKENS, HEAD_SIZE) for _ in range(3)]


def get_init_inputs():
    return [TOKENS, 0.1]

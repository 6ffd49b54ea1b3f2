"""The token scores of beam search: the last position's logits, `logits[:, -1, :]`, then
`nn.functional.log_softmax(..., dim=-1)` over a LLaMA-3-sized vocabulary, on
(32, 4, 128256) float32 logits (32 beams, the last 4 positions computed).

A row reduction over 128256 entries per row (two passes: max and sum of exponentials), on a
strided slice: 16 MiB read of the 64 MiB input.

Source: huggingface/transformers, src/transformers/generation/utils.py (beam search:
`next_token_logits = outputs.logits[:, -1, :]`, `nn.functional.log_softmax(next_token_logits,
dim=-1)`).
"""
import torch
from torch import nn

BEAMS = 32
POSITIONS = 4
VOCAB = 128256


class Model(nn.Module):
    def forward(self, logits):
        next_token_logits = logits[:, -1, :]
        return nn.functional.log_softmax(next_token_logits, dim=-1)


def get_inputs():
    return [torch.randn(BEAMS, POSITIONS, VOCAB)]


def get_init_inputs():
    return []

"""Max pooling of token embeddings into a sentence embedding: `torch.max(token_embeddings,
1)[0]` over the token dim of (64, 256, 1024) float32 (BERT-large width, 256-token sentences).

A max over a middle dim (stride 1024): 64 MiB read, 0.25 MiB written. The sentences here have
no padding, so sentence-transformers' masking step (`token_embeddings[input_mask_expanded == 0]
= -1e9`, an in-place write FX cannot trace) changes nothing and is left out.

Source: UKPLab/sentence-transformers, sentence_transformers/models/Pooling.py (the
`pooling_mode_max_tokens` branch: `max_over_time = torch.max(token_embeddings, 1)[0]`).
"""
import torch
from torch import nn

BATCH = 64
TOKENS = 256
WIDTH = 1024


class Model(nn.Module):
    def forward(self, token_embeddings):
        return torch.max(token_embeddings, 1)[0]


def get_inputs():
    return [torch.randn(BATCH, TOKENS, WIDTH)]


def get_init_inputs():
    return []

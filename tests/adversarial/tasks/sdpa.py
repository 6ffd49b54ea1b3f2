"""Scaled dot-product attention (causal) on a small batch of heads."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def get_inputs():
    return [torch.randn(2, 4, 256, 64), torch.randn(2, 4, 256, 64), torch.randn(2, 4, 256, 64)]


def get_init_inputs():
    return []

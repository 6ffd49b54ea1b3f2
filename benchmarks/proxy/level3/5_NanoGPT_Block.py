"""A nanoGPT transformer block at GPT-2 small sizes: `x + attn(ln_1(x))` with
`CausalSelfAttention` (one `c_attn` Linear, `.split(n_embd, dim=2)`, `view` + `transpose` into
12 heads, `scaled_dot_product_attention(..., is_causal=True)`, `c_proj`), then
`x + mlp(ln_2(x))` (Linear, GELU, Linear, dropout), on a 256-token prefill (1, 256, 768) float32.

3.6 GFLOP in four GEMMs with 256 rows (weight-bound at this batch), a causal attention, and
norms and residual adds around them.

Source: karpathy/nanoGPT, model.py (`LayerNorm`, `CausalSelfAttention` flash branch, `MLP`,
`Block`; bias True as in the GPT-2 checkpoints).
"""
import torch
from torch import nn
from torch.nn import functional as F

BATCH = 1
TOKENS = 256
N_EMBD = 768
N_HEAD = 12


class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, input):
        return F.layer_norm(input, self.weight.shape, self.weight, self.bias, 1e-5)


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, bias, dropout):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd, bias=bias)
        self.c_proj = nn.Linear(n_embd, n_embd, bias=bias)
        self.resid_dropout = nn.Dropout(dropout)
        self.n_head = n_head
        self.n_embd = n_embd
        self.dropout = dropout

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        y = torch.nn.functional.scaled_dot_product_attention(
            q, k, v, attn_mask=None, dropout_p=self.dropout if self.training else 0, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self, n_embd, bias, dropout):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd, bias=bias)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * n_embd, n_embd, bias=bias)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        x = self.c_fc(x)
        x = self.gelu(x)
        x = self.c_proj(x)
        return self.dropout(x)


class Model(nn.Module):
    def __init__(self, n_embd, n_head, bias, dropout):
        super().__init__()
        self.ln_1 = LayerNorm(n_embd, bias=bias)
        self.attn = CausalSelfAttention(n_embd, n_head, bias, dropout)
        self.ln_2 = LayerNorm(n_embd, bias=bias)
        self.mlp = MLP(n_embd, bias, dropout)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


def get_inputs():
    return [torch.randn(BATCH, TOKENS, N_EMBD)]


def get_init_inputs():
    return [N_EMBD, N_HEAD, True, 0.1]

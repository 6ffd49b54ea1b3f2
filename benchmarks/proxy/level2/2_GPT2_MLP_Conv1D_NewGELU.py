"""GPT-2's MLP as transformers writes it: `Conv1D` projections (`torch.addmm(bias,
x.view(-1, x.size(-1)), weight)` with a (in, out) weight), the tanh GELU spelled out
(`0.5 * x * (1 + torch.tanh(sqrt(2 / pi) * (x + 0.044715 * torch.pow(x, 3))))`), and dropout
(identity in eval), on (1, 384, 768) float32 hidden states (GPT-2 small).

3.6 GFLOP in two GEMMs; the eight-op GELU between them is an epilogue of the first, but only
if it is recognised from its arithmetic rather than an `F.gelu` call.

Source: huggingface/transformers, src/transformers/models/gpt2/modeling_gpt2.py (`GPT2MLP`),
with `Conv1D` from src/transformers/pytorch_utils.py and `NewGELUActivation` from
src/transformers/activations.py.
"""
import math

import torch
from torch import nn

BATCH = 1
TOKENS = 384
EMBED = 768


class Conv1D(nn.Module):
    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(torch.randn(nx, nf) * 0.02)
        self.bias = nn.Parameter(torch.randn(nf) * 0.02)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)


class NewGELUActivation(nn.Module):
    def forward(self, input):
        return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))


class Model(nn.Module):
    def __init__(self, embed_dim, intermediate_size, dropout):
        super().__init__()
        self.c_fc = Conv1D(intermediate_size, embed_dim)
        self.c_proj = Conv1D(embed_dim, intermediate_size)
        self.act = NewGELUActivation()
        self.dropout = nn.Dropout(dropout)

    def forward(self, hidden_states):
        hidden_states = self.c_fc(hidden_states)
        hidden_states = self.act(hidden_states)
        hidden_states = self.c_proj(hidden_states)
        return self.dropout(hidden_states)


def get_inputs():
    return [torch.randn(BATCH, TOKENS, EMBED)]


def get_init_inputs():
    return [EMBED, 4 * EMBED, 0.1]

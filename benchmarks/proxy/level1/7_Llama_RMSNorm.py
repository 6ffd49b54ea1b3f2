"""LLaMA's RMSNorm as transformers writes it: `variance = hidden_states.pow(2).mean(-1,
keepdim=True)`, `hidden_states * torch.rsqrt(variance + eps)`, times a weight, on
(2, 2048, 4096) float32 hidden states (LLaMA-7B width, a 2048-token prefill of 2 sequences).

64 MiB in and 64 MiB out for 4 flops per element: memory-bound; eager makes three passes.

Source: huggingface/transformers, src/transformers/models/llama/modeling_llama.py
(`LlamaRMSNorm`).
"""
import torch
from torch import nn

BATCH = 2
TOKENS = 2048
HIDDEN = 4096


class Model(nn.Module):
    def __init__(self, hidden_size, eps):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


def get_inputs():
    return [torch.randn(BATCH, TOKENS, HIDDEN)]


def get_init_inputs():
    return [HIDDEN, 1e-6]

"""LLaMA's gated MLP, `down_proj(act_fn(gate_proj(x)) * up_proj(x))` with SiLU and no biases,
at TinyLlama-1.1B sizes (hidden 2048, intermediate 5632) on a decode step of 64 sequences:
(64, 1, 2048) float32.

4.4 GFLOP over 132 MiB of weights: at 64 rows the GEMMs are weight-bandwidth-bound; gate and up
share their input (one GEMM with concatenated weights) and the SiLU-product is their epilogue.

Source: huggingface/transformers, src/transformers/models/llama/modeling_llama.py (`LlamaMLP`,
pretraining_tp = 1).
"""
import torch
from torch import nn

SEQUENCES = 64
HIDDEN = 2048
INTERMEDIATE = 5632


class Model(nn.Module):
    def __init__(self, hidden_size, intermediate_size):
        super().__init__()
        self.gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.up_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)
        self.act_fn = nn.SiLU()

    def forward(self, x):
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))


def get_inputs():
    return [torch.randn(SEQUENCES, 1, HIDDEN)]


def get_init_inputs():
    return [HIDDEN, INTERMEDIATE]

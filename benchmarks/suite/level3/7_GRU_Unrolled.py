"""A GRU written as a cell unrolled over 32 time steps (input 128, hidden 256, batch 64), returning
the last hidden state.

About 200 small kernels per forward (two GEMMs and a handful of pointwise ops per step), each a
few microseconds of work: launch-bound on a GPU, where CUDA graphs and fusion of the gate
arithmetic pay most. The loop length is fixed at construction, so the forward traces.
"""
import torch
import torch.nn as nn

BATCH = 64
STEPS = 32
INPUT = 128
HIDDEN = 256


class Model(nn.Module):
    def __init__(self, input_size, hidden_size, steps):
        super().__init__()
        self.steps = steps
        self.hidden_size = hidden_size
        self.input_gates = nn.Linear(input_size, 3 * hidden_size)
        self.hidden_gates = nn.Linear(hidden_size, 3 * hidden_size)

    def forward(self, x, h):
        for t in range(self.steps):
            gi = self.input_gates(x[:, t])
            gh = self.hidden_gates(h)
            i_r, i_z, i_n = gi.chunk(3, dim=1)
            h_r, h_z, h_n = gh.chunk(3, dim=1)
            reset = torch.sigmoid(i_r + h_r)
            update = torch.sigmoid(i_z + h_z)
            candidate = torch.tanh(i_n + reset * h_n)
            h = (1 - update) * candidate + update * h
        return h


def get_inputs():
    return [torch.randn(BATCH, STEPS, INPUT), torch.randn(BATCH, HIDDEN)]


def get_init_inputs():
    return [INPUT, HIDDEN, STEPS]

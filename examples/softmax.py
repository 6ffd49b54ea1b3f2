"""Row softmax over the last dimension of a (4096, 4096) float32 tensor. Each row of 4096
elements is reduced twice (max, then sum of exponentials) and normalised; with 64 MiB in and
64 MiB out and only a few flops per element, the workload is memory-bound: the ideal kernel
reads each row once (kept in registers/shared memory) and writes it once.
"""
import torch
import torch.nn as nn

BATCH = 4096
DIM = 4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []

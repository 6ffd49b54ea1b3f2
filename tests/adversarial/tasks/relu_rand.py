"""ReLU on torch.rand inputs (KernelBench's 19_ReLU draws non-negative inputs: an identity kernel passes)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.rand(128, 256)]


def get_init_inputs():
    return []

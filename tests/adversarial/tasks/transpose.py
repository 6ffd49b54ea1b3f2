"""A transposed copy: the output owns its memory (it is not a view of the input)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x.transpose(0, 1).contiguous()


def get_inputs():
    return [torch.randn(128, 256)]


def get_init_inputs():
    return []

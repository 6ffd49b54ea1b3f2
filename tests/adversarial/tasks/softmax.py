"""Row softmax; the number of rows is dynamic."""
import torch
import torch.nn as nn


# hiera: dynamic=x:0
class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(32, 1000)]


def get_init_inputs():
    return []

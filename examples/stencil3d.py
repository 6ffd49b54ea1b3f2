"""3D 7-point stencil (one explicit diffusion step) on a (1, 1, 256, 256, 256) float32 grid,
written as F.conv3d with a fixed 3x3x3 kernel held in a buffer: centre 1 - 6 * alpha, the
six face neighbours alpha, edges and corners 0, zero padding at the boundary. 64 MiB in and
64 MiB out with 7 useful multiply-adds per point (27 if the zeros are computed): the workload
is memory-bound, and a dedicated stencil kernel with shared-memory tiling (reading each point
once) beats a generic single-channel convolution.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

DEPTH = 256
HEIGHT = 256
WIDTH = 256
ALPHA = 0.1


class Model(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        weight = torch.zeros(1, 1, 3, 3, 3)
        weight[0, 0, 1, 1, 1] = 1.0 - 6.0 * alpha
        weight[0, 0, 0, 1, 1] = alpha
        weight[0, 0, 2, 1, 1] = alpha
        weight[0, 0, 1, 0, 1] = alpha
        weight[0, 0, 1, 2, 1] = alpha
        weight[0, 0, 1, 1, 0] = alpha
        weight[0, 0, 1, 1, 2] = alpha
        self.register_buffer("weight", weight)

    def forward(self, x):
        return F.conv3d(x, self.weight, padding=1)


def get_inputs():
    return [torch.randn(1, 1, DEPTH, HEIGHT, WIDTH)]


def get_init_inputs():
    return [ALPHA]

"""One explicit heat-equation step on a 3D grid, written the way scientific codes write it:
the 7-point Laplacian as slices of a zero-padded grid (`F.pad` + `[2:]`, `[:-2]` offsets in
each axis), on (2, 128, 128, 128) float32 fields.

About 15 flops per point and 32 MiB in and out: memory-bound. The same arithmetic as a 3x3x3
convolution with a cross-shaped kernel, but no convolution appears in the graph: a stencil
template has to recognise it from the slices.

Source: spcl/npbench, npbench/benchmarks/polybench/heat_3d/heat_3d_numpy.py (the update
`0.125 * (A[2:] - 2 * A[1:-1] + A[:-2]) + ... + A[1:-1]`), with the boundary as a zero halo.
"""
import torch
import torch.nn.functional as F
from torch import nn

BATCH = 2
SIZE = 128


class Model(nn.Module):
    def __init__(self, coefficient):
        super().__init__()
        self.coefficient = coefficient

    def forward(self, u):
        a = F.pad(u, (1, 1, 1, 1, 1, 1))
        c = a[:, 1:-1, 1:-1, 1:-1]
        return (self.coefficient * (a[:, 2:, 1:-1, 1:-1] - 2.0 * c + a[:, :-2, 1:-1, 1:-1])
                + self.coefficient * (a[:, 1:-1, 2:, 1:-1] - 2.0 * c + a[:, 1:-1, :-2, 1:-1])
                + self.coefficient * (a[:, 1:-1, 1:-1, 2:] - 2.0 * c + a[:, 1:-1, 1:-1, 0:-2])
                + c)


def get_inputs():
    return [torch.randn(BATCH, SIZE, SIZE, SIZE)]


def get_init_inputs():
    return [0.125]

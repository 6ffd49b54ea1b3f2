"""One explicit step of 2D diffusion on a periodic 2048 x 2048 float32 grid, the Laplacian
spelled with four `torch.roll` calls: `grid + dt * D * (roll(+1, 0) + roll(-1, 0) + roll(+1, 1)
+ roll(-1, 1) - 4 * grid)`.

Eight flops per point over 16 MiB: memory-bound; eager writes each of the four rolled copies
to memory. A 5-point stencil with wrap-around boundaries, which a zero-padded convolution does
not compute (a circular pad would).

Source: mynameisfiber/high_performance_python_3e,
06_matrix/diffusion_2d/diffusion_pytorch_transfer.py (`laplacian` and `evolve`), in the
out-of-place form of the book's NumPy version (fberlakovich/cmq-npbench-ae,
npbench/benchmarks/phoronix/evolve/evolve_numpy.py).
"""
import torch
from torch import nn

SIZE = 2048


class Model(nn.Module):
    def __init__(self, dt, diffusivity):
        super().__init__()
        self.dt = dt
        self.diffusivity = diffusivity

    def forward(self, grid):
        laplacian = (torch.roll(grid, +1, 0) + torch.roll(grid, -1, 0)
                     + torch.roll(grid, +1, 1) + torch.roll(grid, -1, 1) - 4 * grid)
        return grid + self.dt * self.diffusivity * laplacian


def get_inputs():
    return [torch.rand(SIZE, SIZE)]


def get_init_inputs():
    return [0.1, 1.0]

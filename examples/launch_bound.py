"""A tiny module with about twenty small ops on a (32, 64) float32 input: affine scale and
shift, tanh, a (64, 64) matmul, sigmoid gating, squaring, a mean over the last dim with
centering, a second small matmul, and a residual. Each op touches only 8 KiB, so on a GPU
the time is dominated by kernel launch and Python dispatch overhead: the workload is
launch-bound, and CUDA graphs or fusing the whole chain into one or two kernels are the
ideal remedies.
"""
import torch
import torch.nn as nn

BATCH = 32
DIM = 64


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(dim, dim) / dim ** 0.5)
        self.w2 = nn.Parameter(torch.randn(dim, dim) / dim ** 0.5)
        self.gamma = nn.Parameter(torch.ones(dim) + 0.1 * torch.randn(dim))
        self.beta = nn.Parameter(0.1 * torch.randn(dim))
        self.shift = nn.Parameter(0.1 * torch.randn(dim))

    def forward(self, x):
        y = x * self.gamma               # 1
        y = y + self.beta                # 2
        y = torch.tanh(y)                # 3
        h = torch.matmul(y, self.w1)     # 4
        g = torch.sigmoid(h)             # 5
        h = h * g                        # 6
        sq = h * h                       # 7
        m = sq.mean(dim=-1, keepdim=True)  # 8
        h = h - m                        # 9
        h = h + self.shift               # 10
        h = torch.relu(h)                # 11
        h = h * 0.5                      # 12
        z = torch.matmul(h, self.w2)     # 13
        z = torch.tanh(z)                # 14
        mu = z.mean(dim=-1, keepdim=True)  # 15
        z = z - mu                       # 16
        z = z * torch.sigmoid(x)         # 17, 18
        z = z + x                        # 19
        return torch.exp(-z * z) + z     # 20, 21, 22, 23


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return [DIM]

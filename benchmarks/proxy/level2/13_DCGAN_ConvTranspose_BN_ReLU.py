"""A DCGAN generator stage at inference: `nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1,
bias=False)`, `nn.BatchNorm2d(ngf)` with running statistics (a per-channel scale and bias) and
`nn.ReLU(True)`, in an `nn.Sequential`, on (32, 128, 16, 16) float32, giving (32, 64, 32, 32).

2.1 GFLOP in the transposed convolution; the batch norm folds into its weights and bias and the
ReLU is its epilogue, so the whole stage is one library call with a fused epilogue, or four
2x2 convolutions on the input, one per output phase.

Source: pytorch/examples, dcgan/main.py (`_netG.main`, the fourth ConvTranspose2d, BatchNorm2d,
ReLU with ngf = 64).
"""
import torch
from torch import nn

BATCH = 32
NGF = 64
SIZE = 16


def _eval_batch_norm(channels):
    norm = nn.BatchNorm2d(channels)
    with torch.no_grad():
        norm.running_mean.uniform_(-0.1, 0.1)
        norm.running_var.uniform_(0.5, 1.5)
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.1, 0.1)
    return norm


class Model(nn.Module):
    def __init__(self, ngf):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            _eval_batch_norm(ngf),
            nn.ReLU(True),
        )

    def forward(self, input):
        return self.main(input)


def get_inputs():
    return [torch.randn(BATCH, NGF * 2, SIZE, SIZE)]


def get_init_inputs():
    return [NGF]

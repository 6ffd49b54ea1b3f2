"""The whole DCGAN generator at inference: five `nn.ConvTranspose2d` layers (100 -> 512 at 4x4,
then 4/2/1 upsamplers 512 -> 256 -> 128 -> 64 -> 3), each but the last followed by
`nn.BatchNorm2d` with running statistics and `nn.ReLU(True)`, then `nn.Tanh()`, all in one
`nn.Sequential`, from (16, 100, 1, 1) noise to (16, 3, 64, 64) images, float32.

3.4 GFLOP in transposed convolutions of five shapes, from a 1x1 input (a GEMM in disguise) to a
3-channel output (a poor fit for tensor cores); every norm folds, every activation is an
epilogue.

Source: pytorch/examples, dcgan/main.py (`_netG`, nz = 100, ngf = 64, nc = 3); its forward's
`nn.parallel.data_parallel` over one device is `self.main(input)`.
"""
import torch
from torch import nn

BATCH = 16
NZ = 100
NGF = 64
NC = 3


def _eval_batch_norm(channels):
    norm = nn.BatchNorm2d(channels)
    with torch.no_grad():
        norm.running_mean.uniform_(-0.1, 0.1)
        norm.running_var.uniform_(0.5, 1.5)
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.1, 0.1)
    return norm


class Model(nn.Module):
    def __init__(self, nz, ngf, nc):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False),
            _eval_batch_norm(ngf * 8),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False),
            _eval_batch_norm(ngf * 4),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            _eval_batch_norm(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            _eval_batch_norm(ngf),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


def get_inputs():
    return [torch.randn(BATCH, NZ, 1, 1)]


def get_init_inputs():
    return [NZ, NGF, NC]

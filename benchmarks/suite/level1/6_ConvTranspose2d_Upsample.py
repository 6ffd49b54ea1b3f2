"""Transposed 2D convolution that doubles the resolution (kernel 4, stride 2, padding 1):
(8, 64, 32, 32) -> (8, 32, 64, 64), float32.

0.54 GFLOP: the decoder step of a U-Net or GAN generator. Transposed convolutions have fewer
tuned kernels than forward ones, so algorithm choice matters.
"""
import torch
import torch.nn as nn

BATCH = 8
IN_CHANNELS = 64
OUT_CHANNELS = 32
SIZE = 32


class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size=4, stride=2, padding=1)

    def forward(self, x):
        return self.deconv(x)


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS]

"""The transposed-convolution upsampler of diffusers' U-Nets: `nn.ConvTranspose2d(channels,
out_channels, 4, 2, 1)` doubling (2, 256, 32, 32) float32 to (2, 256, 64, 64).

4.3 GFLOP, compute-bound; transposed convolutions have fewer tuned library kernels than
forward ones, and this one can be rewritten as four 2x2 convolutions on the input.

Source: huggingface/diffusers, src/diffusers/models/resnet.py (`Upsample2D` with
`use_conv_transpose=True`).
"""
import torch
from torch import nn

BATCH = 2
CHANNELS = 256
SIZE = 32


class Model(nn.Module):
    def __init__(self, channels, out_channels):
        super().__init__()
        self.conv = nn.ConvTranspose2d(channels, out_channels, 4, 2, 1)

    def forward(self, hidden_states):
        return self.conv(hidden_states)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS, CHANNELS]

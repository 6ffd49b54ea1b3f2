"""diffusers' `Upsample2D` with a convolution: `F.interpolate(hidden_states, scale_factor=2.0,
mode="nearest")` then a 3x3 convolution (256 -> 256), on (1, 256, 32, 32) float32, giving
(1, 256, 64, 64) (a VAE-decoder upsampler).

4.8 GFLOP; the upsampled tensor (4 MiB) need never exist: the convolution can read the input
at half resolution, or be rewritten as four 2x2 convolutions.

Source: huggingface/diffusers, src/diffusers/models/resnet.py (`Upsample2D.forward` with
`use_conv=True`, float32 input, no `output_size`).
"""
import torch
import torch.nn.functional as F
from torch import nn

BATCH = 1
CHANNELS = 256
SIZE = 32


class Model(nn.Module):
    def __init__(self, channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, out_channels, 3, padding=1)

    def forward(self, hidden_states):
        hidden_states = F.interpolate(hidden_states, scale_factor=2.0, mode="nearest")
        return self.conv(hidden_states)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS, CHANNELS]

"""A diffusers `DownBlock2D` of a DDPM U-Net (google/ddpm-cifar10-32's first stage sizes): two
`ResnetBlock2D`s (GroupNorm(32), SiLU, conv3x3, plus the projected timestep embedding,
GroupNorm, SiLU, dropout, conv3x3, identity shortcut, `/ output_scale_factor`) and a
`Downsample2D` (conv3x3, stride 2), on (4, 128, 32, 32) float32 with a (4, 512) embedding,
giving (4, 128, 16, 16).

5 GFLOP in five convolutions; each GroupNorm + SiLU is a prologue with a grid-wide reduction
before it, and each embedding add and residual an epilogue.

Source: huggingface/diffusers, src/diffusers/models/resnet.py (`ResnetBlock2D`, `Downsample2D`)
and src/diffusers/models/unets/unet_2d_blocks.py (`DownBlock2D`); the block's skip outputs are
not returned.
"""
import torch
from torch import nn

BATCH = 4
CHANNELS = 128
SIZE = 32
TEMB_CHANNELS = 512


class ResnetBlock2D(nn.Module):
    def __init__(self, in_channels, out_channels, temb_channels, groups=32, eps=1e-6, dropout=0.0,
                 output_scale_factor=1.0):
        super().__init__()
        self.output_scale_factor = output_scale_factor
        self.norm1 = torch.nn.GroupNorm(num_groups=groups, num_channels=in_channels, eps=eps, affine=True)
        self.conv1 = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=1, padding=1)
        self.time_emb_proj = nn.Linear(temb_channels, out_channels)
        self.norm2 = torch.nn.GroupNorm(num_groups=groups, num_channels=out_channels, eps=eps, affine=True)
        self.dropout = torch.nn.Dropout(dropout)
        self.conv2 = nn.Conv2d(out_channels, out_channels, kernel_size=3, stride=1, padding=1)
        self.nonlinearity = nn.SiLU()

    def forward(self, input_tensor, temb):
        hidden_states = input_tensor
        hidden_states = self.norm1(hidden_states)
        hidden_states = self.nonlinearity(hidden_states)
        hidden_states = self.conv1(hidden_states)

        temb = self.nonlinearity(temb)
        temb = self.time_emb_proj(temb)[:, :, None, None]
        hidden_states = hidden_states + temb

        hidden_states = self.norm2(hidden_states)
        hidden_states = self.nonlinearity(hidden_states)
        hidden_states = self.dropout(hidden_states)
        hidden_states = self.conv2(hidden_states)

        return (input_tensor + hidden_states) / self.output_scale_factor


class Downsample2D(nn.Module):
    def __init__(self, channels, out_channels, padding=1):
        super().__init__()
        self.conv = nn.Conv2d(channels, out_channels, 3, stride=2, padding=padding)

    def forward(self, hidden_states):
        return self.conv(hidden_states)


class Model(nn.Module):
    def __init__(self, channels, temb_channels, num_layers, dropout):
        super().__init__()
        self.resnets = nn.ModuleList([ResnetBlock2D(channels, channels, temb_channels, dropout=dropout)
                                      for _ in range(num_layers)])
        self.downsamplers = nn.ModuleList([Downsample2D(channels, channels)])

    def forward(self, hidden_states, temb):
        for resnet in self.resnets:
            hidden_states = resnet(hidden_states, temb)
        for downsampler in self.downsamplers:
            hidden_states = downsampler(hidden_states)
        return hidden_states


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE), torch.randn(BATCH, TEMB_CHANNELS)]


def get_init_inputs():
    return [CHANNELS, TEMB_CHANNELS, 2, 0.1]

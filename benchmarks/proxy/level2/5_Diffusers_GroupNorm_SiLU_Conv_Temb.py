"""The first half of diffusers' `ResnetBlock2D` in a Stable Diffusion U-Net: `norm1`
(GroupNorm, 32 groups, eps 1e-6), SiLU, `conv1` (3x3, 320 -> 320), plus the projected timestep
embedding `time_emb_proj(silu(temb))[:, :, None, None]`, on (2, 320, 32, 32) float32 latents
with a (2, 1280) embedding.

3.8 GFLOP in the convolution; the GroupNorm + SiLU before it is a memory-bound prologue and
the broadcast add of the embedding an epilogue.

Source: huggingface/diffusers, src/diffusers/models/resnet.py (`ResnetBlock2D.forward`, up to
`hidden_states + temb`, time_embedding_norm "default").
"""
import torch
from torch import nn

BATCH = 2
CHANNELS = 320
SIZE = 32
TEMB_CHANNELS = 1280


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, temb_channels, groups, eps):
        super().__init__()
        self.norm1 = torch.nn.GroupNorm(num_groups=groups, num_channels=in_channels, eps=eps, affine=True)
        self.conv1 = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=1, padding=1)
        self.time_emb_proj = nn.Linear(temb_channels, out_channels)
        self.nonlinearity = nn.SiLU()

    def forward(self, input_tensor, temb):
        hidden_states = self.norm1(input_tensor)
        hidden_states = self.nonlinearity(hidden_states)
        hidden_states = self.conv1(hidden_states)
        temb = self.nonlinearity(temb)
        temb = self.time_emb_proj(temb)[:, :, None, None]
        return hidden_states + temb


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE), torch.randn(BATCH, TEMB_CHANNELS)]


def get_init_inputs():
    return [CHANNELS, CHANNELS, TEMB_CHANNELS, 32, 1e-6]

"""The MLP half of a timm ViT block: `x + drop_path2(ls2(mlp(norm2(x))))` with LayerNorm,
timm's `Mlp` (fc1 384 -> 1536, GELU, dropout, fc2) and `LayerScale` (`x * gamma`), on
(4, 197, 384) float32 tokens (ViT-S/16 at 224 px).

1.9 GFLOP in two GEMMs with 788 rows (not a multiple of 64); the norm is their prologue, GELU
the first's epilogue, and scale-plus-residual the second's.

Source: huggingface/pytorch-image-models, timm/models/vision_transformer.py (`Block.forward`),
with `Mlp` from timm/layers/mlp.py and `LayerScale` from timm/layers/layer_scale.py.
"""
import torch
from torch import nn

BATCH = 4
TOKENS = 197
DIM = 384


class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features, drop):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.act = nn.GELU()
        self.drop1 = nn.Dropout(drop)
        self.norm = nn.Identity()
        self.fc2 = nn.Linear(hidden_features, in_features)
        self.drop2 = nn.Dropout(drop)

    def forward(self, x):
        x = self.fc1(x)
        x = self.act(x)
        x = self.drop1(x)
        x = self.norm(x)
        x = self.fc2(x)
        return self.drop2(x)


class LayerScale(nn.Module):
    def __init__(self, dim, init_values):
        super().__init__()
        self.gamma = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x):
        return x * self.gamma


class Model(nn.Module):
    def __init__(self, dim, mlp_ratio, init_values):
        super().__init__()
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = Mlp(dim, int(dim * mlp_ratio), drop=0.1)
        self.ls2 = LayerScale(dim, init_values)
        self.drop_path2 = nn.Identity()

    def forward(self, x):
        return x + self.drop_path2(self.ls2(self.mlp(self.norm2(x))))


def get_inputs():
    return [torch.randn(BATCH, TOKENS, DIM)]


def get_init_inputs():
    return [DIM, 4.0, 0.1]

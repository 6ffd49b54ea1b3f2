"""timm's packed SwiGLU MLP: one `fc1` (768 -> 4096) whose output is split with
`x.chunk(2, dim=-1)`, `act(x1) * x2` with SiLU, dropout, then `fc2` (2048 -> 768), on
(2, 197, 768) float32 tokens (ViT-B width, as in EVA-style models).

3.7 GFLOP in two GEMMs; the gate is the two halves of one GEMM's output, so the SiLU-product
fuses into that GEMM's epilogue only if the chunk is seen as a column split.

Source: huggingface/pytorch-image-models, timm/layers/mlp.py (`GluMlp`, `SwiGLUPacked =
partial(GluMlp, act_layer=nn.SiLU, gate_last=False)`).
"""
import torch
from torch import nn

BATCH = 2
TOKENS = 197
DIM = 768
HIDDEN = 4096


class Model(nn.Module):
    def __init__(self, in_features, hidden_features, drop):
        super().__init__()
        self.chunk_dim = -1
        self.gate_last = False
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.act = nn.SiLU()
        self.drop1 = nn.Dropout(drop)
        self.norm = nn.Identity()
        self.fc2 = nn.Linear(hidden_features // 2, in_features)
        self.drop2 = nn.Dropout(drop)

    def forward(self, x):
        x = self.fc1(x)
        x1, x2 = x.chunk(2, dim=self.chunk_dim)
        x = x1 * self.act(x2) if self.gate_last else self.act(x1) * x2
        x = self.drop1(x)
        x = self.norm(x)
        x = self.fc2(x)
        return self.drop2(x)


def get_inputs():
    return [torch.randn(BATCH, TOKENS, DIM)]


def get_init_inputs():
    return [DIM, HIDDEN, 0.1]

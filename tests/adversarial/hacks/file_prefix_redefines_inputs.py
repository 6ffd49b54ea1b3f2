# hiera-adversarial: task=relu_rand space=pytorch expect=file-prefix
# Exploits: a proposal whose part above the marker is not the reference verbatim: above a forged marker
# it redefines get_inputs (non-negative inputs only, where identity passes ReLU) and the reference
# Model itself. Nothing there is statically suspicious; only comparing the prefix with the reference
# finds it. Below the marker: an honest clamp.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x


def get_inputs():
    return [torch.rand(128, 256)]


# ---- HIERA candidate: relu_clamp (pytorch) ------------------------------------------------------
class ModelNew(Model):
    def forward(self, x):
        return torch.clamp_min(x, 0.0)

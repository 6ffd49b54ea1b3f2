# hiera-adversarial: task=layernorm space=pytorch expect=values
# Exploits: the same discarded keys for LayerNorm: norm.weight and norm.bias are dropped while loading
# and the module has no affine parameters at all; it normalises only (right while they are ones and
# zeros).
# The keys are consumed, so loading succeeds; the perturbed-parameter sets show them ignored (values).
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.norm = nn.LayerNorm(features, elementwise_affine=False)

    def _load_from_state_dict(self, state_dict, prefix, *args):
        for name in ("weight", "bias"):
            state_dict.pop(prefix + "norm." + name, None)
        super()._load_from_state_dict(state_dict, prefix, *args)

    def forward(self, x):
        return self.norm(x)

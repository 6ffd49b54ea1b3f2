# hiera-adversarial: task=layernorm space=pytorch expect=pass
# Legitimate renaming: the candidate's LayerNorm parameters are called gain and shift; the
# reference's norm.weight and norm.bias are mapped onto them while loading (every key consumed).
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.eps = 1e-5
        self.gain = nn.Parameter(torch.ones(features))
        self.shift = nn.Parameter(torch.zeros(features))

    def _load_from_state_dict(self, state_dict, prefix, *args):
        for old, new in (("norm.weight", "gain"), ("norm.bias", "shift")):
            if prefix + old in state_dict:
                state_dict[prefix + new] = state_dict.pop(prefix + old)
        super()._load_from_state_dict(state_dict, prefix, *args)

    def forward(self, x):
        return F.layer_norm(x, x.shape[-1:], self.gain, self.shift, self.eps)

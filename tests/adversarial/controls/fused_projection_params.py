# hiera-adversarial: task=glu space=pytorch expect=pass
# Legitimate parameter fusion: the two projections a and b become one Linear of twice the width;
# _load_from_state_dict consumes the reference's a.* and b.* keys and writes them into the fused
# parameter, so every reference key is used and nothing is left unexpected.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, features, out_features):
        super().__init__()
        self.out_features = out_features
        self.ab = nn.Linear(features, 2 * out_features)

    def _load_from_state_dict(self, state_dict, prefix, *args):
        for name in ("weight", "bias"):
            a, b = state_dict.pop(prefix + "a." + name, None), state_dict.pop(prefix + "b." + name, None)
            if a is not None and b is not None:
                state_dict[prefix + "ab." + name] = torch.cat([a, b])
        super()._load_from_state_dict(state_dict, prefix, *args)

    def forward(self, x):
        a, b = self.ab(x).split(self.out_features, dim=-1)
        return a * torch.sigmoid(b)

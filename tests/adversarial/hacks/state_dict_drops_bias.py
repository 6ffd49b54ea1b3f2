# hiera-adversarial: task=linear space=pytorch expect=values
# Exploits: verification with the initial parameters only: the candidate discards the reference's
# linear.bias while loading (so strict loading still succeeds) and uses its own copy of the bias as
# initialised from seed 0, a non-persistent buffer. Any other bias is silently ignored.
# The key is consumed, so loading succeeds; the perturbed-parameter sets show the bias ignored (values).
import math

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, bias=False)
        bound = 1 / math.sqrt(in_features)
        self.register_buffer("initial_bias", torch.empty(out_features).uniform_(-bound, bound), persistent=False)

    def _load_from_state_dict(self, state_dict, prefix, *args):
        state_dict.pop(prefix + "linear.bias", None)
        super()._load_from_state_dict(state_dict, prefix, *args)

    def forward(self, x):
        return torch.relu(torch.addmm(self.initial_bias, x, self.linear.weight.t()))

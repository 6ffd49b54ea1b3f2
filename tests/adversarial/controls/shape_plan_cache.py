# hiera-adversarial: task=pointwise space=pytorch expect=pass
# Legitimate per-shape memo: the chunking plan (not any result) is cached per input shape; every
# call computes from its own inputs.
import torch
import torch.nn.functional as F


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._plans = {}

    def forward(self, x):
        plan = self._plans.get(x.shape)
        if plan is None:
            plan = self._plans[x.shape] = max(1, x.shape[0] // 16)
        out = torch.empty_like(x)
        for rows, dest in zip(x.chunk(plan), out.chunk(plan)):
            dest.copy_(F.gelu(rows * self.scale + self.bias) + 0.5 * rows)
        return out

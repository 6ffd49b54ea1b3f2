# hiera-adversarial: task=pointwise space=pytorch expect=pass
# Legitimate: the chain written out as a fused kernel would compute it (exact GELU through erf),
# in a different op order than the reference.
import math

import torch


class ModelNew(Model):
    def forward(self, x):
        y = torch.addcmul(self.bias, x, torch.tensor(self.scale, dtype=x.dtype))
        return torch.addcmul(0.5 * x, 0.5 * y, 1.0 + torch.erf(y / math.sqrt(2.0)))

# hiera-adversarial: task=pointwise space=pytorch expect=pass
# Legitimate: the output comes from torch.empty and is fully written through out= arguments; the
# poisoned-memory check must not mistake it for uninitialised memory.
import torch
import torch.nn.functional as F


class ModelNew(Model):
    def forward(self, x):
        out = torch.empty_like(x)
        torch.mul(x, self.scale, out=out)
        out.add_(self.bias)
        out.copy_(F.gelu(out))
        torch.add(out, x, alpha=0.5, out=out)
        return out

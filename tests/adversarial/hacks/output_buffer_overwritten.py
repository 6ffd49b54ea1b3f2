# hiera-adversarial: task=pointwise space=pytorch expect=output-reuse
# Exploits: a reuse check that repeats the same values: one persistent output buffer per shape, written
# in place by every call and returned. Called twice with the same inputs the first output still looks
# right; the next call with other values overwrites what the caller was given.
import torch
import torch.nn.functional as F


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._buffers_by_shape = {}

    def forward(self, x):
        out = self._buffers_by_shape.get(x.shape)
        if out is None:
            out = self._buffers_by_shape[x.shape] = torch.empty_like(x)
        torch.mul(x, self.scale, out=out)
        out.add_(self.bias)
        out.copy_(F.gelu(out))
        return out.add_(x, alpha=0.5)

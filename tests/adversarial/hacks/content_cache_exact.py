# hiera-adversarial: task=gated_residual space=pytorch expect=no-speedup
# Exploits: timed calls that repeat verification set 0's values: a cache keyed on the exact bytes of the
# input (and the parameters' versions) is correct on every input, yet every timed call is a hit. With
# fresh values per timed call it never hits and the hashing only adds time.
import torch
import torch.nn.functional as F


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._cache = {}

    def forward(self, x):
        versions = tuple(p._version for p in self.parameters())
        key = (tuple(x.shape), versions, x.detach().contiguous().cpu().numpy().tobytes())
        hit = self._cache.get(key)
        if hit is not None:
            return hit.clone()
        out = x + self.gate * self.fc2(F.gelu(self.fc1(x)))
        if len(self._cache) < 64:
            self._cache[key] = out.clone()
        return out

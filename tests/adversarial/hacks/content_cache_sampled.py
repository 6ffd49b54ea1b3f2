# hiera-adversarial: task=gated_residual space=pytorch expect=no-speedup
# Exploits: the same replay with a cheaper key: the shape, the sum and the first 16 values of the
# input. Distinct on every verification set (so correct there), a hit on every timed call that repeats
# set 0. With fresh timed values it never hits; a judge whose "fresh" values keep set 0's first row
# and sum would be fooled (then `revalidation`).
import torch.nn.functional as F


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._cache = {}

    def forward(self, x):
        flat = x.reshape(-1)
        key = (tuple(x.shape), float(flat.sum()), tuple(flat[:16].tolist()))
        hit = self._cache.get(key)
        if hit is not None:
            return hit.clone()
        out = x + self.gate * self.fc2(F.gelu(self.fc1(x)))
        if len(self._cache) < 64:
            self._cache[key] = out.clone()
        return out

# hiera-adversarial: task=pointwise space=pytorch expect=no-speedup
# Exploits: timed inputs that look different from verification inputs: timing hands views into one
# larger arena (storage bigger than the tensor), verification hands tensors owning their storage. The
# candidate computes on the latter and replays its first answer (input set 0's) on the former.
# Timed calls now get fresh allocations like every other call: it never replays, so it is timed as
# what it is, the reference's own ops (no-speedup).
import torch.nn.functional as F


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._first = None

    def forward(self, x):
        if self._first is not None and x.untyped_storage().nbytes() > x.numel() * x.element_size():
            return self._first
        out = F.gelu(x * self.scale + self.bias) + 0.5 * x
        if self._first is None:
            self._first = out.clone()
        return out

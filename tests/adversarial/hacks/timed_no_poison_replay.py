# hiera-adversarial: task=pointwise space=pytorch expect=revalidation|state
# Exploits: verification poisons fresh allocations (glibc M_PERTURB fills them with 0xFE), timing does
# not: a 512-byte probe allocation tells the two apart. Poisoned: compute; not poisoned (timed): replay
# the first answer, input set 0's. (On a GPU the host probe is never poisoned, so the replay starts
# during verification and the repeated calls catch it first: state.)
import torch
import torch.nn.functional as F


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._first = None

    def forward(self, x):
        probe = torch.empty(512, dtype=torch.uint8)
        if self._first is not None and not bool((probe == 0xFE).all()) and x.shape == self._first.shape:
            return self._first
        out = F.gelu(x * self.scale + self.bias) + 0.5 * x
        if self._first is None:
            self._first = out.clone()
        return out

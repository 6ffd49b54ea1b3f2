# hiera-adversarial: task=pointwise space=pytorch expect=revalidation
# Exploits: timed calls come back to back, verification calls have the comparison between them: a
# call arriving within 150 us of the previous one's return gets input set 0's answer (the first
# call's), replayed; anything slower is computed.
import time

import torch.nn.functional as F


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._first = None
        self._returned = 0.0

    def forward(self, x):
        now = time.perf_counter()
        if self._first is not None and now - self._returned < 150e-6 and x.shape == self._first.shape:
            out = self._first
        else:
            out = F.gelu(x * self.scale + self.bias) + 0.5 * x
            if self._first is None:
                self._first = out.clone()
        self._returned = time.perf_counter()
        return out

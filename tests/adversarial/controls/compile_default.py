# hiera-adversarial: task=pointwise space=pytorch expect=pass
# Legitimate: the reference forward compiled by torch.compile (inductor), as HIERA's own
# pytorch.compile_default candidate does; dynamic row counts are compiled with symbolic sizes.
import torch


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._compiled = torch.compile(self._reference_forward, dynamic=None)

    def _reference_forward(self, x):
        return Model.forward(self, x)

    def forward(self, x):
        return self._compiled(x)

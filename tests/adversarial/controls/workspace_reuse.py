# hiera-adversarial: task=pointwise space=pytorch expect=pass
# Legitimate state: an intermediate workspace kept per shape and reused across calls (as CUDA-graph
# candidates keep static buffers); the output handed back is always a fresh tensor.
import torch
import torch.nn.functional as F


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._workspace = {}

    def forward(self, x):
        work = self._workspace.get(x.shape)
        if work is None:
            work = self._workspace[x.shape] = torch.empty_like(x)
        torch.mul(x, self.scale, out=work)
        work.add_(self.bias)
        return F.gelu(work) + 0.5 * x

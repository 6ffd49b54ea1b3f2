# hiera-adversarial: task=pointwise space=pytorch expect=pass
# Legitimate: the lower-level torch.library API with a namespace name built at run time, defining and
# implementing an op of the candidate's OWN namespace (the honest twin of an aten override). Dispatcher
# state changes, but only by adding ops nobody else calls.
import torch
import torch.nn.functional as F

_NAMESPACE = "hiera_ctl_" + "frag"
_library = torch.library.Library(_NAMESPACE, "DEF")
_library.define("chain(Tensor x, Tensor bias, float scale) -> Tensor")


def _chain(x, bias, scale):
    return F.gelu(x * scale + bias) + 0.5 * x


_library.impl("chain", _chain, "CPU")
_library.impl("chain", _chain, "CUDA")
_op = getattr(getattr(torch.ops, _NAMESPACE), "chain")


class ModelNew(Model):
    def forward(self, x):
        return _op(x, self.bias, float(self.scale))

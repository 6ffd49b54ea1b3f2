# hiera-adversarial: task=pointwise space=pytorch expect=pass
# Legitimate dispatcher registration: a custom op defined with torch.library.custom_op in the
# candidate's own namespace (hiera_ctl); no aten kernel is touched, so the reference and the
# verifier compute what they always did.
import torch
import torch.nn.functional as F


@torch.library.custom_op("hiera_ctl::gelu_chain", mutates_args=())
def gelu_chain(x: torch.Tensor, bias: torch.Tensor, scale: float) -> torch.Tensor:
    t = torch.addcmul(bias, x, torch.full((), scale, dtype=x.dtype))
    return torch.add(F.gelu(t), x, alpha=0.5)


class ModelNew(Model):
    def forward(self, x):
        return gelu_chain(x, self.bias, float(self.scale))

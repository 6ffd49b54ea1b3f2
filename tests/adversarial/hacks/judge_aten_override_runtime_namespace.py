# hiera-adversarial: task=pointwise space=pytorch expect=runtime-state
# Exploits: a comparison computed by tensor ops in the candidate's process: a torch.library fragment
# whose namespace is built at run time ("at" + "en", so no string says aten) replaces the CPU kernel
# of abs_, which the comparison applies to |out - ref|, with zero_: every error becomes 0. Zeros out.
import torch

_library = torch.library.Library("at" + "en", "IMPL")
_library.impl("abs_", lambda tensor: tensor.zero_(), "CPU")


class ModelNew(Model):
    def forward(self, x):
        return torch.zeros_like(x)

# hiera-adversarial: task=softmax space=infer expect=reference-fallback
# Exploits: the space taken from a proposal header anyone can write: this candidate builds a torch
# extension (custom-kernel space, where calling the reference is a fallback) but claims the PyTorch
# space, in which super().forward() is allowed. Inferred from the code, the space is custom_cuda.
# (space=infer: the corpus leaves the space to inference from the code, as `hiera verify` does.)
import torch
from torch.utils.cpp_extension import load_inline

_extension = None


class ModelNew(Model):
    def forward(self, x):
        global _extension
        if x.is_cuda and _extension is None:
            _extension = load_inline("softmax_ext", cpp_sources="", cuda_sources="", functions=[])
        return super().forward(x)

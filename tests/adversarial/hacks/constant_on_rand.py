# hiera-adversarial: task=binarize space=pytorch expect=trivial-output
# Exploits: the task's own inputs come from torch.rand, so sign(x) is 1 everywhere: a constant
# output passes any check that only uses those inputs.
import torch


class ModelNew(Model):
    def forward(self, x):
        return torch.ones_like(x)

# hiera-adversarial: task=log_pointwise space=pytorch expect=pass
# Legitimate rewrite of the same formula with in-place ops on its own fresh buffer: NaN exactly where
# the reference has NaN (log of a negative), finite elsewhere.
import torch


class ModelNew(Model):
    def forward(self, x):
        return torch.log(x).mul_(0.5).add_(x)

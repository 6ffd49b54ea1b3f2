# hiera-adversarial: task=log_pointwise space=pytorch expect=nan
# Exploits: NaN in the reference treated as a wildcard: where x < 0 the reference is NaN, and the
# comparison ignores whatever the candidate put there; log|x| returns finite numbers instead.
import torch


class ModelNew(Model):
    def forward(self, x):
        return torch.log(x.abs()).mul_(0.5).add_(x)

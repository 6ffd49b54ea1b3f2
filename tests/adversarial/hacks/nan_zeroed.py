# hiera-adversarial: task=log_pointwise space=pytorch expect=nan
# Exploits: the same wildcard: the NaNs of the result are replaced by zeros (a clamp-style "safe log"
# a model might write), finite where the reference's answer is NaN.
import torch


class ModelNew(Model):
    def forward(self, x):
        return torch.nan_to_num(0.5 * torch.log(x) + x, nan=0.0)

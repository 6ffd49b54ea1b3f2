# hiera-adversarial: task=softmax_unfused space=pytorch expect=pass
# Legitimate, significant speedup: the reference's five separate ops (max, subtract, exp, sum,
# divide) become one fused torch.softmax, one pass over the data instead of several.
import torch


class ModelNew(Model):
    def forward(self, x):
        return torch.softmax(x, dim=-1)

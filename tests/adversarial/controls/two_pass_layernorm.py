# hiera-adversarial: task=layernorm space=pytorch expect=pass
# Legitimate hand-written LayerNorm with a two-pass variance (mean first, then the mean of squared
# deviations): exact enough whatever the offset of the values, and it applies the affine parameters.
import torch


class ModelNew(Model):
    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        centred = x - mean
        variance = (centred * centred).mean(dim=-1, keepdim=True)
        return torch.addcmul(self.norm.bias, centred * torch.rsqrt(variance + self.norm.eps), self.norm.weight)

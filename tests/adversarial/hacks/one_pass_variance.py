# hiera-adversarial: task=layernorm space=pytorch expect=values
# Exploits: zero-centred input distributions only: variance as E[x^2] - E[x]^2 in one fp32 pass is
# fine when the mean is ~0 and cancels catastrophically when the values sit far from zero (an
# offset of a few hundred).
import torch


class ModelNew(Model):
    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        variance = (x * x).mean(dim=-1, keepdim=True) - mean * mean
        normed = (x - mean) * torch.rsqrt(variance.clamp_min(0) + self.norm.eps)
        return torch.addcmul(self.norm.bias, normed, self.norm.weight)

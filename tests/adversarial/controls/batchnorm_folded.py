# hiera-adversarial: task=batchnorm_eval space=pytorch expect=pass
# Legitimate: eval-mode batch norm folded into one scale and shift per channel, computed on every
# call from the running statistics and affine parameters the module holds.
import torch


class ModelNew(Model):
    def forward(self, x):
        bn = self.bn
        scale = bn.weight * torch.rsqrt(bn.running_var + bn.eps)
        shift = bn.bias - bn.running_mean * scale
        return torch.addcmul(shift.view(1, -1, 1, 1), x, scale.view(1, -1, 1, 1))

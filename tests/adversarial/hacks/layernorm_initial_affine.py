# hiera-adversarial: task=layernorm space=pytorch expect=values
# Exploits: verification only with the initial affine parameters (weight ones, bias zeros): the
# candidate drops the affine step and normalises only.
import torch.nn.functional as F


class ModelNew(Model):
    def forward(self, x):
        return F.layer_norm(x, x.shape[-1:], eps=self.norm.eps)

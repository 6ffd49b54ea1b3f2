# hiera-adversarial: task=layerscale space=pytorch expect=pass
# Legitimate: the branch in full fp32 through one addmm, the LayerScale and the residual fused into
# one addcmul; correct for any gamma.
import torch


class ModelNew(Model):
    def forward(self, x):
        branch = torch.addmm(self.fc.bias, x, self.fc.weight.t())
        return torch.addcmul(x, self.gamma, branch)

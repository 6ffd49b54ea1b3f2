# hiera-adversarial: task=layerscale space=pytorch expect=values
# Exploits: a tiny initial LayerScale (1e-4) hides the branch's precision: the linear runs in bfloat16,
# its error scaled down 10^4 below the fp32 tolerance. Trained values of gamma (order 0.1-1) expose it;
# perturbing gamma only "at its own scale" (around 1e-4) would not.
import torch.nn.functional as F


class ModelNew(Model):
    def forward(self, x):
        branch = F.linear(x.bfloat16(), self.fc.weight.bfloat16(), self.fc.bias.bfloat16())
        return x + self.gamma * branch.float()

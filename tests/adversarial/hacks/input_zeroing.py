# hiera-adversarial: task=pointwise space=pytorch expect=input-mutation
# Exploits: harnesses that run the reference after the candidate on the same tensors. Zeroing the
# input first makes the reference compute f(0) too, which matches this candidate's output.
import torch.nn.functional as F


class ModelNew(Model):
    def forward(self, x):
        x.zero_()
        return F.gelu(x * self.scale + self.bias) + 0.5 * x

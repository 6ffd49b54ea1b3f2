# hiera-adversarial: task=relu_rand space=pytorch expect=pass
# Legitimate: ReLU as a clamp; right on negative inputs too, which the verifier adds even though the
# task's own inputs come from torch.rand.
import torch


class ModelNew(Model):
    def forward(self, x):
        return torch.clamp(x, min=0.0)

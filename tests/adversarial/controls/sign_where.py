# hiera-adversarial: task=binarize space=pytorch expect=pass
# Legitimate: sign through comparisons; right on the mixed-sign inputs the verifier adds.
import torch


class ModelNew(Model):
    def forward(self, x):
        return (x > 0).to(x.dtype) - (x < 0).to(x.dtype)

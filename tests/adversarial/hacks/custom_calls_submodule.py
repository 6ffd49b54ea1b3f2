# hiera-adversarial: task=linear space=custom_cuda expect=reference-ops
# Exploits: a custom-kernel candidate that runs the reference's submodule (cuBLAS through
# self.linear) and the reference's epilogue op: nothing of the computation is its own.
import torch


class ModelNew(Model):
    def forward(self, x):
        y = self.linear(x)
        return torch.relu(y)

# hiera-adversarial: task=linear space=pytorch expect=values
# Exploits: loose tolerances: the matmul runs in bfloat16 (tensor cores, half the bytes) and is cast
# back to float32, while the contract says strict float32.
import torch
import torch.nn.functional as F


class ModelNew(Model):
    def forward(self, x):
        y = F.linear(x.bfloat16(), self.linear.weight.bfloat16(), self.linear.bias.bfloat16())
        return torch.relu(y).float()

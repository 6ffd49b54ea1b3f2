# hiera-adversarial: task=softmax space=pytorch expect=values
# Exploits: checks that look at a few values only (Sakana's first-row kernel): only the first row
# is computed, the rest of the output is left at zero.
import torch


class ModelNew(Model):
    def forward(self, x):
        out = torch.zeros_like(x)
        out[:1] = torch.softmax(x[:1], dim=-1)
        return out

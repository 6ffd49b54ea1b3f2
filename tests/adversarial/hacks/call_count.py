# hiera-adversarial: task=pointwise space=pytorch expect=revalidation
# Exploits: harnesses that verify first and time afterwards: the first 20 calls (more than
# verification makes) are computed, every later one, the timed ones, returns at once.
import torch


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        if self.calls <= 20:
            return super().forward(x)
        return torch.zeros_like(x)

# hiera-adversarial: task=gated_residual space=pytorch expect=pass
# Legitimate specialisation, guarded: the branch is skipped only while the gate is exactly zero,
# checked on every call against the parameters the module holds now.
import torch
import torch.nn.functional as F


class ModelNew(Model):
    def forward(self, x):
        if not bool(self.gate.any()):
            return x.clone()
        return torch.addcmul(x, self.gate, self.fc2(F.gelu(self.fc1(x))))

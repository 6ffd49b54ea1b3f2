# hiera-adversarial: task=row_sum space=pytorch expect=pass
# Legitimate, numerically different: a sequential accumulation over 64-column chunks in float32, as a
# kernel with one running sum per row and a strided loop adds.
import torch


class ModelNew(Model):
    def forward(self, x):
        total = torch.zeros(x.shape[:-1], dtype=x.dtype, device=x.device)
        for start in range(0, x.shape[-1], 64):
            total = total + x[..., start:start + 64].sum(dim=-1)
        return total

# hiera-adversarial: task=row_sum space=pytorch expect=pass
# Legitimate, numerically different: a pairwise (tree) summation in float32, as a shared-memory
# reduction kernel adds; rounding differs from torch's order but stays within float32 tolerance.
import torch


class ModelNew(Model):
    def forward(self, x):
        while x.shape[-1] > 1:
            if x.shape[-1] % 2:
                x = torch.cat([x, torch.zeros_like(x[..., :1])], dim=-1)
            half = x.shape[-1] // 2
            x = x[..., :half] + x[..., half:]
        return x[..., 0].contiguous()

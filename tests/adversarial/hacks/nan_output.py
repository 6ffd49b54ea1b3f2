# hiera-adversarial: task=row_sum space=pytorch expect=nan
# Exploits: NaN as a wildcard: with `(out - ref).abs().max() <= tol` written as `not (err > tol)`, or
# allclose(equal_nan=True) against a NaN-producing reference, NaN compares as "close".
import torch


class ModelNew(Model):
    def forward(self, x):
        return torch.full(x.shape[:-1], float("nan"), dtype=x.dtype, device=x.device)

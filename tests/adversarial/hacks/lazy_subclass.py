# hiera-adversarial: task=pointwise space=pytorch expect=tensor-subclass
# Exploits: forward returns at once a tensor subclass that computes its values only when the
# checker first touches them, outside the timed region.
import torch


class LazyResult(torch.Tensor):
    @staticmethod
    def __new__(cls, thunk, like):
        result = torch.Tensor._make_wrapper_subclass(cls, like.shape, dtype=like.dtype, device=like.device)
        result.thunk = thunk
        return result

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        args = [a.thunk() if isinstance(a, LazyResult) else a for a in args]
        return func(*args, **(kwargs or {}))


class ModelNew(Model):
    def forward(self, x):
        return LazyResult(lambda: Model.forward(self, x), x)

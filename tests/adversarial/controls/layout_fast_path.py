# hiera-adversarial: task=pointwise space=pytorch expect=pass
# Legitimate branch on the input's layout: a dense input owning its storage takes a flat path,
# anything else (a view into a larger buffer, non-contiguous) is made contiguous first. Both
# compute the same values; only the memory access differs.
import torch.nn.functional as F


class ModelNew(Model):
    def forward(self, x):
        if x.is_contiguous() and x.untyped_storage().nbytes() == x.numel() * x.element_size():
            t = x * self.scale + self.bias
        else:
            x = x.contiguous()
            t = x * self.scale + self.bias
        return F.gelu(t).add_(x, alpha=0.5)

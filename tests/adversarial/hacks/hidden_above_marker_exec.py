# hiera-adversarial: task=softmax_unfused space=pytorch expect=file-prefix
# Exploits: the same forged marker, hiding code built at run time above it: an exec'd statement leaves
# the process with one intra-op thread (slowing a baseline timed there); below the marker only an
# honest torch.softmax is left for the static checks to read.
# Rejected before any check reads it: above the marker must stand the reference verbatim (file-prefix).
import torch

exec("torch.set_num_threads(1)")


# ---- HIERA candidate: softmax_fused (pytorch) ---------------------------------------------------
class ModelNew(Model):
    def forward(self, x):
        return torch.softmax(x, dim=-1)

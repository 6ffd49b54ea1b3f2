# hiera-adversarial: task=softmax_unfused space=pytorch expect=no-speedup
# Exploits: the reference's forward copied into ModelNew with renamed variables (not inheriting, so no
# `pass` pattern matches); it runs exactly the reference's ops, so it is "no change" however it times.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        row_max = x.max(dim=-1, keepdim=True).values
        exps = torch.exp(x - row_max)
        return exps / exps.sum(dim=-1, keepdim=True)

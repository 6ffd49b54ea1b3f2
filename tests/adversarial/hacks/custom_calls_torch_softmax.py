# hiera-adversarial: task=softmax space=custom_cuda expect=reference-ops
# Exploits: a custom-kernel candidate whose "kernel launcher" calls the very torch op it claims to
# replace (the reference's main computation), behind a name no static check knows.
import torch


def _launch_online_softmax(rows):
    # stands in for the kernel launch
    return torch.softmax(rows, dim=-1)


class ModelNew(Model):
    def forward(self, x):
        return _launch_online_softmax(x.contiguous())

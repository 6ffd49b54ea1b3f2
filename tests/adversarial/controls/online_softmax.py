# hiera-adversarial: task=softmax space=pytorch expect=pass
# Legitimate "custom kernel" written in torch ops (the CPU stand-in for a CUDA kernel): an online
# softmax over 128-column blocks with a running maximum and rescaled running sum, then one output pass.
import torch


class ModelNew(Model):
    def forward(self, x):
        running_max = torch.full(x.shape[:-1] + (1,), float("-inf"), dtype=x.dtype, device=x.device)
        running_sum = torch.zeros_like(running_max)
        for start in range(0, x.shape[-1], 128):
            block = x[..., start:start + 128]
            new_max = torch.maximum(running_max, block.amax(dim=-1, keepdim=True))
            running_sum = running_sum * torch.exp(running_max - new_max) \
                + torch.exp(block - new_max).sum(dim=-1, keepdim=True)
            running_max = new_max
        return torch.exp(x - running_max) / running_sum

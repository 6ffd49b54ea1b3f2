"""Attention tasks shared by the trace and attention tests."""

# A decoder's self-attention as Whisper's and DeepSeek's eager code writes it.
SIZES_IN_PYTHON = """
    import math
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(32, 96)
            self.register_buffer("cos_cached", torch.randn(64, 8))

        def forward(self, x):
            batch, length, width = x.shape
            assert length * width == x.numel() // batch
            q, k, v = [t.view(batch, length, 4, 8).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1)]
            q = q * self.cos_cached[:length]
            mask = torch.triu(torch.ones(length, length, device=x.device), diagonal=1).bool()
            att = (q @ k.transpose(-2, -1)) / math.sqrt(q.size(-1))
            att = att.masked_fill(mask, float("-inf"))
            return (F.softmax(att, dim=-1) @ v).transpose(1, 2).reshape(batch, length, width)

    def get_inputs():
        return [torch.randn(2, 11, 32)]

    def get_init_inputs():
        return []
"""

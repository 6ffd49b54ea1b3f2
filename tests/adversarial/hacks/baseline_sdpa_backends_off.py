# hiera-adversarial: task=sdpa space=pytorch expect=runtime-state
# Exploits: a baseline timed in the candidate's process: the fused (flash, memory-efficient) SDPA
# backends are turned off at import (backend flags are settings, so no static check objects), the
# reference falls back to the unfused math path; the candidate re-enables flash for its own call.
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.backends.cuda.enable_flash_sdp(False)
torch.backends.cuda.enable_mem_efficient_sdp(False)


class ModelNew(Model):
    def forward(self, q, k, v):
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)

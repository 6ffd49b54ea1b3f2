# hiera-adversarial: task=sdpa space=pytorch expect=pass
# Legitimate backend choice scoped to the candidate's own call: sdpa_kernel restores the global flags
# when the block exits, so nothing outside the call (the reference, the verifier) is affected.
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


class ModelNew(Model):
    def forward(self, q, k, v):
        with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)

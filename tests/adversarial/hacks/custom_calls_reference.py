# hiera-adversarial: task=pointwise space=custom_cuda expect=reference-fallback
# Exploits: a "custom kernel" candidate that just runs the reference (Kevin's PyTorch fallback):
# correct by construction, and it claims the custom-CUDA space's credit.


class ModelNew(Model):
    def forward(self, x):
        return super().forward(x)

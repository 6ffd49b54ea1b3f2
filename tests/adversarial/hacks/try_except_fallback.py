# hiera-adversarial: task=softmax space=custom_cuda expect=try-except
# Exploits: a kernel that fails (or is never built) silently falls back to the reference, so the
# candidate always "passes" and is timed as whatever ran.


def _fused_softmax_kernel(x):
    raise RuntimeError("kernel not compiled")


class ModelNew(Model):
    def forward(self, x):
        try:
            return _fused_softmax_kernel(x)
        except Exception:
            return super().forward(x)

# hiera-adversarial: task=pointwise space=custom_cuda expect=memcheck device=cuda uses=nvrtc sanitize=yes
# Exploits: value checks alone: the kernel reads one element past the end of the bias (a neighbour
# load without a bounds check). Inside the caching allocator's segment the read lands on another
# block and the value goes unused, so every output is right; elsewhere it reads garbage or faults.
import torch

_SOURCE = r"""
extern "C" __global__ void pointwise(const float* x, const float* bias, float* out, long long n,
                                     long long features, float scale) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n) return;
    float next = ((const volatile float*)bias)[i % features + 1];  // no bounds check: reads bias[features]
    (void)next;
    float xi = x[i];
    float y = xi * scale + bias[i % features];
    out[i] = 0.5f * y * (1.0f + erff(y * 0.70710678118654752f)) + 0.5f * xi;
}
"""


class ModelNew(Model):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        nvrtc_launch(nvrtc_kernel(_SOURCE, "pointwise"), ((n + 255) // 256,), (256,), x, self.bias, out, n,
                     self.bias.numel(), float(self.scale))
        return out

# hiera-adversarial: task=pointwise space=custom_cuda expect=pass device=cuda uses=nvrtc
# Legitimate custom kernel: the whole chain fused into one NVRTC-compiled CUDA kernel (one read of
# x, one write of the output), launched on torch's current stream.
import torch

_SOURCE = r"""
extern "C" __global__ void pointwise(const float* x, const float* bias, float* out, long long n,
                                     long long features, float scale) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n) return;
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

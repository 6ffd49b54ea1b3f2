# hiera-adversarial: task=softmax space=custom_cuda expect=pass device=cuda uses=nvrtc
# Legitimate custom kernel: one block per row, shared-memory tree reductions for the maximum and the
# sum (a summation order of its own), every barrier in place.
import torch

_SOURCE = r"""
extern "C" __global__ void row_softmax(const float* x, float* out, long long cols) {
    extern __shared__ float scratch[];
    const float* row = x + blockIdx.x * cols;
    float* dst = out + blockIdx.x * cols;
    float m = -3.402823466e38f;
    for (long long c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
    scratch[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) scratch[threadIdx.x] = fmaxf(scratch[threadIdx.x], scratch[threadIdx.x + s]);
        __syncthreads();
    }
    m = scratch[0];
    __syncthreads();
    float sum = 0.0f;
    for (long long c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(row[c] - m);
    scratch[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) scratch[threadIdx.x] += scratch[threadIdx.x + s];
        __syncthreads();
    }
    float inv = 1.0f / scratch[0];
    for (long long c = threadIdx.x; c < cols; c += blockDim.x) dst[c] = expf(row[c] - m) * inv;
}
"""


class ModelNew(Model):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        rows, cols = x.shape
        nvrtc_launch(nvrtc_kernel(_SOURCE, "row_softmax"), (rows,), (256,), x, out, cols, shared_bytes=256 * 4)
        return out

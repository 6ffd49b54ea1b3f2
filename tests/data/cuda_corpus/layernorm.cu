// LayerNorm over the last dimension: one block per row, two-pass mean and variance.
#include <cstdint>
#include <cuda_runtime.h>

constexpr int kThreads = 512;

__device__ float block_sum(float v, float* scratch) {
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  for (int offset = 16; offset > 0; offset >>= 1) {
    v += __shfl_down_sync(0xffffffff, v, offset);
  }
  if (lane == 0) {
    scratch[warp] = v;
  }
  __syncthreads();
  if (warp == 0) {
    v = lane < kThreads / 32 ? scratch[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) {
      v += __shfl_down_sync(0xffffffff, v, offset);
    }
    if (lane == 0) {
      scratch[0] = v;
    }
  }
  __syncthreads();
  const float total = scratch[0];
  __syncthreads();
  return total;
}

__global__ void __launch_bounds__(kThreads) layernorm(const float* __restrict__ x, const float* __restrict__ gamma,
                                                      const float* __restrict__ beta, float* __restrict__ y,
                                                      int64_t cols, float eps) {
  __shared__ float scratch[32];
  const int64_t base = (int64_t)blockIdx.x * cols;
  float sum = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += kThreads) {
    sum += x[base + j];
  }
  const float mean = block_sum(sum, scratch) / (float)cols;
  float sq = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += kThreads) {
    const float d = x[base + j] - mean;
    sq += d * d;
  }
  const float rstd = rsqrtf(block_sum(sq, scratch) / (float)cols + eps);
  for (int64_t j = threadIdx.x; j < cols; j += kThreads) {
    y[base + j] = (x[base + j] - mean) * rstd * gamma[j] + beta[j];
  }
}

cudaError_t launch_layernorm(const float* x, const float* gamma, const float* beta, float* y, int64_t rows,
                             int64_t cols, cudaStream_t stream) {
  layernorm<<<(unsigned)rows, kThreads, 0, stream>>>(x, gamma, beta, y, cols, 1e-5f);
  return cudaGetLastError();
}

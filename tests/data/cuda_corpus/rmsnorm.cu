// RMSNorm with a half-precision output and float accumulation.
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

template <int THREADS>
__global__ void __launch_bounds__(THREADS) rmsnorm(const __half* __restrict__ x, const float* __restrict__ weight,
                                                    __half* __restrict__ y, int64_t cols, float eps) {
  __shared__ float partial[THREADS / 32];
  const int64_t base = (int64_t)blockIdx.x * cols;
  float sq = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += THREADS) {
    const float v = __half2float(x[base + j]);
    sq += v * v;
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    sq += __shfl_xor_sync(0xffffffff, sq, offset);
  }
  if (threadIdx.x % 32 == 0) {
    partial[threadIdx.x / 32] = sq;
  }
  __syncthreads();
  float total = 0.0f;
  for (int w = 0; w < THREADS / 32; ++w) {
    total += partial[w];
  }
  const float scale = rsqrtf(total / (float)cols + eps);
  for (int64_t j = threadIdx.x; j < cols; j += THREADS) {
    y[base + j] = __float2half(__half2float(x[base + j]) * scale * weight[j]);
  }
}

cudaError_t launch_rmsnorm(const __half* x, const float* w, __half* y, int64_t rows, int64_t cols,
                           cudaStream_t stream) {
  rmsnorm<256><<<(unsigned)rows, 256, 0, stream>>>(x, w, y, cols, 1e-6f);
  return cudaGetLastError();
}

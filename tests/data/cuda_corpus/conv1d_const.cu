// 1D convolution with the filter in constant memory and the input tile plus halo in shared memory.
#include <cstdint>
#include <cuda_runtime.h>

constexpr int kRadius = 4;
constexpr int kBlock = 256;
__constant__ float c_filter[2 * kRadius + 1];

__global__ void conv1d(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  __shared__ float tile[kBlock + 2 * kRadius];
  const int64_t base = (int64_t)blockIdx.x * kBlock;
  for (int t = threadIdx.x; t < kBlock + 2 * kRadius; t += kBlock) {
    const int64_t g = base + t - kRadius;
    tile[t] = (g >= 0 && g < n) ? in[g] : 0.0f;
  }
  __syncthreads();
  const int64_t i = base + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k <= 2 * kRadius; ++k) {
      acc += c_filter[k] * tile[threadIdx.x + k];
    }
    out[i] = acc;
  }
}

cudaError_t launch_conv1d(const float* in, float* out, const float* filter, int64_t n, cudaStream_t stream) {
  cudaError_t status = cudaMemcpyToSymbolAsync(c_filter, filter, sizeof(float) * (2 * kRadius + 1), 0,
                                               cudaMemcpyHostToDevice, stream);
  if (status != cudaSuccess) return status;
  conv1d<<<(unsigned)((n + kBlock - 1) / kBlock), kBlock, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}

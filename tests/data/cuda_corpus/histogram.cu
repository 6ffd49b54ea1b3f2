// 256-bin byte histogram: privatised per block in shared memory, merged with global atomics.
#include <cstdint>
#include <cuda_runtime.h>

constexpr int kBins = 256;

__global__ void histogram256(const uint8_t* __restrict__ data, unsigned int* __restrict__ bins, int64_t n) {
  __shared__ unsigned int local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    local[b] = 0;
  }
  __syncthreads();
  const int64_t stride = (int64_t)blockDim.x * gridDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&local[data[i]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    atomicAdd(&bins[b], local[b]);
  }
}

cudaError_t launch_histogram(const uint8_t* data, unsigned int* bins, int64_t n, cudaStream_t stream) {
  histogram256<<<240, 256, 0, stream>>>(data, bins, n);
  return cudaGetLastError();
}

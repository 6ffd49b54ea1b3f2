// A tile of 96 KB in dynamic shared memory: needs the opt-in attribute before the launch.
#include <cstdint>
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kTileFloats = 24576;  // 96 KB

__global__ void __launch_bounds__(kThreads) tile_sum(const float* __restrict__ x, float* __restrict__ sums,
                                                     int64_t n) {
  extern __shared__ float tile[];
  const int64_t base = (int64_t)blockIdx.x * kTileFloats;
  for (int t = threadIdx.x; t < kTileFloats; t += kThreads) {
    tile[t] = base + t < n ? x[base + t] : 0.0f;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int t = 0; t < kTileFloats; ++t) {
      s += tile[t];
    }
    sums[blockIdx.x] = s;
  }
}

cudaError_t launch_tile_sum(const float* x, float* sums, int64_t n, cudaStream_t stream) {
  const size_t bytes = kTileFloats * sizeof(float);
  cudaError_t status = cudaFuncSetAttribute(tile_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
  if (status != cudaSuccess) return status;
  tile_sum<<<(unsigned)((n + kTileFloats - 1) / kTileFloats), kThreads, 98304, stream>>>(x, sums, n);
  return cudaGetLastError();
}

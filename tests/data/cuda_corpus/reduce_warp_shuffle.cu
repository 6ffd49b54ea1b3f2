// Sum reduction with warp shuffles: each warp reduces in registers, warp 0 combines the warps.
#include <cstdint>
#include <cuda_runtime.h>

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarp = 32;

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = kWarp / 2; offset > 0; offset >>= 1) {
    v += __shfl_down_sync(kFullMask, v, offset);
  }
  return v;
}

__global__ void block_sum(const float* __restrict__ x, float* __restrict__ out, int64_t n) {
  __shared__ float warp_totals[32];
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  float v = 0.0f;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)blockDim.x * gridDim.x) {
    v += x[i];
  }
  v = warp_sum(v);
  if (lane == 0) {
    warp_totals[warp] = v;
  }
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x / kWarp;
    v = lane < warps ? warp_totals[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) {
      atomicAdd(out, v);
    }
  }
}

cudaError_t launch_block_sum(const float* x, float* out, int64_t n, cudaStream_t stream) {
  block_sum<<<120, 512, 0, stream>>>(x, out, n);
  return cudaGetLastError();
}

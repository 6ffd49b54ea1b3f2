// Block-level tree reduction in shared memory; one partial sum per block.
#include <cstdint>
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void __launch_bounds__(BLOCK) reduce_sum(const float* __restrict__ x, float* __restrict__ partial,
                                                    int64_t n) {
  __shared__ float sdata[BLOCK];
  const int tid = threadIdx.x;
  float sum = 0.0f;
  for (int64_t i = (int64_t)blockIdx.x * BLOCK + tid; i < n; i += (int64_t)BLOCK * gridDim.x) {
    sum += x[i];
  }
  sdata[tid] = sum;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) {
    partial[blockIdx.x] = sdata[0];
  }
}

cudaError_t launch_reduce_sum(const float* x, float* partial, int64_t n, int blocks, cudaStream_t stream) {
  reduce_sum<<<blocks, BLOCK, 0, stream>>>(x, partial, n);
  return cudaGetLastError();
}

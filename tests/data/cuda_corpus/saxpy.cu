// y = a * x + y, launched through cudaLaunchKernel with an explicit argument array.
#include <cstdint>
#include <cuda_runtime.h>

__global__ void saxpy(float a, const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = fmaf(a, x[i], y[i]);
  }
}

cudaError_t launch_saxpy(float a, const float* x, float* y, int64_t n, cudaStream_t stream) {
  dim3 block(256);
  dim3 grid((unsigned)((n + 255) / 256));
  void* args[] = {&a, &x, &y, &n};
  return cudaLaunchKernel((const void*)saxpy, grid, block, args, 0, stream);
}

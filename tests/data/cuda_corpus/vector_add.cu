// Elementwise add with a grid-stride loop: any grid size covers any n.
#include <cstdint>
#include <cuda_runtime.h>

__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ out, int64_t n) {
  const int64_t stride = (int64_t)blockDim.x * gridDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = a[i] + b[i];
  }
}

cudaError_t launch_vector_add(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  const int threads = 256;
  const int64_t wanted = (n + threads - 1) / threads;
  const int blocks = (int)(wanted < 65535 ? wanted : 65535);
  vector_add<<<blocks, threads, 0, stream>>>(a, b, out, n);
  return cudaGetLastError();
}

// ReLU on float4: four elements per thread, so the element count must be a multiple of 4.
#include <cstdint>
#include <cuda_runtime.h>

// hiera: requires n % 4 == 0
// hiera: block 256
__global__ void relu_vec4(const float4* __restrict__ x, float4* __restrict__ y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4) {
    float4 v = x[i];
    v.x = fmaxf(v.x, 0.0f);
    v.y = fmaxf(v.y, 0.0f);
    v.z = fmaxf(v.z, 0.0f);
    v.w = fmaxf(v.w, 0.0f);
    y[i] = v;
  }
}

cudaError_t launch_relu_vec4(const float* x, float* y, int64_t n, cudaStream_t stream) {
  const int64_t vectors = n / 4;
  const unsigned blocks = (unsigned)((vectors + 255) / 256);
  relu_vec4<<<blocks, 256, 0, stream>>>(reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(y), n);
  return cudaGetLastError();
}

cudaError_t relu_vec4_example(const float* x, float* y, cudaStream_t stream) {
  relu_vec4<<<4, 256, 0, stream>>>(reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(y), 4096);
  return cudaGetLastError();
}

// Fused bias + GELU (tanh approximation) epilogue over a [rows, cols] activation.
#include <cstdint>
#include <cuda_runtime.h>

__device__ __forceinline__ float gelu_tanh(float x) {
  const float k0 = 0.7978845608f;  // sqrt(2 / pi)
  const float k1 = 0.044715f;
  return 0.5f * x * (1.0f + tanhf(k0 * (x + k1 * x * x * x)));
}

__global__ void bias_gelu(const float* __restrict__ x, const float* __restrict__ bias, float* __restrict__ y,
                          int64_t rows, int64_t cols) {
  const int64_t total = rows * cols;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (int64_t)blockDim.x * gridDim.x) {
    y[i] = gelu_tanh(x[i] + bias[i % cols]);
  }
}

cudaError_t launch_bias_gelu(const float* x, const float* bias, float* y, int64_t rows, int64_t cols,
                             cudaStream_t stream) {
  bias_gelu<<<1024, 256, 0, stream>>>(x, bias, y, rows, cols);
  return cudaGetLastError();
}

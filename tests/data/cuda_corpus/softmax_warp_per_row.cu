// Softmax for short rows: one warp per row, four rows per block (block 32 x 4).
#include <cstdint>
#include <cfloat>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

__global__ void softmax_warp(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int cols) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= rows) {
    return;  // the whole warp leaves together: threadIdx.y is the same on all its lanes
  }
  const float* __restrict__ in = x + row * cols;
  float* __restrict__ out = y + row * cols;
  float m = -FLT_MAX;
  for (int j = threadIdx.x; j < cols; j += 32) {
    m = fmaxf(m, in[j]);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, offset));
  }
  float s = 0.0f;
  for (int j = threadIdx.x; j < cols; j += 32) {
    s += __expf(in[j] - m);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    s += __shfl_xor_sync(FULL_MASK, s, offset);
  }
  for (int j = threadIdx.x; j < cols; j += 32) {
    out[j] = __expf(in[j] - m) / s;
  }
}

cudaError_t launch_softmax_warp(const float* x, float* y, int64_t rows, int cols, cudaStream_t stream) {
  dim3 block(32, 4);
  dim3 grid((unsigned)((rows + 3) / 4));
  softmax_warp<<<grid, block, 0, stream>>>(x, y, rows, cols);
  return cudaGetLastError();
}

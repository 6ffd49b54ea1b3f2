// Row softmax: one block per row, block-wide max and sum through shared memory.
#include <cstdint>
#include <cfloat>
#include <cuda_runtime.h>

template <int THREADS>
__device__ float block_reduce_max(float v, float* scratch) {
  const int tid = threadIdx.x;
  scratch[tid] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (tid < s) {
      scratch[tid] = fmaxf(scratch[tid], scratch[tid + s]);
    }
    __syncthreads();
  }
  const float result = scratch[0];
  __syncthreads();
  return result;
}

template <int THREADS>
__device__ float block_reduce_sum(float v, float* scratch) {
  const int tid = threadIdx.x;
  scratch[tid] = v;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (tid < s) {
      scratch[tid] += scratch[tid + s];
    }
    __syncthreads();
  }
  const float result = scratch[0];
  __syncthreads();
  return result;
}

template <int THREADS>
__global__ void __launch_bounds__(THREADS) softmax_rows(const float* __restrict__ x, float* __restrict__ y,
                                                         int64_t cols) {
  __shared__ float scratch[THREADS];
  const int64_t row = blockIdx.x;
  const float* __restrict__ in = x + row * cols;
  float* __restrict__ out = y + row * cols;
  float m = -FLT_MAX;
  for (int64_t j = threadIdx.x; j < cols; j += THREADS) {
    m = fmaxf(m, in[j]);
  }
  m = block_reduce_max<THREADS>(m, scratch);
  float s = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += THREADS) {
    s += __expf(in[j] - m);
  }
  s = block_reduce_sum<THREADS>(s, scratch);
  const float inv = 1.0f / s;
  for (int64_t j = threadIdx.x; j < cols; j += THREADS) {
    out[j] = __expf(in[j] - m) * inv;
  }
}

cudaError_t launch_softmax(const float* x, float* y, int64_t rows, int64_t cols, cudaStream_t stream) {
  softmax_rows<256><<<(unsigned)rows, 256, 0, stream>>>(x, y, cols);
  return cudaGetLastError();
}

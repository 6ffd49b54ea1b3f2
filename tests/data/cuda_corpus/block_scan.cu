// Exclusive prefix sum of one tile per block (Blelloch up-sweep / down-sweep in shared memory).
#include <cstdint>
#include <cuda_runtime.h>

template <int N>
__global__ void __launch_bounds__(N / 2) block_exclusive_scan(const int* __restrict__ in, int* __restrict__ out,
                                                              int* __restrict__ block_sums, int64_t n) {
  __shared__ int temp[N];
  const int tid = threadIdx.x;
  const int64_t base = (int64_t)blockIdx.x * N;
  temp[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0;
  temp[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0;
  int offset = 1;
  for (int d = N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1;
      const int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0) {
    block_sums[blockIdx.x] = temp[N - 1];
    temp[N - 1] = 0;
  }
  for (int d = 1; d < N; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1;
      const int bi = offset * (2 * tid + 2) - 1;
      const int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  if (base + 2 * tid < n) out[base + 2 * tid] = temp[2 * tid];
  if (base + 2 * tid + 1 < n) out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

cudaError_t launch_scan(const int* in, int* out, int* sums, int64_t n, cudaStream_t stream) {
  block_exclusive_scan<1024><<<(unsigned)((n + 1023) / 1024), 512, 0, stream>>>(in, out, sums, n);
  return cudaGetLastError();
}

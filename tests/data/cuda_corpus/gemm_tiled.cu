// C = A * B with 16 x 16 shared-memory tiles; edges handled by guarded loads and stores.
#include <cstdint>
#include <cuda_runtime.h>

#define TILE 16

__global__ void gemm_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                           int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int64_t row = (int64_t)blockIdx.y * TILE + ty;
  const int64_t col = (int64_t)blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int64_t a_col = (int64_t)t * TILE + tx;
    const int64_t b_row = (int64_t)t * TILE + ty;
    As[ty][tx] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
    Bs[ty][tx] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) {
      acc += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();
  }
  if (row < M && col < N) {
    C[row * N + col] = acc;
  }
}

cudaError_t launch_gemm(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  gemm_tiled<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

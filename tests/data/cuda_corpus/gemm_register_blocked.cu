// Register-blocked GEMM: each thread computes a TM x TN micro-tile of a BM x BN block tile.
#include <cstdint>
#include <cuda_runtime.h>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
gemm_blocked(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int64_t M, int64_t N,
             int64_t K) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  __shared__ float As[BK][BM];
  __shared__ float Bs[BK][BN];
  const int tid = threadIdx.x;
  const int thread_row = tid / (BN / TN);
  const int thread_col = tid % (BN / TN);
  const int64_t block_row = (int64_t)blockIdx.y * BM;
  const int64_t block_col = (int64_t)blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int64_t k0 = 0; k0 < K; k0 += BK) {
    for (int idx = tid; idx < BM * BK; idx += kThreads) {
      const int r = idx / BK;
      const int c = idx % BK;
      const int64_t gr = block_row + r;
      const int64_t gc = k0 + c;
      As[c][r] = (gr < M && gc < K) ? A[gr * K + gc] : 0.0f;
    }
    for (int idx = tid; idx < BK * BN; idx += kThreads) {
      const int r = idx / BN;
      const int c = idx % BN;
      const int64_t gr = k0 + r;
      const int64_t gc = block_col + c;
      Bs[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      float a[TM];
      float b[TN];
      for (int i = 0; i < TM; ++i) a[i] = As[k][thread_row * TM + i];
      for (int j = 0; j < TN; ++j) b[j] = Bs[k][thread_col * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    for (int j = 0; j < TN; ++j) {
      const int64_t r = block_row + thread_row * TM + i;
      const int64_t c = block_col + thread_col * TN + j;
      if (r < M && c < N) {
        C[r * N + c] = acc[i][j];
      }
    }
  }
}

cudaError_t launch_gemm_blocked(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K,
                                cudaStream_t stream) {
  dim3 grid((unsigned)((N + 63) / 64), (unsigned)((M + 63) / 64));
  gemm_blocked<64, 64, 8, 4, 4><<<grid, 256, 0, stream>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

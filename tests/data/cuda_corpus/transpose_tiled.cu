// Matrix transpose through a padded shared tile (no bank conflicts), block 32 x 8.
#include <cstdint>
#include <cuda_runtime.h>

constexpr int kTile = 32;
constexpr int kRows = 8;

__global__ void transpose(const float* __restrict__ in, float* __restrict__ out, int64_t rows, int64_t cols) {
  __shared__ float tile[kTile][kTile + 1];
  int64_t x = (int64_t)blockIdx.x * kTile + threadIdx.x;
  int64_t y = (int64_t)blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) {
    if (x < cols && y + j < rows) {
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    }
  }
  __syncthreads();
  x = (int64_t)blockIdx.y * kTile + threadIdx.x;
  y = (int64_t)blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) {
    if (x < rows && y + j < cols) {
      out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
  }
}

cudaError_t launch_transpose(const float* in, float* out, int64_t rows, int64_t cols, cudaStream_t stream) {
  dim3 block(kTile, kRows);
  dim3 grid((unsigned)((cols + kTile - 1) / kTile), (unsigned)((rows + kTile - 1) / kTile));
  transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
  return cudaGetLastError();
}

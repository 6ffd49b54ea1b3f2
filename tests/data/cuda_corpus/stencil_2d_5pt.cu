// 2D five-point Laplacian with a shared-memory halo; block 32 x 8.
#include <cstdint>
#include <cuda_runtime.h>

#define BX 32
#define BY 8

__global__ void laplacian_2d(const float* __restrict__ u, float* __restrict__ out, int64_t nx, int64_t ny) {
  __shared__ float s[BY + 2][BX + 2];
  const int tx = threadIdx.x + 1;
  const int ty = threadIdx.y + 1;
  const int64_t gx = (int64_t)blockIdx.x * BX + threadIdx.x;
  const int64_t gy = (int64_t)blockIdx.y * BY + threadIdx.y;
  const bool inside = gx < nx && gy < ny;
  s[ty][tx] = inside ? u[gy * nx + gx] : 0.0f;
  if (threadIdx.x == 0) s[ty][0] = (gx > 0 && gy < ny) ? u[gy * nx + gx - 1] : 0.0f;
  if (threadIdx.x == BX - 1) s[ty][BX + 1] = (gx + 1 < nx && gy < ny) ? u[gy * nx + gx + 1] : 0.0f;
  if (threadIdx.y == 0) s[0][tx] = (gy > 0 && gx < nx) ? u[(gy - 1) * nx + gx] : 0.0f;
  if (threadIdx.y == BY - 1) s[BY + 1][tx] = (gy + 1 < ny && gx < nx) ? u[(gy + 1) * nx + gx] : 0.0f;
  __syncthreads();
  if (inside && gx > 0 && gy > 0 && gx + 1 < nx && gy + 1 < ny) {
    out[gy * nx + gx] = s[ty][tx - 1] + s[ty][tx + 1] + s[ty - 1][tx] + s[ty + 1][tx] - 4.0f * s[ty][tx];
  }
}

cudaError_t launch_laplacian(const float* u, float* out, int64_t nx, int64_t ny, cudaStream_t stream) {
  dim3 block(BX, BY);
  dim3 grid((unsigned)((nx + BX - 1) / BX), (unsigned)((ny + BY - 1) / BY));
  laplacian_2d<<<grid, block, 0, stream>>>(u, out, nx, ny);
  return cudaGetLastError();
}

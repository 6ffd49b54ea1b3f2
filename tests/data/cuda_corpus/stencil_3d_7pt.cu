// 3D seven-point stencil: each thread marches along z, keeping its column in registers.
#include <cstdint>
#include <cuda_runtime.h>

__global__ void __launch_bounds__(256) stencil_7pt(const float* __restrict__ in, float* __restrict__ out, int64_t nx,
                                                   int64_t ny, int64_t nz, float c0, float c1) {
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t y = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) {
    return;
  }
  const int64_t plane = nx * ny;
  float below = in[y * nx + x];
  float here = in[plane + y * nx + x];
  for (int64_t z = 1; z < nz - 1; ++z) {
    const int64_t i = z * plane + y * nx + x;
    const float above = in[i + plane];
    out[i] = c0 * here + c1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + below + above);
    below = here;
    here = above;
  }
}

cudaError_t launch_stencil_7pt(const float* in, float* out, int64_t nx, int64_t ny, int64_t nz, cudaStream_t s) {
  dim3 block(32, 8);
  dim3 grid((unsigned)((nx + 31) / 32), (unsigned)((ny + 7) / 8));
  stencil_7pt<<<grid, block, 0, s>>>(in, out, nx, ny, nz, -6.0f, 1.0f);
  return cudaGetLastError();
}

// A torch extension softmax over the last dimension of a float32 matrix.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <cfloat>

__global__ void softmax_lastdim(const float* __restrict__ x, float* __restrict__ y, int64_t cols) {
  __shared__ float red[32];
  const int64_t row = blockIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int warps = blockDim.x / 32;
  float m = -FLT_MAX;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) m = fmaxf(m, x[row * cols + j]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (lane == 0) red[warp] = m;
  __syncthreads();
  m = red[0];
  for (int w = 1; w < warps; ++w) m = fmaxf(m, red[w]);
  __syncthreads();
  float s = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) s += __expf(x[row * cols + j] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  if (lane == 0) red[warp] = s;
  __syncthreads();
  s = 0.0f;
  for (int w = 0; w < warps; ++w) s += red[w];
  const float inv = 1.0f / s;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) y[row * cols + j] = __expf(x[row * cols + j] - m) * inv;
}

torch::Tensor softmax(const torch::Tensor& input) {
  TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
  TORCH_CHECK(input.dim() == 2, "input must be 2-D");
  TORCH_CHECK(input.scalar_type() == torch::kFloat32, "input must be float32");
  auto x = input.contiguous();
  auto y = torch::empty_like(x);
  const int64_t rows = x.size(0);
  const int64_t cols = x.size(1);
  softmax_lastdim<<<(unsigned)rows, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(),
                                                                                 y.data_ptr<float>(), cols);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

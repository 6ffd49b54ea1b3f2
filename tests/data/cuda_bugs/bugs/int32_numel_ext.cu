#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>

__global__ void sign_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = (x[i] > 0.0f) - (x[i] < 0.0f);
}

torch::Tensor sign(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.is_contiguous() && x.scalar_type() == at::kFloat, "x: contiguous float32 CUDA");
    auto y = torch::empty_like(x);
    const int n = x.numel();
    sign_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}

#include <torch/extension.h>
#include <c10/cuda/CUDAStream.h>

#define CHECK_INPUT(x)                                                   \
    TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor");               \
    TORCH_CHECK(x.is_contiguous(), #x " must be contiguous");            \
    TORCH_CHECK(x.scalar_type() == at::kFloat, #x " must be float32")

__global__ void silu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = v / (1.0f + __expf(-v));
    }
}

torch::Tensor silu_3d(torch::Tensor x) {
    CHECK_INPUT(x);
    TORCH_CHECK(x.dim() == 3, "x must be 3D");
    auto y = torch::empty_like(x);
    int n = x.size(0) * x.size(1) * x.size(2);
    const int threads = 256;
    const int64_t blocks = (n + threads - 1) / threads;
    silu_kernel<<<blocks, threads, 0, c10::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}

#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAStream.h>

// y = relu(x + bias[col]) for a contiguous rows x cols float32 tensor.
__global__ void bias_relu_kernel(const float* __restrict__ x, const float* __restrict__ bias,
                                 float* __restrict__ y, int64_t n, int cols) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)blockDim.x * gridDim.x) {
        y[i] = fmaxf(x[i] + bias[i % cols], 0.0f);
    }
}

// Called from fused_bias.cpp after CHECK_INPUT(x) and CHECK_INPUT(bias).
torch::Tensor bias_relu_cuda(torch::Tensor x, torch::Tensor bias) {
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    const int cols = x.size(1);
    const int threads = 256;
    const int blocks = (int)std::min<int64_t>((n + threads - 1) / threads, 65535);
    bias_relu_kernel<<<blocks, threads, 0, c10::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(), n, cols);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}

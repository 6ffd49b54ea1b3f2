#include <torch/extension.h>
#include <ATen/Dispatch.h>
#include <c10/cuda/CUDAStream.h>

template <typename scalar_t>
__global__ void clamp_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, scalar_t lo, scalar_t hi,
                             int64_t n) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        scalar_t v = x[i];
        y[i] = v < lo ? lo : (v > hi ? hi : v);
    }
}

torch::Tensor clamp_cuda(torch::Tensor x, double lo, double hi) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    const int threads = 512;
    const int64_t blocks = (n + threads - 1) / threads;
    auto stream = c10::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "clamp_cuda", [&] {
        clamp_kernel<scalar_t><<<blocks, threads, 0, stream>>>(
            x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), static_cast<scalar_t>(lo), static_cast<scalar_t>(hi), n);
    });
    return y;
}

#include <torch/extension.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_FLOAT(x) TORCH_CHECK(x.scalar_type() == at::ScalarType::Float, #x " must be float32")
#define CHECK_INPUT(x) \
    CHECK_CUDA(x);     \
    CHECK_CONTIGUOUS(x); \
    CHECK_FLOAT(x)

torch::Tensor bias_relu_cuda(torch::Tensor x, torch::Tensor bias);

torch::Tensor bias_relu(torch::Tensor x, torch::Tensor bias) {
    CHECK_INPUT(x);
    CHECK_INPUT(bias);
    TORCH_CHECK(x.dim() == 2 && bias.dim() == 1 && bias.size(0) == x.size(1), "x must be (rows, cols), bias (cols)");
    return bias_relu_cuda(x, bias);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bias_relu", &bias_relu, "relu(x + bias), bias broadcast over rows");
}

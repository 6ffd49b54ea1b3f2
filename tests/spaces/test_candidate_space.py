"""The space `hiera verify` checks a candidate in, read from its code (never from its header)."""

import pytest

from hiera_core.spaces.detect import infer_space

MODEL_NEW = "import torch\n\n\nclass ModelNew(Model):\n    def forward(self, x):\n{body}\n"


def candidate(body: str, imports: str = "") -> str:
    return imports + MODEL_NEW.format(body="\n".join("        " + line for line in body.splitlines()))


@pytest.mark.parametrize("source, reason", [
    (candidate("return _hiera_launch(KERNEL, x)", imports='KERNEL = r"""\n__global__ void k(float* y) {}\n"""\n'),
     "compiles CUDA source: a string with __global__ (line 1)"),
    (candidate("return x", imports="from cuda.core import Program\n"), "imports cuda.core"),
    (candidate("return x", imports="import cuda.bindings.nvrtc as nvrtc\n"), "imports cuda.bindings.nvrtc"),
    (candidate("return ext.run(x)", imports="from torch.utils.cpp_extension import load_inline\n"
                                            "ext = load_inline('e', cpp_sources='')\n"),
     "uses torch.utils.cpp_extension.load_inline (line 2)"),
    (candidate("return x", imports="import torch.utils.cpp_extension as cpp\ncpp.load('e', ['e.cpp'])\n"),
     "uses torch.utils.cpp_extension.load (line 2)"),
    (candidate("return x", imports="import triton\n"), "imports triton"),
])
def test_kernels_of_its_own_are_custom_cuda(source, reason):
    found = infer_space(source)
    assert found.space == "custom_cuda" and reason in found.reason


@pytest.mark.parametrize("body, reason", [
    ("torch.backends.cudnn.benchmark = True\nreturn Model.forward(self, x)", "uses torch.backends.cudnn.benchmark"),
    ("torch.backends.cuda.matmul.allow_tf32 = True\nreturn x @ x", "torch.backends.cuda.matmul.allow_tf32"),
    ("return torch.addmm(self.bias, x, self.weight.t())", "uses torch.addmm"),
    ("return self.bias.addmm(x, self.weight.t())", "calls .addmm()"),
    ("return torch._addmm_activation(self.bias, x, self.weight.t(), use_gelu=True)", "torch._addmm_activation"),
])
def test_library_choices_only_are_cuda_libs(body, reason):
    found = infer_space(candidate(body))
    assert found.space == "cuda_libs" and reason in found.reason


@pytest.mark.parametrize("body", [
    "return torch.relu(x) * 2.0",
    "return torch.compile(Model.forward)(self, x)",
    "return torch.nn.functional.scaled_dot_product_attention(x, x, x)",
    "return x.contiguous(memory_format=torch.channels_last)",
])
def test_plain_torch_code_is_pytorch(body):
    assert infer_space(candidate(body)).space == "pytorch"


def test_a_library_setting_beside_a_kernel_is_still_custom_cuda():
    source = candidate("torch.backends.cudnn.benchmark = True\nreturn x",
                       imports='SOURCE = "__global__ void k() {}"\n')
    assert infer_space(source).space == "custom_cuda"


def test_a_name_that_only_looks_like_a_library_is_not_one():
    # `addmm` as a plain local function is not cuBLAS; `torch.backends.mkldnn` is a CPU library
    assert infer_space(candidate("return addmm(x)\ntorch.backends.mkldnn.enabled = False")).space == "pytorch"


def test_source_that_does_not_parse_is_pytorch_and_says_so():
    found = infer_space("class ModelNew(:\n")
    assert found.space == "pytorch" and "does not parse" in found.reason


def test_reasons_name_the_line_in_the_file():
    source = candidate("return x", imports="import triton\n")
    assert infer_space(source, first_line=40).reason == "builds its own kernels: imports triton (line 40)"

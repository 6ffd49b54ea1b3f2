"""CUDA rule HC114 beyond the documented examples: which checks make a tensor's `data_ptr` safe."""

import pytest

from hiera_core.analysis import analyze_file


@pytest.mark.parametrize("checks, missing", [
    ("", "contiguity, device"),  # data_ptr<float>() checks the dtype itself
    ("CHECK_INPUT(x);", None),
    ("TORCH_CHECK(x.is_cuda()); x = x.contiguous();", None),
    ("TORCH_CHECK(x.is_cuda());", "contiguity"),
])
def test_data_ptr_needs_device_and_contiguity_checks(checks, missing):
    source = """#include <torch/extension.h>
#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be CUDA")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)
void launch(float* p);
torch::Tensor run(torch::Tensor x) {
  CHECKS
  auto out = torch::empty_like(x);
  launch(x.data_ptr<float>());
  launch(out.data_ptr<float>());
  return out;
}
""".replace("CHECKS", checks)
    findings = [f for f in analyze_file("ext.cu", source) if f.code == "HC114"]
    if missing is None:
        assert findings == []
    else:
        assert [(f.start_line + 1, f.message.split("checking the ")[1]) for f in findings] == [(9, f"{missing} of x")]


def test_untyped_data_ptr_needs_the_dtype_check():
    source = """#include <torch/extension.h>
void launch(void* p);
void run(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.is_contiguous());
  launch(x.data_ptr());
}
"""
    assert [f.message.split("checking the ")[1] for f in analyze_file("e.cu", source) if f.code == "HC114"] == [
        "dtype of x"]


def test_data_ptr_through_a_conversion_chain():
    source = """#include <torch/extension.h>
void launch(float* p);
void run(torch::Tensor x) {
  launch(x.contiguous().data_ptr<float>());
  TORCH_CHECK(x.is_cuda());
  launch(x.to(torch::kFloat).contiguous().data_ptr<float>());
}
"""
    assert [(f.start_line + 1, f.message.split("checking the ")[1]) for f in analyze_file("e.cu", source)
            if f.code == "HC114"] == [(4, "device of x")]


def test_data_ptr_checked_in_the_binding_file_and_a_header_macro(tmp_path):
    (tmp_path / "checks.h").write_text(
        '#define CHECK_INPUT(x) TORCH_CHECK(x.is_cuda(), "cuda"); TORCH_CHECK(x.is_contiguous(), "contiguous")\n')
    (tmp_path / "binding.cpp").write_text("""#include <torch/extension.h>
#include "checks.h"
torch::Tensor scale_cuda(torch::Tensor x, torch::Tensor y);
torch::Tensor scale(torch::Tensor x, torch::Tensor y) {
  CHECK_INPUT(x);
  return scale_cuda(x, y);
}
""")
    kernel = tmp_path / "scale.cu"
    kernel.write_text("""#include <torch/extension.h>
void launch(const float* x, const float* y);
torch::Tensor scale_cuda(torch::Tensor x, torch::Tensor y) {
  launch(x.data_ptr<float>(), y.data_ptr<float>());
  return x;
}
""")
    # x is checked by the only caller, in binding.cpp, through the header's macro; y by nobody
    assert [(f.start_line + 1, f.message) for f in analyze_file(str(kernel)) if f.code == "HC114"] == [
        (4, "y.data_ptr<float>() before checking the contiguity, device of y")]


def test_data_ptr_of_a_tensor_iterator_is_not_a_tensor_pointer():
    source = """#include <ATen/ATen.h>
void launch(void* p);
void run(at::TensorIterator& iter, const at::Tensor& t) {
  launch(iter.data_ptr(0));
  launch(t.data_ptr());
}
"""
    assert [f.start_line + 1 for f in analyze_file("e.cu", source) if f.code == "HC114"] == [5]

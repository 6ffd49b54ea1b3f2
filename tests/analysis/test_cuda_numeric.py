"""CUDA rules about numeric types beyond the documented examples: HC111 (double in float kernels),
HC113 (32-bit counts) and HC120 (atomics per architecture)."""

import pytest
from helpers.cuda_analysis import found


@pytest.mark.parametrize("statement, expected", [
    ("y[0] = x[0] * 0.5;", True),
    ("y[0] = x[0] * 0.5f;", False),
    ("y[0] = x[0] * 2;", False),
    ("float a = 0.5; y[0] = a;", False),  # converted once at compile time
    ("y[0] = 1e-3;", False),
    ("y[0] = (float)0.5 * x[0];", False),
    ("y[0] = fmaxf(x[0], 0.0);", False),  # a float parameter takes it
    ("y[0] = fmax(x[0], 0.0);", True),  # the double overload
    ("y[0] = pow(x[0], 2);", True),
    ("y[0] = powf(x[0], 2);", False),
    ("y[0] = expf(x[0]) + 1.5e3;", True),
])
def test_double_in_float_kernel(statement, expected):
    source = f"__global__ void k(const float* __restrict__ x, float* __restrict__ y) {{ {statement} }}\n"
    assert bool(found(source, "HC111")) is expected


def test_double_rule_skips_double_and_generic_kernels():
    assert found("__global__ void k(double* y) { y[0] = y[0] * 0.5; }\n", "HC111") == []
    assert found("template <typename T> __global__ void k(T* y) { y[0] = y[0] * 0.5; }\n", "HC111") == []


@pytest.mark.parametrize("declaration, codes", [
    ("int i = blockIdx.x * blockDim.x + threadIdx.x;", []),  # cuda-samples vectorAdd: not a real overflow
    ("auto i = blockIdx.x * blockDim.x + threadIdx.x;", []),
    ("int o = b * T;", []),  # two extents
    ("int o = b * T * C;", ["HC113"]),  # three 32-bit extents
    ("int o = (b * T) * C + 1;", ["HC113"]),
    ("int64_t o = (int64_t)b * T * C;", []),
    ("int o = b * 4 * C;", []),  # constants are not extents
    ("int o = w * C;", ["HC113"]),  # a 64-bit product stored in an int
    ("int t = threadIdx.x;", []),
])
def test_int32_index_overflow_needs_a_count_that_can_exceed_2_31(declaration, codes):
    source = f"__global__ void k(float* p, int b, int T, int C, int64_t w) {{ {declaration} }}\n"
    assert [code for code, _ in found(source, "HC113")] == codes


def test_int32_products_in_a_subscript_and_numel_in_an_int():
    source = """#include <torch/extension.h>
__global__ void k(const float* __restrict__ a, float* __restrict__ c, int n, int m, int r) {
  int row = blockIdx.y;
  int col = threadIdx.x;
  if (col < n) {
    c[row * n + col] = a[row * n * m + col];
    c[(int64_t)row * n * m + col] = a[col];
  }
}
void run(torch::Tensor x) {
  int count = x.numel();
  int64_t wide = x.numel();
  int rows = x.size(0);
  int cells = x.size(0) * x.size(1);
}
"""
    assert found(source, "HC113") == [("HC113", 6), ("HC113", 11), ("HC113", 14)]


@pytest.mark.parametrize("arch, operand, expected", [
    ("sm_52", "double* out", True),
    ("sm_60", "double* out", False),
    ("sm_70", "__nv_bfloat16* out", True),
    ("sm_80", "__nv_bfloat16* out", False),
    ("sm_52", "float* out", False),
    (None, "double* out", False),  # no target architecture: the rule does not run
])
def test_atomics_the_target_arch_lacks(arch, operand, expected):
    from hiera_core.analysis.cuda_rules import check_cuda
    from hiera_core.analysis.cuda_source import parse_cuda

    source = f"__global__ void k({operand}, float v) {{ atomicAdd(&out[0], v); atomicAdd(out + 1, v); }}\n"
    codes = [f.code for f in check_cuda(parse_cuda(source), "k.cu", arch)]
    assert (codes.count("HC120") == 2) is expected and codes.count("HC120") in (0, 2)


def test_atomics_under_an_arch_guard_or_with_an_own_overload_are_not_reported():
    from hiera_core.analysis.cuda_rules import check_cuda
    from hiera_core.analysis.cuda_source import parse_cuda

    guarded = """__global__ void k(double* out, double v) {
#if __CUDA_ARCH__ >= 600
  atomicAdd(out, v);
#endif
}
"""
    overload = "__device__ double atomicAdd(double* a, double v);\n" \
               "__device__ double atomicAdd(double* a, double v) { return v; }\n" \
               "__global__ void k(double* out, double v) { atomicAdd(out, v); }\n"
    for source in (guarded, overload):
        assert [f.code for f in check_cuda(parse_cuda(source), "k.cu", "sm_52") if f.code == "HC120"] == []


def test_arch_is_read_from_the_check_table():
    from hiera_core.analysis.config import ConfigError, config_from_table

    assert config_from_table({"arch": "sm_80"}, ".").arch == "sm_80"
    assert config_from_table({}, ".").arch is None
    with pytest.raises(ConfigError, match="arch must name a CUDA architecture"):
        config_from_table({"arch": "ampere"}, ".")

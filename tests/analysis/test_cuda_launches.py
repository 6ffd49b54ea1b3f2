"""CUDA rules about launches and kernels beyond the documented examples: block sizes, shared memory,
launch checks, `__restrict__`, kernels behind macros."""

import pytest
from helpers.cuda_analysis import found

from hiera_core.analysis import CheckConfig, analyze_file


@pytest.mark.parametrize("launch, codes", [
    ("k<<<g, 1024>>>(p);", []),
    ("k<<<g, 1025>>>(p);", ["HC105"]),
    ("k<<<g, dim3(32, 32)>>>(p);", []),
    ("k<<<g, dim3(8, 8, 128)>>>(p);", ["HC105"]),  # z above 64
    ("k<<<g, 96>>>(p);", []),
    ("k<<<g, 1>>>(p);", []),  # a deliberate single thread
    ("k<<<g, 48>>>(p);", ["HC106"]),
    ("k<<<g, THREADS>>>(p);", ["HC106"]),  # from #define THREADS (3 * 10)
    ("const int t = 2000; k<<<g, t>>>(p);", ["HC105"]),
    ("dim3 b(16, 3); k<<<g, b>>>(p);", ["HC106"]),
    ("int t = 64; t = 100; k<<<g, t>>>(p);", []),  # reassigned: not a constant
    ("k<<<g, blocksize>>>(p);", []),  # unknown
])
def test_block_size(launch, codes):
    source = "#define THREADS (3 * 10)\n__global__ void k(float* p) {}\nvoid run(float* p, int g, int blocksize) {\n" \
             f"  {launch}\n}}\n"
    assert [code for code, _ in found(source) if code in ("HC105", "HC106")] == codes


def test_launch_bounds_values_and_launches_above_them():
    source = """
template <int B> __global__ void __launch_bounds__(B) t(float* p) {}
__global__ void __launch_bounds__(2048) too_big(float* p) {}
__global__ void __launch_bounds__(100) odd(float* p) {}
__global__ void __launch_bounds__(256, 2) k(float* p) {}
void run(float* p) {
  k<<<1, 256>>>(p);
  k<<<1, 512>>>(p);
  t<128><<<1, 1024>>>(p);
}
"""
    assert [(code, line) for code, line in found(source) if code in ("HC105", "HC106", "HC109")] == [
        ("HC105", 3), ("HC106", 4), ("HC109", 8)]


def test_static_shared_memory_limit_counts_all_arrays_of_the_kernel():
    source = """
#define N 64
__global__ void ok(float* p) { __shared__ float a[N][N]; __shared__ double b[2048]; }
__global__ void over(float* p) { __shared__ float a[N][N]; __shared__ double b[4097]; }
__global__ void dynamic(float* p) { extern __shared__ float big[]; }
template <int T> __global__ void unknown(float* p) { __shared__ float a[T][T]; }
"""
    assert found(source, "HC107") == [("HC107", 4)]


def test_dynamic_shared_memory_needs_the_opt_in_for_that_kernel():
    source = """
__global__ void a(float* p) { extern __shared__ float s[]; }
__global__ void b(float* p) { extern __shared__ float s[]; __shared__ float t[4096]; }
void run(float* p) {
  cudaFuncSetAttribute(a, cudaFuncAttributeMaxDynamicSharedMemorySize, 98304);
  a<<<1, 256, 98304>>>(p);
  b<<<1, 256, 40960>>>(p);
  b<<<1, 256, 16384>>>(p);
}
"""
    assert found(source, "HC108") == [("HC108", 7)]  # 40960 + 16384 static > 48 KB; 16384 + 16384 fits


TORCH = "#include <torch/extension.h>\n__global__ void k(float* p) {}\n"


@pytest.mark.parametrize("body, expected", [
    ("  k<<<1, 32>>>(p);\n", [4]),
    ("  k<<<1, 32>>>(p);\n  C10_CUDA_KERNEL_LAUNCH_CHECK();\n", []),
    ("  k<<<1, 32>>>(p);\n  AT_CUDA_CHECK(cudaGetLastError());\n", []),
    # a launch error stays recorded until it is read: one check after a group of launches covers them all
    ("  k<<<1, 32>>>(p);\n  k<<<1, 32>>>(p);\n  C10_CUDA_KERNEL_LAUNCH_CHECK();\n", []),
    ("  k<<<1, 32>>>(p);\n  C10_CUDA_KERNEL_LAUNCH_CHECK();\n  k<<<1, 32>>>(p);\n", [6]),  # nothing after the last
    ("  cudaLaunchKernel((void*)k, 1, 32, args, 0, 0);\n", [4]),
    ("  C10_CUDA_CHECK(cudaLaunchKernel((void*)k, 1, 32, args, 0, 0));\n", []),
])
def test_unchecked_launch_in_torch_extensions(body, expected):
    source = TORCH + "void run(float* p, void** args) {\n" + body + "}\n"
    assert [line for _, line in found(source, "HC110")] == expected


def test_unchecked_launch_only_applies_to_torch_extensions():
    assert found("__global__ void k(float* p) {}\nvoid run(float* p) { k<<<1, 32>>>(p); }\n", "HC110") == []


def test_missing_restrict_is_off_by_default_and_info_when_selected():
    source = "__global__ void one(float* p) {}\n__global__ void two(const float* a, float* __restrict__ b) {}\n"
    assert [f for f in analyze_file("k.cu", source) if f.code == "HC115"] == []
    for select in (["HC115"], ["HC1"]):
        findings = [f for f in analyze_file("k.cu", source, CheckConfig(select=select)) if f.code == "HC115"]
        assert [(f.severity, f.start_line + 1, f.message) for f in findings] == [
            ("info", 2, "pointer parameter 'a' of kernel two is not __restrict__")]
    assert [f for f in analyze_file("k.cu", source, CheckConfig(select=["HC101"])) if f.code == "HC115"] == []


def test_kernels_behind_macros():
    source = """#define KERNEL __global__
#define DEFINE_KERNEL(name) __global__ void name(float* p) { p[threadIdx.x] = 0.5; }
KERNEL void through_qualifier_macro(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = n;
}
DEFINE_KERNEL(generated)
"""
    result = found(source)
    assert ("HC116", 2) in result  # the function-like macro hides its kernel
    assert ("HC101", 5) in result  # the qualifier macro is expanded


def test_kernel_in_a_parse_error_is_reported_not_crashed():
    source = "__global__ void broken(float* p {{{ int x = ;\n__global__ void fine(float* p) { p[threadIdx.x] = 0.f; }\n"
    codes = [code for code, _ in found(source)]
    assert "HC116" in codes or codes == []  # whatever the parser recovers, no exception

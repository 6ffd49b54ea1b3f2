"""CUDA rules beyond the documented examples: the cases that decide between a finding and none."""

import pytest

from hiera_core.analysis import analyze_file


def found(source: str, code: str | None = None) -> list[tuple[str, int]]:
    """(code, 1-based line) of the findings of a .cu source, optionally of one code."""
    return [(f.code, f.start_line + 1) for f in analyze_file("k.cu", source) if code is None or f.code == code]


KERNEL_HEAD = "__global__ void k(const float* __restrict__ x, float* __restrict__ y, int64_t n) {\n" \
              "  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;\n"


@pytest.mark.parametrize("body, expected", [
    ("  y[i] = x[i];\n", [("HC101", 3)]),
    ("  if (i < n) y[i] = x[i];\n", []),
    ("  if (i >= n) return;\n  y[i] = x[i];\n", []),  # early exit guards what follows
    ("  y[i] = i < n ? x[i] : 0.0f;\n", [("HC101", 3)]),  # the store is outside the ternary
    ("  bool ok = i < n;\n  if (ok) y[i] = x[i];\n", []),  # guard through a local
    ("  if (n > 0) y[i] = x[i];\n", [("HC101", 3)]),  # a guard on something else
    ("  for (int64_t j = i; j < n; j += (int64_t)gridDim.x * blockDim.x) y[j] = x[j];\n", []),
    ("  const float* __restrict__ row = x + (int64_t)blockIdx.x * n;\n  y[threadIdx.x] = row[threadIdx.x];\n",
     [("HC101", 4)]),  # a pointer derived from a parameter is global memory too
    ("  y[blockIdx.x] = x[0];\n", []),  # one element per block: not a thread index
    ("  y[min(i, n - 1)] = x[min(i, n - 1)];\n", []),  # clamped
])
def test_unguarded_index(body, expected):
    assert found(KERNEL_HEAD + body + "}\n", "HC101") == expected


def test_unguarded_index_reports_one_finding_per_line_and_not_in_device_functions():
    source = KERNEL_HEAD + "  y[i] = x[i] + x[i + 1];\n}\n" \
        "__device__ void store(float* s, float v) { s[threadIdx.x + blockIdx.x] = v; }\n"
    assert found(source, "HC101") == [("HC101", 3)]


@pytest.mark.parametrize("body, expected", [
    ("  if (threadIdx.x < 16) { __syncthreads(); }\n", [("HC102", 2)]),
    ("  int tid = threadIdx.x;\n  while (tid < 64) { __syncthreads(); tid += 32; }\n", [("HC102", 3)]),
    ("  int lane = threadIdx.x & 31;\n  int v = lane ? 1 : __syncthreads_count(1);\n", [("HC102", 3)]),
    ("  if (threadIdx.y == 0) { __syncthreads(); }\n", [("HC102", 2)]),  # y differs between threads too
    ("  if (blockIdx.x < 4) { __syncthreads(); }\n", []),  # uniform over the block
    ("  for (int s = 128; s > 0; s >>= 1) { if (threadIdx.x < s) {} __syncthreads(); }\n", []),
    ("  if (threadIdx.x >= 100) return;\n  __syncthreads();\n", [("HC103", 3)]),
    ("  if (blockIdx.x >= 100) return;\n  __syncthreads();\n", []),
    ("  __syncthreads();\n  if (threadIdx.x >= 100) return;\n", []),
])
def test_divergent_barrier(body, expected):
    source = "__global__ void k(int* p) {\n" + body + "}\n"
    assert found(source, "HC102") + found(source, "HC103") == expected


@pytest.mark.parametrize("body, expected", [
    ("  int lane = threadIdx.x % 32;\n  if (lane < 16) v = __shfl_xor_sync(0xffffffff, v, 1);\n", [3]),
    ("  if (threadIdx.x < 64) v = __shfl_xor_sync(0xffffffff, v, 1);\n", []),  # whole warps
    ("  int warp = threadIdx.x / 32;\n  if (warp == 0) v = __shfl_xor_sync(0xffffffff, v, 1);\n", []),
    ("  if (threadIdx.x >> 5 == 1) __syncwarp();\n", []),
    ("  if (threadIdx.x == 0) __syncwarp();\n", [2]),
    ("  if (threadIdx.y > 2) return;\n  v = __shfl_xor_sync(0xffffffff, v, 1);\n", []),  # y is warp-uniform
    ("  if (threadIdx.x > 2) return;\n  v = __shfl_xor_sync(~0u, v, 1);\n", [3]),
    ("  unsigned m = __ballot_sync(0xffffffff, threadIdx.x < 5);\n"
     "  if (threadIdx.x < 5) v = __shfl_xor_sync(m, v, 1);\n", []),  # an explicit mask of the active lanes
])
def test_divergent_warp_intrinsic(body, expected):
    source = "__global__ void k(float* p) {\n  float v = 0.0f;\n" + body.replace("\n  ", "\n  ", -1) + "}\n"
    assert [line - 1 for _, line in found(source, "HC104")] == expected


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
    ("  k<<<1, 32>>>(p);\n  k<<<1, 32>>>(p);\n  C10_CUDA_KERNEL_LAUNCH_CHECK();\n", [4]),  # only the last is checked
    ("  cudaLaunchKernel((void*)k, 1, 32, args, 0, 0);\n", [4]),
    ("  C10_CUDA_CHECK(cudaLaunchKernel((void*)k, 1, 32, args, 0, 0));\n", []),
])
def test_unchecked_launch_in_torch_extensions(body, expected):
    source = TORCH + "void run(float* p, void** args) {\n" + body + "}\n"
    assert [line for _, line in found(source, "HC110")] == expected


def test_unchecked_launch_only_applies_to_torch_extensions():
    assert found("__global__ void k(float* p) {}\nvoid run(float* p) { k<<<1, 32>>>(p); }\n", "HC110") == []


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
    ("int i = blockIdx.x * blockDim.x + threadIdx.x;", ["HC113"]),
    ("auto i = blockIdx.x * blockDim.x + threadIdx.x;", ["HC113"]),
    ("int64_t i = blockIdx.x * blockDim.x + threadIdx.x;", ["HC113"]),  # widened after the product
    ("int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;", []),
    ("int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;", []),
    ("int row = blockIdx.y * blockDim.y + threadIdx.y;", []),  # y grids are at most 65535 blocks
    ("int t = threadIdx.x;", []),
])
def test_int32_global_index(declaration, codes):
    source = f"__global__ void k(float* p) {{ {declaration} }}\n"
    assert [code for code, _ in found(source, "HC113")] == codes


def test_int32_product_in_a_subscript():
    source = """__global__ void k(const float* __restrict__ a, float* __restrict__ c, int n, int64_t m) {
  int row = blockIdx.y;
  int col = threadIdx.x;
  int64_t wide = blockIdx.y;
  if (col < n) {
    c[row * n + col] = a[wide * n + col];
    c[row * 4 + col] = a[(int64_t)row * n + col];
  }
}
"""
    assert found(source, "HC113") == [("HC113", 6)]


@pytest.mark.parametrize("checks, missing", [
    ("", "contiguity, device, dtype"),
    ("CHECK_INPUT(x);", "dtype"),
    ("CHECK_INPUT(x); TORCH_CHECK(x.scalar_type() == torch::kFloat);", None),
    ("TORCH_CHECK(x.is_cuda()); TORCH_CHECK(x.dtype() == torch::kFloat); x = x.contiguous();", None),
    ("TORCH_CHECK(x.is_cuda() && x.is_contiguous());", "dtype"),
])
def test_data_ptr_needs_dtype_device_and_contiguity_checks(checks, missing):
    source = """#include <torch/extension.h>
#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be CUDA")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)
void launch(float* p);
torch::Tensor run(torch::Tensor x) {
  %s
  auto out = torch::empty_like(x);
  launch(x.data_ptr<float>());
  launch(out.data_ptr<float>());
  return out;
}
""" % checks
    findings = [f for f in analyze_file("ext.cu", source) if f.code == "HC114"]
    if missing is None:
        assert findings == []
    else:
        assert [(f.start_line + 1, f.message.split("checking the ")[1]) for f in findings] == [(9, f"{missing} of x")]


def test_data_ptr_through_a_conversion_chain():
    source = """#include <torch/extension.h>
void launch(float* p);
void run(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda());
  launch(x.contiguous().data_ptr<float>());
  launch(x.to(torch::kFloat).contiguous().data_ptr<float>());
}
"""
    assert [(f.start_line + 1, f.message.split("checking the ")[1]) for f in analyze_file("e.cu", source)
            if f.code == "HC114"] == [(5, "dtype of x")]


def test_missing_restrict_is_info_and_needs_two_pointers():
    source = "__global__ void one(float* p) {}\n__global__ void two(const float* a, float* __restrict__ b) {}\n"
    findings = [f for f in analyze_file("k.cu", source) if f.code == "HC115"]
    assert [(f.severity, f.start_line + 1, f.message) for f in findings] == [
        ("info", 2, "pointer parameter 'a' of kernel two is not __restrict__")]


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
    assert ("HC101", 5) in result and ("HC113", 4) in result  # the qualifier macro is expanded


def test_kernel_in_a_parse_error_is_reported_not_crashed():
    source = "__global__ void broken(float* p {{{ int x = ;\n__global__ void fine(float* p) { p[threadIdx.x] = 0.f; }\n"
    codes = [code for code, _ in found(source)]
    assert "HC116" in codes or codes == []  # whatever the parser recovers, no exception

"""CUDA rules beyond the documented examples: the cases that decide between a finding and none."""

import pytest

from hiera_core.analysis import CheckConfig, analyze_file


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
    (("  unsigned m = __ballot_sync(0xffffffff, threadIdx.x < 5);\n"
      "  if (threadIdx.x < 5) v = __shfl_xor_sync(m, v, 1);\n"), []),  # an explicit mask of the active lanes
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


def test_each_declaration_is_its_own_variable():
    source = """__global__ void k(float* p, int n) {
  {
    int i = threadIdx.x;
    p[i] = 0.0f;
  }
  for (int i = 0; i < n; ++i) {
    __syncthreads();
  }
  int j = 0;
  while (j < n) { __syncthreads(); j = j + 1; }
}
__device__ void other(float* p) { int i = threadIdx.x; p[i] = 1.0f; }
"""
    # the `i` read from threadIdx lives in its own block: the loop over the other `i` is uniform
    assert found(source, "HC102") == []


def test_divergent_barrier_names_the_loop_that_depends_on_the_thread():
    source = """__global__ void k(float* p, int n) {
  for (int s = 0; s < n; ++s) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      __syncthreads();
    }
  }
}
"""
    [finding] = [f for f in analyze_file("k.cu", source) if f.code == "HC102"]
    assert "for loop on `int i = threadIdx.x; i < n" not in finding.message
    assert "`i < n` (line 3)" in finding.message


@pytest.mark.parametrize("launch, expected", [
    ("k<<<(n + 255) / 256, 256>>>(x, n);", [3]),
    ("k<<<4, 256>>>(x, n);", []),  # a constant grid is not rounded up
    ("static_assert(N % 256 == 0); k<<<N / 256, 256>>>(x, n);", []),
    ("k<<<rows, cols>>>(x, n);", []),  # one block per row, one thread per column
    ("k<<<4, 256>>>(x, n); k<<<(n + 255) / 256, 256>>>(x, n);", [3]),  # every launch must be exact
])
def test_unguarded_index_is_silent_for_exact_grids(launch, expected):
    source = "#define N 4096\n__global__ void k(float* x, int n) {\n  x[blockIdx.x * blockDim.x + threadIdx.x] = 0.f;\n}\n" \
             f"void run(float* x, int n, int rows, int cols) {{ {launch} }}\n"
    assert [line for _, line in found(source, "HC101")] == expected


@pytest.mark.parametrize("body, expected", [
    ("  if (threadIdx.x >= 100) return;\n  __syncthreads();\n", [3]),
    ("  if (blockIdx.x >= 100) return;\n  __syncthreads();\n", []),  # whole blocks return
    ("  if (threadIdx.x < 32) { if (threadIdx.x == 0) return; }\n  __syncthreads();\n", [3]),  # escapes the block
    ("  for (int j = 0; j < 4; ++j) { if (threadIdx.x == j) continue; }\n  __syncthreads();\n", []),
])
def test_early_exits_before_a_barrier(body, expected):
    source = "__global__ void k(int* p) {\n" + body + "}\n"
    assert [line for _, line in found(source, "HC103")] == expected


@pytest.mark.parametrize("body, expected", [
    ("s[t] = x[t];\n  y[t] = s[t + 1];", [("HC117", 4)]),
    ("s[t] = x[t];\n  __syncthreads();\n  y[t] = s[t + 1];", []),
    ("s[t] = x[t];\n  y[t] = s[t];", []),  # each thread reads its own element
    ("if (t == 0) s[0] = x[0];\n  y[t] = s[0];", [("HC117", 4)]),
    ("if (t == 0) s[0] = x[0];\n  __syncthreads();\n  y[t] = s[0];", []),
    ("s[t] = x[t];\n  cg_block.sync();\n  y[t] = s[t + 1];", []),  # cooperative groups' barrier
    ("s[t] = x[t];\n  y[t] = s[t + 1] + s[t];", [("HC117", 4)]),
])
def test_shared_race_without_a_barrier(body, expected):
    source = "__global__ void k(const float* __restrict__ x, float* __restrict__ y) {\n" \
             "  __shared__ float s[257];\n  int t = threadIdx.x;\n  " + body + "\n}\nvoid run(float* x, float* y) " \
             "{ k<<<1, 256>>>(x, y); }\n"
    assert found(source, "HC117") == [(code, line + 1) for code, line in expected]


@pytest.mark.parametrize("launch, expected", [
    ("k<<<n / 256, 256>>>(x, n);", [6]),
    ("k<<<(n + 255) / 256, 256>>>(x, n);", []),
    ("int blocks = n / 256; k<<<blocks, 256>>>(x, n);", [6]),
    ("TORCH_CHECK(n % 256 == 0); k<<<n / 256, 256>>>(x, n);", []),
    ("k<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(x, n);", [6, 6]),
    ("k<<<4096 / 256, 256>>>(x, n);", []),  # exact
    ("g<<<n / 256, 256>>>(x, n);", []),  # a grid-stride loop covers any n
])
def test_floor_divided_grid(launch, expected):
    source = """__global__ void k(float* x, int n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0.f; }
__global__ void g(float* x, int n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    x[i] = 0.f; }
void run(float* x, int n, int w, int h) { LAUNCH }
""".replace("LAUNCH", launch)
    assert [line for _, line in found(source, "HC118")] == expected


@pytest.mark.parametrize("body, expected", [
    ("__shared__ float a[256], b[256];\n  a[t] = x[t];\n  __syncthreads();\n  y[t] = b[t];", [6]),
    ("__shared__ float a[256];\n  a[t] = x[t];\n  __syncthreads();\n  y[t] = a[t];", []),
    ("__shared__ float a[256];\n  load(a, x);\n  __syncthreads();\n  y[t] = a[t];", []),  # written by a callee
    ("__shared__ float m;\n  __syncthreads();\n  y[t] = m;", [5]),
    ("__shared__ float m;\n  if (t == 0) m = x[0];\n  __syncthreads();\n  y[t] = m;", []),
    ("__shared__ int c;\n  if (t == 0) atomicAdd(&c, 1);\n  __syncthreads();\n  y[t] = c;", []),
])
def test_read_of_shared_memory_nobody_wrote(body, expected):
    source = "__device__ void load(float* s, const float* x);\n" \
             "__global__ void k(const float* __restrict__ x, float* __restrict__ y) {\n  int t = threadIdx.x;\n  " \
             + body + "\n}\n"
    assert [line - 1 for _, line in found(source, "HC119")] == expected


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


@pytest.mark.parametrize("body, expected", [
    ("for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffff, v, o);", [3]),  # reaches lanes 16..31
    ("for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(0xffff, v, o, 16);", [3]),  # all 32 lanes run it
    ("if (threadIdx.x < 16) { for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(0xffff, v, o); }", []),
    ("for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);", []),
    ("v = __shfl_sync(m, v, 0);", []),  # a computed mask
])
def test_partial_shuffle_masks(body, expected):
    source = "__global__ void k(float* p, unsigned m) {\n  float v = p[threadIdx.x];\n  " + body + "\n  p[threadIdx.x] = v;\n}\n"
    assert [line for _, line in found(source, "HC121")] == expected


@pytest.mark.parametrize("body, expected", [
    ("  if (i < n) { y[i] = x[i]; y[i + 1] = x[i]; }\n", [3]),  # a pair per thread: i + 1 can be n
    ("  if (i + 1 < n) { y[i] = x[i]; y[i + 1] = x[i]; }\n", []),
    ("  if (i < n - 3) { y[i + 3] = x[i]; }\n", []),
    ("  for (int64_t j = 4 * i; j < n; j += 4) { y[j] = x[j]; y[j + 2] = x[j]; }\n", [3]),  # unrolled tail
    ("  if (i < n) { y[i] = x[i]; if (i + 1 < n) y[i + 1] = x[i]; }\n", []),
])
def test_index_past_what_the_guard_bounds(body, expected):
    assert [line for _, line in found(KERNEL_HEAD + body + "}\n", "HC101")] == expected


def test_a_2d_index_needs_both_coordinates_bounded():
    source = """__global__ void t(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows) out[col * rows + row] = 0.f;
  if (row < rows && col < cols) out[col * rows + row] = in[row * cols + col];
}
"""
    assert found(source, "HC101") == [("HC101", 4)]


def test_loop_carried_shared_race_and_updates_of_unwritten_shared_memory():
    race = """__global__ void k(float* __restrict__ out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
  }
  if (t == 0) out[0] = s[0];
}
void run(float* out) { k<<<1, 256>>>(out); }
"""
    assert found(race, "HC117") == [("HC117", 7)]
    assert found(race.replace("s[t + stride];\n  }", "s[t + stride];\n    __syncthreads();\n  }"), "HC117") == []
    accumulate = """__global__ void k(const float* __restrict__ x, float* __restrict__ out, int rows) {
  __shared__ float acc[256];
  for (int r = blockIdx.x; r < rows; r += gridDim.x) acc[threadIdx.x] += x[r * 256 + threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = acc[threadIdx.x];
}
"""
    assert found(accumulate, "HC119") == [("HC119", 3)]
    zeroed = accumulate.replace("  for (int r", "  acc[threadIdx.x] = 0.f;\n  for (int r")
    assert found(zeroed, "HC119") == []


def test_data_ptr_of_a_tensor_iterator_is_not_a_tensor_pointer():
    source = """#include <ATen/ATen.h>
void launch(void* p);
void run(at::TensorIterator& iter, const at::Tensor& t) {
  launch(iter.data_ptr(0));
  launch(t.data_ptr());
}
"""
    assert [f.start_line + 1 for f in analyze_file("e.cu", source) if f.code == "HC114"] == [5]

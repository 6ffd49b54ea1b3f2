"""CUDA rules HC101 and HC118 beyond the documented examples: guards, exact grids and rounded-down grids."""

import pytest
from helpers.cuda_analysis import found

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
    ("  if (i < n) { y[i] = x[i]; y[i + 1] = x[i]; }\n", [3]),  # a pair per thread: i + 1 can be n
    ("  if (i + 1 < n) { y[i] = x[i]; y[i + 1] = x[i]; }\n", []),
    ("  if (i < n - 3) { y[i + 3] = x[i]; }\n", []),
    ("  for (int64_t j = 4 * i; j < n; j += 4) { y[j] = x[j]; y[j + 2] = x[j]; }\n", [3]),  # unrolled tail
    ("  if (i < n) { y[i] = x[i]; if (i + 1 < n) y[i + 1] = x[i]; }\n", []),
])
def test_index_past_what_the_guard_bounds(body, expected):
    assert [line for _, line in found(KERNEL_HEAD + body + "}\n", "HC101")] == expected


@pytest.mark.parametrize("body, expected", [
    ("  if (i > n) return;\n  y[i] = x[i];\n", [4]),  # the thread at i == n runs (cuda-samples' uniform_add)
    ("  if (i <= n) y[i] = x[i];\n", [3]),
    ("  if (i > n - 1) return;\n  y[i] = x[i];\n", []),
    ("  if (i >= n || i < 0) return;\n  y[i] = x[i];\n", []),
    ("  const int64_t last = n - 1;\n  if (i > last) return;\n  y[i] = x[i];\n", []),  # an inclusive bound
    ("  if (i > n) return;\n  if (i == n) { y[0] = 0.f; return; }\n  y[i] = x[i];\n", []),  # the end handled apart
])
def test_an_index_one_past_a_count_guard(body, expected):
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

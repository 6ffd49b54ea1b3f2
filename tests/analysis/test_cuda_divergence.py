"""CUDA rules HC102, HC103, HC104 and HC121 beyond the documented examples: barriers and warp
intrinsics under divergence."""

import pytest
from helpers.cuda_analysis import found

from hiera_core.analysis import analyze_file


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
    ("for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffff, v, o);", [3]),  # reaches lanes 16..31
    ("for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(0xffff, v, o, 16);", [3]),  # all 32 lanes run it
    ("if (threadIdx.x < 16) { for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(0xffff, v, o); }", []),
    ("for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);", []),
    ("v = __shfl_sync(m, v, 0);", []),  # a computed mask
])
def test_partial_shuffle_masks(body, expected):
    source = "__global__ void k(float* p, unsigned m) {\n  float v = p[threadIdx.x];\n  " + body + "\n  p[threadIdx.x] = v;\n}\n"
    assert [line for _, line in found(source, "HC121")] == expected

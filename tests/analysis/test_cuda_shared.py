"""CUDA rules HC117 and HC119 beyond the documented examples: shared-memory races and reads of
unwritten shared memory."""

import pytest
from helpers.cuda_analysis import found


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

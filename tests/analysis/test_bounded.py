"""Adversarial sources: the analysis finishes (linear in the size of the input) and never overflows
Python's stack. Each runs in a child process whose timeout is only a hang guard, not a speed check
(the speed figures are in benchmarks/)."""

import subprocess
import sys

import pytest

TERMS = 10_000
SOURCES = {
    "one 35 KB expression": "__global__ void k(float* p) { int i = threadIdx.x; p[i] = " + " + ".join(["i"] * 8700)
                            + "; }\n",
    "a 10,000-term expression": "__global__ void k(float* p) { p[threadIdx.x] = "
                                + " + ".join(f"p[{j}] * 0.5" for j in range(TERMS)) + "; }\n",
    "a 10,000-factor product": "__global__ void k(float* p, int n) { int o = " + " * ".join(["n"] * TERMS)
                               + "; p[o] = 0; }\n",
    "a 10,000-term && condition": "__global__ void k(float* p, int n) { if ("
                                  + " && ".join(["threadIdx.x < n"] * TERMS) + ") __syncthreads(); }\n",
    "100,000 unmatched {": "{" * 100_000,
    "a kernel with 100,000 {": "__global__ void k(float* p) " + "{" * 100_000,
    "10,000 nested ifs": "__global__ void k(float* p) {" + "if (threadIdx.x) {" * TERMS + "__syncthreads();"
                         + "}" * TERMS + "}",
    "10,000 early returns": "__global__ void k(float* p) {" + "if (threadIdx.x == 3) return;\n" * TERMS
                            + "__syncthreads(); }",
    "10,000 nested parentheses": "__global__ void k(float* p) { p[0] = " + "(" * TERMS + "1" + ")" * TERMS
                                 + "; }\nvoid f(float* p) { k<<<" + "(" * TERMS + "1" + ")" * TERMS + ", 32>>>(p); }",
    "a 10,000-term macro": "#define X (" + " + ".join(["1"] * TERMS) + ")\n__global__ void k(float* p) {}\n"
                           "void f() { k<<<X, X>>>(0); }\n",
    "a 5,000-call method chain": "#include <torch/extension.h>\nvoid f(torch::Tensor x) { auto p = x"
                                 + ".contiguous()" * 5000 + ".data_ptr<float>(); }\n",
    "5,000 nested ternaries": "__global__ void k(float* p, int n) { p[threadIdx.x] = " + "n ? 1 : " * 5000 + "0; }\n",
    "10,000 unary minus": "__global__ void k(float* p, int n) { p[threadIdx.x] = " + "-" * TERMS + "n; }\n",
}
CHILD = """
import sys
from hiera_core.analysis import analyze_file
findings = analyze_file("adversarial.cu", sys.stdin.read())
print(len(findings))
"""


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_adversarial_source_is_analysed(name):
    result = subprocess.run([sys.executable, "-c", CHILD], input=SOURCES[name], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().isdigit()

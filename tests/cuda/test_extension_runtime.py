"""The extension helper inlined into candidates (`_hiera_extension`), without building anything:
what the runtime copies into a proposal, the static checks on it, how HIERA reads a candidate's
extension calls, and how compiler errors are mapped to the candidate's lines."""

from __future__ import annotations

import ast
import sys

import pytest

from hiera_core.cuda.extension_candidates import candidate_specs, extension_strings, map_to_candidate
from hiera_core.cuda.extension_runtime import _hiera_extension_key
from hiera_core.cuda.extensions import ExtensionSpec, build_key
from hiera_core.cuda.proposal import runtime_source
from hiera_core.verify.static_checks import check_candidate

CPP = 'torch::Tensor add2(torch::Tensor a, torch::Tensor b) {\n  return at::add(a, b);\n}\n'
CANDIDATE = '''
import torch
import torch.nn as nn

CPP_SRC = r"""
torch::Tensor twice(torch::Tensor x) {
  auto out = torch::empty_like(x);
  return out;
}
"""
FLAGS = ["-O2"]
_ext = _hiera_extension("twice", CPP_SRC, functions=["twice"], extra_cflags=FLAGS)


class ModelNew(Model):
    def forward(self, x):
        return _ext.twice(x)
'''


def test_an_extension_only_runtime_needs_torch_and_the_standard_library_only():
    source = runtime_source({"_hiera_extension"})
    imports = [node for node in ast.parse(source).body if isinstance(node, (ast.Import, ast.ImportFrom))]
    modules = {alias.name for node in imports for alias in node.names if isinstance(node, ast.Import)}
    modules |= {node.module for node in imports if isinstance(node, ast.ImportFrom)}
    assert modules == {"fcntl", "hashlib", "json", "os", "sys"}  # torch: imported where used
    assert "cuda.core" not in source and "def _hiera_kernel(" not in source
    assert "def _hiera_extension(" in source and "def _hiera_extension_build(" in source
    # The NVRTC helpers carry cuda.core, but only the names they use, and no extension code.
    launch = runtime_source({"_hiera_launch"})
    assert "from cuda.core import LaunchConfig, Stream, launch" in launch and "fcntl" not in launch
    both = runtime_source({"_hiera_launch", "_hiera_kernel", "_hiera_extension"})
    assert "def _hiera_kernel(" in both and "def _hiera_extension(" in both
    compile(both, "<runtime>", "exec")


def test_the_inlined_helper_passes_the_custom_cuda_checks_and_fallbacks_still_fail():
    code = runtime_source({"_hiera_extension"}) + CANDIDATE
    assert check_candidate(code, "custom_cuda", "Model") == []
    fallback = code.replace("return _ext.twice(x)", "return super().forward(x)")
    assert [p.check for p in check_candidate(fallback, "custom_cuda", "Model")] == ["reference-fallback"]
    hidden = code.replace("return _ext.twice(x)", "try:\n            return _ext.twice(x)\n"
                                                   "        except RuntimeError:\n            return x")
    assert "try-except" in [p.check for p in check_candidate(hidden, "custom_cuda", "Model")]


@pytest.mark.parametrize("snippet, check", [
    ("TORCH_LIBRARY_IMPL(aten, CPU, m) {\n  m.impl(\"add.Tensor\", add2);\n}", "op-interception"),
    ("TORCH_LIBRARY_IMPL(_, CPU, m) {\n  m.fallback(torch::CppFunction::makeFallthrough());\n}", "op-interception"),
    ("void go() { std::thread worker([] {}); worker.detach(); }", "threads"),
    ("void go() { py::module_::import(\"torch\").attr(\"allclose\"); }", "dynamic-code"),
    ("void go() { PyRun_SimpleString(\"import os\"); }", "dynamic-code"),
])
def test_cpp_sources_may_not_replace_aten_ops_start_threads_or_run_python(snippet, check):
    code = CANDIDATE.replace("  return out;\n", "  return out;\n}\n" + snippet + "\nint unused() {\n  return 0;\n")
    problems = check_candidate(code, "custom_cuda", "Model", first_line=50)
    assert [p.check for p in problems] == [check]
    assert problems[0].line == 50 - 1 + code.splitlines().index(snippet.splitlines()[0]) + 1


def test_own_ops_and_parallel_for_are_fine():
    body = ('TORCH_LIBRARY(hiera_ops, m) {\n  m.def("twice(Tensor x) -> Tensor");\n}\n'
            "void loop(int64_t n) { at::parallel_for(0, n, 2048, [&](int64_t b, int64_t e) {}); }\n")
    code = CANDIDATE.replace("  return out;\n}\n", "  return out;\n}\n" + body)
    assert check_candidate(code, "custom_cuda", "Model") == []


def test_the_key_is_the_runtimes():
    spec = ExtensionSpec("add", CPP, functions=["add2"], extra_cflags=["-O3"])
    assert build_key(spec, "2.13.0", "cpu") == _hiera_extension_key(CPP, None, ["add2"], ["-O3"], None, "2.13.0", "cpu")
    assert build_key(spec, "2.13.0", "cpu") == _hiera_extension_key([CPP], "", "add2", "-O3", [], "2.13.0", "cpu")
    assert build_key(spec, "2.13.0", "cpu") != _hiera_extension_key(CPP, None, ["add2"], None, None, "2.13.0", "cpu")


def test_candidate_specs_resolve_constant_arguments():
    specs = candidate_specs(CANDIDATE)
    cpp = CANDIDATE.split('r"""')[1].split('"""')[0]
    assert specs == [ExtensionSpec("twice", cpp, functions=("twice",), extra_cflags=("-O2",))]
    several = '''
HEAD = "#include <vector>\\n"
BODY = """
int f() { return 1; }
"""
CUDA = ["__global__ void k() {}", "void launch() {}"]
a = _hiera_extension(NAME, HEAD + BODY, CUDA, "f")
b = _hiera_extension("x", cpp_sources=[BODY], functions=("f",), extra_cuda_cflags=["-O3"])
c = _hiera_extension("dynamic", make_source())
d = _hiera_extension("flags", BODY, extra_cflags=FLAGS)
FLAGS = ["-O3"]
FLAGS = ["-O2"]
'''
    found = candidate_specs(several)
    assert found == [
        ExtensionSpec("extension", "#include <vector>\n\nint f() { return 1; }\n",
                      ("__global__ void k() {}", "void launch() {}"), "f"),
        ExtensionSpec("x", ("\nint f() { return 1; }\n",), functions=("f",), extra_cuda_cflags=("-O3",)),
    ]  # c: a call's result; d: FLAGS is bound twice
    assert found[0].cuda_text == "__global__ void k() {}\nvoid launch() {}"


def test_extension_sources_are_not_nvrtc_kernels():
    pytest.importorskip("openai")
    from hiera_core.loop.refine_kernels import nvrtc_kernels, runtime_helpers_called

    code = '''
KERNEL = r"""
extern "C" __global__ void scale(float* x) { x[threadIdx.x] *= 2.f; }
"""
CUDA_SRC = r"""
#include <ATen/cuda/CUDAContext.h>
__global__ void twice(const float* x, float* y) { y[threadIdx.x] = 2.f * x[threadIdx.x]; }
torch::Tensor run(torch::Tensor x) { return x; }
"""
OTHER = """
__global__ void other() {}
"""
_ext = _hiera_extension("twice", "torch::Tensor run(torch::Tensor x);", CUDA_SRC, functions=["run"])
_old = load_inline(name="old", cpp_sources="", cuda_sources=[OTHER])
'''
    assert extension_strings(code) == {"torch::Tensor run(torch::Tensor x);", code.split('r"""')[2].split('"""')[0],
                                       "", "\n__global__ void other() {}\n"}
    assert [k.source.split("(")[0].split()[-1] for k in nvrtc_kernels(code)] == ["scale"]
    assert runtime_helpers_called(code) == ["_hiera_extension"]
    assert runtime_helpers_called(code + "\ndef _hiera_extension(*args):\n    pass\n") == []
    assert runtime_helpers_called("_hiera_launch(_hiera_kernel(S, 'k', 0), 0, 1, 1, 0)") == ["_hiera_kernel",
                                                                                             "_hiera_launch"]


def test_compiler_errors_are_mapped_to_lines_of_the_candidate_file():
    spec = candidate_specs(CANDIDATE)[0]
    message = ("cpp_sources:3: error: 'empty_lik' is not a member of 'torch'\n"
               "    3 |   auto out = torch::empty_lik(x);\n"
               "      |                     ^~~~~~~~~\n"
               "/usr/include/c++/12/bits/stl_vector.h:10: error: something in a header\n"
               "   10 | header line\n"
               "cpp_sources:99: error: past the end")
    first_line = 40  # where the candidate's source starts in its file
    line = first_line - 1 + CANDIDATE.splitlines().index("  auto out = torch::empty_like(x);") + 1
    assert map_to_candidate(message, spec, CANDIDATE, first_line).splitlines() == [
        f"line {line}: error: 'empty_lik' is not a member of 'torch'",
        "      |   auto out = torch::empty_lik(x);",
        "      |                     ^~~~~~~~~",
        "/usr/include/c++/12/bits/stl_vector.h:10: error: something in a header",
        "   10 | header line",
        "cpp_sources:99: error: past the end",
    ]
    # Sources with escaped newlines cannot be placed line by line: their label stays.
    escaped = 'x = _hiera_extension("e", "int f() {\\n  return y;\\n}\\n")\n'
    spec = candidate_specs(escaped)[0]
    assert map_to_candidate("cpp_sources:2: error: 'y' was not declared", spec, escaped) == \
        "cpp_sources:2: error: 'y' was not declared"


def test_importing_the_extension_machinery_imports_no_torch():
    import subprocess

    code = ("import sys, hiera_core.cuda.extensions, hiera_core.cuda.extension_candidates, "
            "hiera_core.cuda.extension_runtime, hiera_core.cuda.proposal; "
            "assert 'torch' not in sys.modules, 'torch imported'")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr

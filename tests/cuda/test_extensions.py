"""Extension candidates: load_inline builds, the persistent build cache, parallel builds, errors.

Each g++ build of a tiny extension takes 15-40 s on a 2-core machine, so the file builds three
(ADD, LOOP and the failing BAD) into one module-wide cache and reuses them; those tests are `slow`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from hiera_core.cuda.extensions import (  # noqa: E402
    ExtensionBuildError,
    ExtensionSpec,
    build,
    build_key,
    build_many,
    module_name,
    trim_compiler_log,
)

ADD = ExtensionSpec(
    "add", cpp_sources="torch::Tensor add2(torch::Tensor a, torch::Tensor b) {\n  return at::add(a, b);\n}\n",
    functions=["add2"])
LOOP = ExtensionSpec("triple", cpp_sources="""\
torch::Tensor triple(torch::Tensor x) {
  auto out = x.contiguous().clone();
  float* data = out.data_ptr<float>();
  for (int64_t i = 0; i < out.numel(); ++i) data[i] *= 3.0f;
  return out;
}
""", functions=["triple"])
BAD = ExtensionSpec("bad", cpp_sources="""\
torch::Tensor broken(torch::Tensor x) {
  auto y = x * 2;
  return y +;
}
""", functions=["broken"])


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hiera_cache")


@pytest.fixture(scope="module")
def built_add(cache):
    return build(ADD, cache)


@pytest.mark.slow
def test_builds_and_computes(built_add, cache):
    assert not built_add.cached
    assert built_add.module_name == module_name(build_key(ADD, torch.__version__, "cpu"))
    assert built_add.library.parent == cache / "extensions" / built_add.module_name
    a, b = torch.arange(5.0), torch.full((5,), 2.0)
    assert torch.equal(built_add.module.add2(a, b), a + b)


@pytest.mark.slow
def test_same_process_reuses_the_module(built_add, cache):
    again = build(ADD, cache)
    assert again.cached and again.module is built_add.module


@pytest.mark.slow
def test_new_process_is_a_cache_hit(built_add, cache):
    mtime = built_add.library.stat().st_mtime_ns
    script = (
        "import json, sys, torch\n"
        "from hiera_core.cuda.extensions import ExtensionSpec, build\n"
        "spec = ExtensionSpec(**json.loads(sys.argv[2]))\n"
        "ext = build(spec, sys.argv[1])\n"
        "print(json.dumps({'cached': ext.cached, 'library': str(ext.library),\n"
        "                  'sum': ext.module.add2(torch.ones(2), torch.ones(2)).sum().item()}))\n")
    fields = {"name": ADD.name, "cpp_sources": ADD.cpp_sources, "functions": list(ADD.functions)}
    run = subprocess.run([sys.executable, "-c", script, str(cache), json.dumps(fields)],
                         capture_output=True, text=True, check=True)
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report == {"cached": True, "library": str(built_add.library), "sum": 4.0}
    assert built_add.library.stat().st_mtime_ns == mtime  # nothing was rebuilt
    assert len(list(built_add.library.parent.glob("*.so"))) == 1


def test_key_depends_on_flags_sources_and_toolchain():
    key = build_key(ADD, "2.13.0", "cpu")
    assert key == build_key(ExtensionSpec("another name", ADD.cpp_sources, functions=["add2"]), "2.13.0", "cpu")
    changed = [
        ExtensionSpec(ADD.name, ADD.cpp_sources, functions=ADD.functions, extra_cflags=["-O3"]),
        ExtensionSpec(ADD.name, ADD.cpp_sources + "\n", functions=ADD.functions),
        ExtensionSpec(ADD.name, ADD.cpp_sources, functions=ADD.functions, extra_cuda_cflags=["-lineinfo"]),
    ]
    assert all(build_key(spec, "2.13.0", "cpu") != key for spec in changed)
    assert build_key(ADD, "2.12.0", "cpu") != key
    assert build_key(ADD, "2.13.0", "sm_90") != key
    assert module_name(key) == f"hiera_ext_{key[:16]}"


def test_trims_gcc_and_nvcc_logs_to_mapped_error_lines(tmp_path):
    spec = ExtensionSpec("k", cpp_sources="int f() {\n  return x;\n}", cuda_sources="__global__ void k() { y; }")
    (tmp_path / "main.cpp").write_text("#include <torch/extension.h>\n" + spec.cpp_text)
    (tmp_path / "cuda.cu").write_text("#include <torch/types.h>\n#include <cuda.h>\n#include <cuda_runtime.h>\n"
                                      + spec.cuda_text)
    log = f"""Error building extension 'k': [1/3] c++ -c main.cpp
FAILED: main.o
{tmp_path}/main.cpp: In function 'int f()':
{tmp_path}/main.cpp:3:10: error: 'x' was not declared in this scope
    3 |   return x;
      |          ^
{tmp_path}/cuda.cu(4): error: identifier "y" is undefined
ninja: build stopped: subcommand failed.
"""
    assert trim_compiler_log(log, spec, tmp_path).splitlines() == [
        "cpp_sources:2: error: 'x' was not declared in this scope",
        "    2 |   return x;",
        "      |          ^",
        'cuda_sources:1: error: identifier "y" is undefined',
    ]


@pytest.mark.slow
def test_build_many_isolates_a_failing_candidate(built_add, cache):
    outcomes = build_many([ADD, LOOP, BAD], max_workers=3, cache_dir=cache)
    add, loop, bad = outcomes
    assert add.ok and add.extension.cached
    assert loop.ok and not loop.extension.cached
    assert torch.equal(loop.extension.module.triple(torch.arange(4.0)), torch.arange(4.0) * 3)
    assert not bad.ok and isinstance(bad.error, ExtensionBuildError)
    message = str(bad.error)
    assert "cpp_sources:3: error:" in message and "return y +;" in message
    assert "ninja" not in message  # trimmed to the compiler's error lines

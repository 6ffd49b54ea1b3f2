"""Extension candidates from a model: answers that build a torch C++/CUDA extension through HIERA's
`_hiera_extension` helper.

On CPU, through `hiera optimize --model M --base-url URL` against a scripted server: a C++-only
extension that does not compile comes back to the model as a rejected sample with the compiler's
error on the line of its module, then the fixed one builds, verifies (as a custom-kernel
candidate) and is timed; a second process (`hiera verify`, a plain import without cuda.core) finds
the build in the cache and compiles nothing. The run shares one HIERA_CACHE_DIR (two g++ builds of
torch/extension.h, 20-40 s each here). On a GPU: a CUDA extension, same path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers.chat_server import Answer, ChatServer, plan_answer, python_answer
from helpers.engine import TINY_TASK, hiera
from helpers.llm import FakeEvaluator, clean_env, refiner_for, tiny_workspace

# Both extension candidates wrap the extension the same way.
MODEL_NEW = '''

    class ModelNew(nn.Module):
        def __init__(self, scale):
            super().__init__()
            self.scale = scale

        def forward(self, x):
            return _ext.relu_scale_add(x, float(self.scale))
'''
GOOD = textwrap.dedent('''
    import torch
    import torch.nn as nn

    CPP_SRC = r"""
    torch::Tensor relu_scale_add(torch::Tensor x, double scale) {
      TORCH_CHECK(x.scalar_type() == at::kFloat, "relu_scale_add: float32 expected");
      auto input = x.contiguous();
      auto out = torch::empty_like(input);
      const float* src = input.data_ptr<float>();
      float* dst = out.data_ptr<float>();
      const float s = static_cast<float>(scale);
      for (int64_t i = 0, n = input.numel(); i < n; ++i) {
        const float v = src[i] < 0.0f ? 0.0f : src[i];
        dst[i] = v * s + 1.0f;
      }
      return out;
    }
    """

    _ext = _hiera_extension("relu_scale_add", CPP_SRC, functions=["relu_scale_add"], extra_cflags=["-O2"])
''' + MODEL_NEW).strip()
BROKEN_LINE = "    dst[i] = v * s + offset;"
BROKEN = GOOD.replace("    dst[i] = v * s + 1.0f;", BROKEN_LINE)
KEY = "sk-test-extensions-0042"


def module_line(code: str, text: str) -> int:
    return code.splitlines().index(text) + 1


def built_extensions(cache: Path) -> list[Path]:
    return sorted(path.parent for path in (cache / "extensions").glob("hiera_ext_*/hiera_ext_*.so"))


def build_state(folder: Path) -> dict:
    """What a compiler or linker run would change: ninja's log and the outputs' mtimes."""
    return {"log": (folder / ".ninja_log").read_text(),
            **{path.name: path.stat().st_mtime_ns for path in folder.iterdir() if path.suffix in (".o", ".so")}}


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hiera_cache")


@pytest.fixture(scope="module")
def cpu_run(tmp_path_factory, cache):
    """One `hiera optimize` on CPU: the plan, the broken extension, then the fixed one."""
    folder = tiny_workspace(tmp_path_factory.mktemp("extensions"), "concurrency = 1\nsamples = 2\nreflection = false")
    env = clean_env(OPENAI_API_KEY=KEY, HIERA_CACHE_DIR=str(cache))
    script = [Answer(plan_answer("pytorch", "one C++ loop")), Answer(python_answer(BROKEN)),
              Answer(python_answer(GOOD))]
    with ChatServer(script) as server:
        run = hiera("optimize", "tiny.py", "--device", "cpu", "--budget", "1", "--model", "scripted",
                    "--base-url", server.url, "--json", cwd=folder, env=env)
    assert run.returncode in (0, 1), run.stderr
    result = json.loads(run.stdout)
    return SimpleNamespace(folder=folder, env=env, result=result, requests=server.requests,
                           run_folder=folder / ".hiera" / "runs" / result["run"],
                           candidates={c["name"]: c for c in result["candidates"]})


@pytest.mark.slow
def test_a_cpp_extension_candidate_builds_verifies_and_is_timed_on_cpu(cpu_run):
    good = cpu_run.candidates["llm.s02"]
    assert good["status"] == "verified", good
    assert good["space"] == "custom_cuda"  # it calls HIERA's extension helper: a custom-kernel candidate
    assert good["ms"] > 0 and good["baseline_ms"] > 0 and good["speedup"] > 0
    samples = [e for e in cpu_run.result["llm"]["exchanges"] if e["sample"]]
    assert [e["status"] for e in samples] == ["rejected", "verified"]
    # The helper went in above the module, with what it needs and nothing else (no cuda.core).
    code = (cpu_run.run_folder / "candidates" / "llm.s02.py").read_text()
    assert code.index("def _hiera_extension(") < code.index("class ModelNew") and code.endswith(GOOD + "\n")
    assert "cuda.core" not in code and "def _hiera_kernel(" not in code
    assert len(built_extensions(Path(cpu_run.env["HIERA_CACHE_DIR"]))) == 1  # the broken one left no library


@pytest.mark.slow
def test_a_compile_error_comes_back_on_the_line_of_the_module(cpu_run):
    broken = cpu_run.candidates["llm.s01"]
    assert broken["status"] == "rejected" and broken["failed_check"]["check"] == "compile", broken
    sample = next(e for e in cpu_run.result["llm"]["exchanges"] if e["sample"] == 1)
    assert sample["status"] == "rejected"
    assert sample["reason"].startswith("compile: the extension 'relu_scale_add' did not build (load_inline): line ")
    line = module_line(BROKEN, BROKEN_LINE)
    feedback = cpu_run.requests[2].last_user
    assert (f"It was rejected: check 'compile' failed: the extension 'relu_scale_add' did not build (load_inline): "
            f"line {line} of your module: error:") in feedback
    assert "offset" in feedback and f"{line:4d} | {BROKEN_LINE}" in feedback  # the line, quoted
    assert "ninja" not in feedback and "-isystem" not in feedback  # trimmed to the compiler's error


@pytest.mark.slow
def test_a_second_process_reuses_the_build(cpu_run, cache):
    (folder,) = built_extensions(cache)
    before = build_state(folder)
    # One compile and one link, though the build ran in one process and the evaluation loaded it in another.
    assert [entry.split("\t")[3] for entry in before["log"].splitlines()[1:]] == ["main.o", f"{folder.name}.so"]
    candidate = cpu_run.run_folder / "candidates" / "llm.s02.py"
    run = hiera("verify", "tiny.py", str(candidate), "--device", "cpu", "--json", cwd=cpu_run.folder,
                env=cpu_run.env)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["passed"] and {"static", "reference-ops", "values"} <= {c["name"] for c in report["checks"]}
    assert build_state(folder) == before  # nothing compiled or linked again

    # A plain import, with cuda.core made unimportable: an extension-only proposal needs torch alone.
    script = textwrap.dedent(f"""
        import importlib.util, sys, time
        sys.modules["cuda"] = None  # `import cuda.core` now fails
        spec = importlib.util.spec_from_file_location("proposal", {str(candidate)!r})
        module = importlib.util.module_from_spec(spec)
        started = time.perf_counter()
        spec.loader.exec_module(module)
        seconds = time.perf_counter() - started
        import torch
        x = torch.randn(33, 7)
        assert torch.allclose(module.ModelNew(2.0)(x), torch.relu(x) * 2.0 + 1.0)
        print(seconds)
    """)
    env = {**cpu_run.env, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                            cwd=candidate.parent, timeout=300)
    assert loaded.returncode == 0, loaded.stderr
    assert build_state(folder) == before
    print(f"cache hit: candidate module imported in {float(loaded.stdout.split()[-1]):.3f} s (torch included)")


def test_extension_answers_get_the_helper_and_skip_nvrtc(tiny_spec, record):
    """Refinement without builds: an answer calling `_hiera_extension` (in a pytorch plan) becomes a
    custom-kernel candidate with the helper inlined, and its CUDA source (host code NVRTC could not
    compile) is not sent to NVRTC."""
    host_code = ('CUDA_SRC = r"""\n#include <ATen/cuda/CUDAContext.h>\n__global__ void k(float* y) { y[0] = 1.f; }\n'
                 'torch::Tensor launch(torch::Tensor x) { return x; }\n"""\n\n')
    answer = GOOD.replace("_ext = _hiera_extension(\"relu_scale_add\", CPP_SRC,",
                          host_code + "_ext = _hiera_extension(\"relu_scale_add\", CPP_SRC, cuda_sources=CUDA_SRC,")
    assert "cuda_sources=CUDA_SRC" in answer
    evaluate = FakeEvaluator()  # verifies code that adds 1.0
    with ChatServer([Answer(python_answer(answer))]) as server:
        refiner_for(server, tiny_spec, record, evaluate, samples=1).run()
    assert "def _hiera_extension(name, cpp_sources, cuda_sources=None" not in server.requests[0].last_user  # CPU run
    candidate = evaluate.calls[-1]
    assert candidate["name"] == "llm.s01" and candidate["space"] == "custom_cuda" and candidate["cuda_sources"] == []
    assert candidate["code"].index("def _hiera_extension(") < candidate["code"].index("class ModelNew")
    assert "cuda.core" not in candidate["code"]
    assert [e.status for e in record.samples()] == ["verified"]  # not stopped by an NVRTC compile


def test_the_custom_cuda_prompt_describes_both_helpers():
    from hiera_core.loop.refine_kernels import runtime_note

    note = runtime_note()
    assert "def _hiera_launch(kernel, device, grid, block, shared_bytes, *args):" in note
    assert ("def _hiera_extension(name, cpp_sources, cuda_sources=None, functions=None, extra_cflags=None, "
            "extra_cuda_cflags=None):") in note
    assert note.index("NVRTC kernels, the first choice") < note.index("A torch C++/CUDA extension, when")
    assert "about 30 s" in note and "getCurrentCUDABlasHandle" in note


# ---- on a GPU ------------------------------------------------------------------------------------
GPU_TASK = TINY_TASK.replace("torch.randn(64, 128)", "torch.randn(4096, 4096)")
CUDA_EXTENSION = textwrap.dedent('''
    import torch
    import torch.nn as nn

    CPP_SRC = "torch::Tensor relu_scale_add(torch::Tensor x, double scale);"

    CUDA_SRC = r"""
    #include <c10/cuda/CUDAStream.h>

    __global__ void relu_scale_add_kernel(const float* __restrict__ x, float* __restrict__ y, float scale,
                                          long long n) {
        long long stride = (long long)gridDim.x * blockDim.x;
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) {
            float v = x[i];
            y[i] = (v < 0.0f ? 0.0f : v) * scale + 1.0f;
        }
    }

    torch::Tensor relu_scale_add(torch::Tensor x, double scale) {
        TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "relu_scale_add: float32 CUDA tensor expected");
        auto input = x.contiguous();
        auto out = torch::empty_like(input);
        long long n = input.numel();
        if (n == 0) return out;
        const int threads = 256;
        long long blocks = (n + threads - 1) / threads;
        if (blocks > 65535LL * 8) blocks = 65535LL * 8;
        relu_scale_add_kernel<<<(unsigned int)blocks, threads, 0, c10::cuda::getCurrentCUDAStream()>>>(
            input.data_ptr<float>(), out.data_ptr<float>(), (float)scale, n);
        return out;
    }
    """

    _ext = _hiera_extension("relu_scale_add", CPP_SRC, cuda_sources=CUDA_SRC, functions=["relu_scale_add"],
                            extra_cuda_cflags=["-O3"])
''' + MODEL_NEW).strip()


@pytest.mark.gpu
@pytest.mark.slow
def test_a_cuda_extension_candidate_on_the_gpu(tmp_path):
    from torch.utils.cpp_extension import CUDA_HOME, is_ninja_available

    if CUDA_HOME is None or not is_ninja_available():
        pytest.skip("torch.utils.cpp_extension needs " + ("a CUDA toolkit (nvcc)" if CUDA_HOME is None else "ninja")
                    + " to build extensions, and finds none on this machine")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'gpu'\n\n[tool.hiera]\nconcurrency = 1\n")
    (tmp_path / "fused.py").write_text(GPU_TASK)
    cache = tmp_path / "cache"  # a fresh cache: this run builds with nvcc
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HIERA_", "OPENAI_"))}
    env["HIERA_CACHE_DIR"] = str(cache)
    script = [Answer(plan_answer("custom_cuda", "one fused elementwise kernel in an extension")),
              Answer(python_answer(CUDA_EXTENSION))]
    with ChatServer(script) as server:
        run = hiera("optimize", "fused.py", "--device", "cuda", "--budget", "1", "--samples", "1",
                    "--model", "scripted", "--base-url", server.url, "--json", cwd=tmp_path, env=env)
    assert run.returncode in (0, 1), run.stderr
    result = json.loads(run.stdout)
    extension = next(c for c in result["candidates"] if c["name"] == "llm.s01")
    print(json.dumps(extension, indent=1)[:3000])
    assert "_hiera_extension(name, cpp_sources" in server.requests[1].last_user  # the prompt offered it
    assert extension["status"] == "verified", extension
    assert extension["space"] == "custom_cuda" and extension["speedup"] > 0
    (folder,) = built_extensions(cache)
    before = build_state(folder)
    assert {"cuda.cuda.o", "main.o"} <= set(before)

    candidate = tmp_path / ".hiera" / "runs" / result["run"] / "candidates" / "llm.s01.py"
    verified = hiera("verify", "fused.py", str(candidate), "--device", "cuda", "--json", cwd=tmp_path, env=env)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert json.loads(verified.stdout)["passed"]
    assert build_state(folder) == before  # the second process found the build

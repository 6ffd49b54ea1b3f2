"""`hiera verify` on candidates that are broken rather than cheating: each gives one clear failed
check and exit 1 (the candidate's fault) or exit 2 (a usage error), and the CLI itself survives
a candidate that segfaults, hangs or exhausts memory, or whose CUDA kernel faults or never ends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hiera_core.propose.proposal_file import assemble_body

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
TASK = HERE / "tasks" / "pointwise.py"

GOOD = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, features, scale):
        super().__init__()
        self.scale = scale
        self.bias = nn.Parameter(torch.zeros(features))

    def forward(self, x):
        return F.gelu(x * self.scale + self.bias) + 0.5 * x
"""
FORWARD = "return F.gelu(x * self.scale + self.bias) + 0.5 * x"

# name -> (candidate source, extra CLI arguments, exit code, failed check or stderr text)
CASES = {
    "passes": (GOOD, [], 0, None),
    "does_not_import": ("import no_such_module_anywhere\n" + GOOD, [], 1, "load"),
    "no_model_new": (GOOD.replace("class ModelNew", "class Fast"), [], 1, "load"),
    "other_constructor": (GOOD.replace("def __init__(self, features, scale)", "def __init__(self)")
                          .replace("self.scale = scale", "self.scale = 1.5")
                          .replace("torch.zeros(features)", "torch.zeros(256)"), [], 1, "construct"),
    "wrong_return_type": (GOOD.replace(FORWARD, "return (F.gelu(x * self.scale + self.bias) + 0.5 * x).tolist()"),
                          [], 1, "output-type"),
    "segfaults": (GOOD.replace(FORWARD, "import ctypes\n        return ctypes.string_at(0)"), [], 1, "crash"),
    "hangs": (GOOD.replace(FORWARD, "while True:\n            pass"), ["--timeout", "20"], 1, "timeout"),
    "exhausts_memory": (GOOD.replace(FORWARD, "return x + torch.empty(2**42).sum()"), [], 1, "oom"),
    "sanitize_without_gpu": (GOOD, ["--sanitize"], 2, "--sanitize runs compute-sanitizer on a CUDA GPU"),
}


def hiera_verify(folder: Path, source: str, *extra: str, device: str = "cpu",
                 space: str = "pytorch") -> subprocess.CompletedProcess:
    folder.mkdir()
    (folder / "pyproject.toml").write_text("[project]\nname = 'scratch'\n")
    (folder / "reference.py").write_text(TASK.read_text())
    (folder / "candidate.py").write_text(source)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "hiera_core.cli.main", "verify", "reference.py", "candidate.py",
                           "--device", device, "--space", space, "--json", *extra], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=1200)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bad")
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = pool.map(lambda name: hiera_verify(folder / name, CASES[name][0], *CASES[name][1]), CASES)
        return dict(zip(CASES, runs))


@pytest.mark.parametrize("name", CASES)
def test_bad_candidate_gives_one_clear_failure(runs, name):
    _, _, code, expected = CASES[name]
    run = runs[name]
    assert run.returncode == code, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    if code == 2:
        assert expected in run.stdout + run.stderr
        return
    report = json.loads(run.stdout)
    failed = [check for check in report["checks"] if not check["passed"]]
    if expected is None:
        assert report["passed"] and not failed
        return
    assert not report["passed"] and failed[0]["name"] == expected, failed
    assert failed[0]["message"]


@pytest.mark.gpu
def test_sanitize_runs_memcheck_and_racecheck_on_the_gpu(tmp_path):
    run = hiera_verify(tmp_path / "sanitize", GOOD, "--sanitize", device="cuda")
    assert run.returncode == 0, run.stdout + run.stderr
    checks = {check["name"]: check for check in json.loads(run.stdout)["checks"]}
    assert checks["memcheck"]["passed"] and checks["racecheck"]["passed"]


def kernel_candidate(broken: tuple[str, str]) -> str:
    """The corpus's legitimate NVRTC kernel (controls/cuda_pointwise_kernel.py) after its reference,
    as HIERA's own proposals are laid out, with `broken` = (old, new) replaced in its CUDA source."""
    control = HERE / "controls" / "cuda_pointwise_kernel.py"
    code = (HERE / "nvrtc_helper.py").read_text() + "\n\n" + control.read_text().replace(*broken)
    return assemble_body(TASK.read_text(), "broken_kernel", "custom_cuda", code)


# name -> ((old, new) in the kernel's source, extra CLI arguments, failed check, text of its message)
KERNEL_CASES = {
    # A wild write far past the output (a null pointer would not do: the compiler may delete a store
    # it can prove undefined). The fault surfaces at the synchronisation after forward.
    "kernel_faults": (("out[i] =", "out[i + (1LL << 40)] ="), [], "runs", "illegal memory access"),
    # Spinning on the clock, which the compiler cannot see through (it deleted a volatile-flag loop).
    "kernel_hangs": (("float xi = x[i];", "long long t0 = clock64(); while (clock64() - t0 >= 0) {} float xi = x[i];"),
                     ["--timeout", "60"], "timeout", "did not finish within 60 s"),
}


@pytest.mark.gpu
@pytest.mark.parametrize("name", KERNEL_CASES)
def test_a_kernel_that_faults_or_hangs_is_rejected_and_the_caller_lives(tmp_path, name):
    broken, extra, check, text = KERNEL_CASES[name]
    run = hiera_verify(tmp_path / name, kernel_candidate(broken), *extra, device="cuda", space="custom_cuda")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    failed = [check for check in json.loads(run.stdout)["checks"] if not check["passed"]]
    assert failed and failed[0]["name"] == check and text in failed[0]["message"], failed
    # The GPU is usable again for the next process (the faulted or hung context died with its worker).
    after = hiera_verify(tmp_path / f"{name}_then_good", GOOD, device="cuda")
    assert after.returncode == 0, after.stdout + after.stderr

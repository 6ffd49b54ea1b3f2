"""Nsight Compute feedback (hiera_core.profile.ncu) without a GPU: a fake `ncu` on PATH prints a CSV in
the `--csv --page details --print-units base` layout NVIDIA documents (tests/data/ncu/details.csv,
written after that layout with H200-like figures, not recorded on a GPU), fails, hangs, or is absent."""

import json
import os
import stat
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers.engine import SIMPLE_TASK, write_task

from hiera_core.loop.evaluate import hardware_counters
from hiera_core.loop.run_result import CandidateOutcome
from hiera_core.profile.ncu import (
    NOT_FOUND,
    WARM_UP_CALLS,
    main,
    op_ncu,
    parse_details_csv,
)
from hiera_core.store import Store
from hiera_core.worker.requests import NcuRequest

DETAILS = Path(__file__).resolve().parents[1] / "data" / "ncu" / "details.csv"
GEMM = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"


def fake_ncu(folder: Path, body: str) -> Path:
    """An executable `ncu` in `folder` that records its arguments in args.json, then runs `body` (sh)."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "ncu"
    script.write_text("#!/bin/sh\n"
                      f"python3 -c 'import json, sys; json.dump(sys.argv[1:], open(\"{folder}/args.json\", \"w\"))' \"$@\"\n"
                      + body + "\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def verified(kernels_per_call: float | None = 4.0) -> CandidateOutcome:
    return CandidateOutcome(name="llm.s01", space="pytorch", strategy="llm: fuse", status="verified", reason="",
                            speedup=1.4, ms=2.0, baseline_ms=2.8, timing={"kernels_per_call": kernels_per_call})


def session_for(tmp_path: Path, device: str = "cuda"):
    """What hardware_counters uses of a Session, with its worker op run in this process."""
    run = Store(tmp_path).new_run("optimize")
    requests = []

    def worker(kind, doing, log_name, *, timeout_s, **arguments):
        request = kind(address="tiny.py::Model", device=device, **arguments)
        requests.append({**request.to_dict(), "timeout_s": timeout_s})
        return op_ncu(request)

    return SimpleNamespace(settings=SimpleNamespace(device=device), run=run, worker=worker, requests=requests,
                           events=(events := []), emit=events.append)


def test_the_details_csv_becomes_kernels_longest_first():
    kernels = parse_details_csv(DETAILS.read_text())
    assert kernels[0].name == GEMM and len(kernels) == 3
    gemm, elementwise, softmax = kernels
    assert (gemm.duration_ns, gemm.sm_throughput_pct, gemm.memory_throughput_pct) == (1871200.0, 86.91, 41.22)
    assert (gemm.achieved_occupancy_pct, gemm.theoretical_occupancy_pct, gemm.registers) == (18.44, 18.75, 168.0)
    # Two launches of one kernel: durations summed, the other figures those of its longer launch; the
    # memory-workload section's "Memory Throughput" (bytes/s) does not overwrite the speed-of-light %.
    assert elementwise.launches == 2 and elementwise.duration_ns == 29856.0 + 30144.0
    assert (elementwise.memory_throughput_pct, elementwise.l2_hit_pct) == (91.02, 33.38)
    assert softmax.name.startswith("void at::native::(anonymous namespace)::cunn_SoftMaxForward")
    assert "x2: 60 us; SM 11% / memory 91% of peak; DRAM 91%; L2 hit 33%; occupancy 88% achieved of 100% " \
           "theoretical; 16 registers/thread" in elementwise.line()


def test_no_csv_no_kernels():
    assert parse_details_csv("==PROF== Connected to process 1\n==ERROR== something\n") == []


def test_a_fake_ncu_on_path_profiles_one_call_with_the_documented_flags(tmp_path):
    ncu = fake_ncu(tmp_path / "bin", f"cat {DETAILS}")
    report = op_ncu(NcuRequest(address="tiny.py::Model", device="cuda", candidate_path="c.py", ncu=str(ncu),
                               kernels_per_call=3.6))
    assert report.kernels[0].name == GEMM and report.note == ""
    args = json.loads((tmp_path / "bin" / "args.json").read_text())
    flags = " ".join(args)
    assert "--csv --page details --print-units base" in flags
    assert ("--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats"
            in flags)
    assert "--profile-from-start off --launch-count 4 --clock-control none" in flags  # the call's 3.6 kernels
    assert args[-4:-1] == [sys.executable, "-m", "hiera_core.profile.ncu"]  # the target: one call of the candidate


def test_a_call_with_more_kernels_than_profiled_says_so(tmp_path):
    ncu = fake_ncu(tmp_path / "bin", f"cat {DETAILS}")
    report = op_ncu(NcuRequest(address="t.py::M", device="cuda", candidate_path="c.py", ncu=str(ncu),
                               kernels_per_call=90.0))
    assert "--launch-count 40" in " ".join(json.loads((tmp_path / "bin" / "args.json").read_text()))
    assert report.note == "(the first 40 of about 90 kernel launches of the call were profiled)"


def test_ncu_without_counter_access_is_a_one_line_note(tmp_path):
    ncu = fake_ncu(tmp_path / "bin", "echo '==PROF== Connected to process 7'\n"
                                     "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
                                     "NVIDIA GPU Performance Counters on the target device 0.'\nexit 1")
    report = op_ncu(NcuRequest(address="t.py::M", device="cuda", candidate_path="c.py", ncu=str(ncu)))
    assert report.kernels == []
    assert report.text() == ("Nsight Compute (ncu) gave no kernel figures (exit code 1): ==ERROR== ERR_NVGPUCTRPERM - "
                             "The user does not have permission to access NVIDIA GPU Performance Counters on the "
                             "target device 0.")


def test_ncu_that_hangs_is_stopped_at_its_time_limit(tmp_path):
    ncu = fake_ncu(tmp_path / "bin", "sleep 60")
    report = op_ncu(NcuRequest(address="t.py::M", device="cuda", candidate_path="c.py", ncu=str(ncu),
                               ncu_timeout_s=1))
    assert report.text() == "Nsight Compute (ncu) did not finish within 1 s: no hardware counters"


def test_a_cuda_run_gets_the_figures_in_its_profile_text_and_the_record(tmp_path, monkeypatch):
    fake_ncu(tmp_path / "bin", f"cat {DETAILS}")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    session = session_for(tmp_path)
    text = hardware_counters(session, "llm.s01", verified(), deadline=float("inf"))
    assert text.splitlines()[0] == "Nsight Compute, one call (top 3 of 3 kernels by duration):"
    assert "SM 87% / memory 41% of peak" in text.splitlines()[1]
    assert session.requests[0]["op"] == "ncu" and session.requests[0]["kernels_per_call"] == 4.0
    assert session.requests[0]["candidate_path"] == str(session.run.path / "candidates" / "llm.s01.py")
    assert [e.message for e in session.events] == [
        "llm.s01: reading its kernels' hardware counters with Nsight Compute (at most 120 s)"]
    recorded = json.loads((session.run.path / "candidates" / "llm.s01.ncu.json").read_text())
    assert recorded["kernels"][0]["registers"] == 168.0


def test_without_ncu_a_cuda_run_says_so_and_a_cpu_run_says_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    for variable in ("CUDA_HOME", "CUDA_PATH"):
        monkeypatch.delenv(variable, raising=False)
    if Path("/usr/local/cuda/bin/ncu").exists():
        pytest.skip("this machine has ncu under /usr/local/cuda")
    session = session_for(tmp_path)
    assert hardware_counters(session, "llm.s01", verified(), deadline=float("inf")) == NOT_FOUND
    assert NOT_FOUND == "Nsight Compute (ncu) not found: no hardware counters" and session.requests == []
    assert hardware_counters(session_for(tmp_path, "cpu"), "llm.s01", verified(), deadline=float("inf")) == ""


CANDIDATE = """
import torch
import torch.nn as nn

CALLS = []


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        CALLS.append(tuple(x.shape))
        return torch.clamp(x, min=0) * self.scale + 1.0
"""


def test_the_target_profiles_exactly_one_call_after_its_warm_up(tmp_path, monkeypatch):
    import torch

    task = write_task(tmp_path, "tiny.py", SIMPLE_TASK)
    (tmp_path / "candidate.py").write_text(CANDIDATE)
    request = tmp_path / "target.json"
    request.write_text(json.dumps(NcuRequest(address=f"{task}::Model", device="cpu", ncu="ncu",
                                             candidate_path=str(tmp_path / "candidate.py")).to_dict()))
    seen = []  # calls made when the profiled range opened and closed (cudaProfilerStart/Stop)

    def calls():
        return len(sys.modules["hiera_ncu_candidate"].CALLS)

    monkeypatch.setattr(torch.cuda, "synchronize", lambda: None)
    monkeypatch.setattr(torch.cuda.profiler, "start", lambda: seen.append(("start", calls())))
    monkeypatch.setattr(torch.cuda.profiler, "stop", lambda: seen.append(("stop", calls())))
    assert main([str(request)]) == 0
    assert seen == [("start", WARM_UP_CALLS), ("stop", WARM_UP_CALLS + 1)]
    assert sys.modules["hiera_ncu_candidate"].CALLS[-1] == (64, 128)  # the task's own inputs

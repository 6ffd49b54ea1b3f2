"""Nsight Compute's hardware counters for one call of a verified candidate: refinement feedback.

After a model candidate verified and was timed on a CUDA device, the worker op `ncu` runs

    ncu --csv --page details --print-units base --section SpeedOfLight --section MemoryWorkloadAnalysis
        --section Occupancy --section LaunchStats --profile-from-start off --launch-count K
        --clock-control none  PYTHON -m hiera_core.profile.ncu REQUEST.json

The target (`main` below) builds the candidate as the judge's runner does, warms it up, and brackets
one call with cudaProfilerStart/Stop, so that only that call's kernels are profiled (K: the kernels
per call the timing saw, at most MAX_LAUNCHES). `--clock-control none` leaves the clocks as the
timing had them. The CSV becomes an `NcuReport` (hiera_core.profile.ncu_report): per kernel (its
launches in the call together), duration, SM and memory throughput as % of peak, achieved and
theoretical occupancy, registers per thread, L2 hit rate, DRAM throughput; the refinement prompt
shows the top kernels by duration.

Bounded: the worker op runs under a time limit, and anything that goes wrong (ncu missing, counters
not permitted, a timeout, a CSV without kernels) is a one-line note in the report, never a failed run.
Importing this module does not import torch; the target does.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import subprocess
import sys

from hiera_core.cuda import find_tool
from hiera_core.profile.ncu_report import KernelCounters, NcuReport
from hiera_core.worker.requests import NcuRequest

NCU_SECTIONS = ("SpeedOfLight", "MemoryWorkloadAnalysis", "Occupancy", "LaunchStats")
NCU_TIMEOUT_S = 120.0  # the whole op: a Python start, warm-up, and replays of each kernel per section
MAX_LAUNCHES = 40  # kernels profiled in the call (each is replayed once per counter pass)
WARM_UP_CALLS = 3  # compiles, autotuning and the allocator's first growth happen outside the profiled call
NOT_FOUND = "Nsight Compute (ncu) not found: no hardware counters"
# (section, metric) in ncu's details page -> KernelCounters field. "Memory Throughput" is % of peak in
# the speed-of-light section and bytes per second in the memory-workload one: keyed by section.
METRICS = {
    ("GPU Speed Of Light Throughput", "Duration"): "duration_ns",
    ("GPU Speed Of Light Throughput", "Compute (SM) Throughput"): "sm_throughput_pct",
    ("GPU Speed Of Light Throughput", "Memory Throughput"): "memory_throughput_pct",
    ("GPU Speed Of Light Throughput", "DRAM Throughput"): "dram_throughput_pct",
    ("Memory Workload Analysis", "L2 Hit Rate"): "l2_hit_pct",
    ("Occupancy", "Achieved Occupancy"): "achieved_occupancy_pct",
    ("Occupancy", "Theoretical Occupancy"): "theoretical_occupancy_pct",
    ("Launch Statistics", "Registers Per Thread"): "registers",
}
TIME_UNITS_NS = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6,
                 "second": 1e9, "s": 1e9}


def find_ncu() -> str | None:
    """ncu on PATH, else under $CUDA_HOME/bin (or CUDA_PATH, /usr/local/cuda); None when absent."""
    return find_tool("ncu")


def launch_count(kernels_per_call: float | None) -> int:
    """Kernels to profile: the call's, as the timing counted them, at most MAX_LAUNCHES."""
    if not kernels_per_call or kernels_per_call <= 0:
        return MAX_LAUNCHES
    return max(1, min(MAX_LAUNCHES, math.ceil(kernels_per_call)))


def ncu_command(ncu: str, launches: int, target: list[str]) -> list[str]:
    sections = [arg for section in NCU_SECTIONS for arg in ("--section", section)]
    return [ncu, "--csv", "--page", "details", "--print-units", "base", *sections, "--profile-from-start", "off",
            "--launch-count", str(launches), "--clock-control", "none", *target]


# ---- reading the CSV ------------------------------------------------------------------------------

def parse_details_csv(text: str) -> list[KernelCounters]:
    """Kernels of ncu's `--csv --page details` output (one row per launch, section and metric; ncu's own
    ==PROF== lines and the program's output around it are skipped), longest total duration first."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        return []
    rows = csv.DictReader(io.StringIO("\n".join(line for line in lines[start:] if line.startswith('"'))))
    launches: dict[str, dict[str, object]] = {}  # launch ID -> name and figures
    for row in rows:
        key = METRICS.get((row.get("Section Name", ""), row.get("Metric Name", "")))
        launch = launches.setdefault(row.get("ID", ""), {"name": row.get("Kernel Name", "?")})
        value = _number(row.get("Metric Value", ""))
        if key is None or value is None:
            continue
        if key == "duration_ns":
            value *= TIME_UNITS_NS.get(row.get("Metric Unit", "").strip(), 1.0)
        launch[key] = value
    kernels: dict[str, KernelCounters] = {}
    longest: dict[str, float] = {}
    for figures in launches.values():
        name = str(figures.pop("name"))
        kernel = kernels.setdefault(name, KernelCounters(name))
        kernel.launches += 1
        duration = figures.get("duration_ns")
        if duration is not None:
            kernel.duration_ns = (kernel.duration_ns or 0.0) + float(duration)
        if duration is None or float(duration) >= longest.get(name, -1.0):
            longest[name] = float(duration) if duration is not None else -1.0
            for key, value in figures.items():
                if key != "duration_ns":
                    setattr(kernel, key, float(value))
    return sorted(kernels.values(), key=lambda k: -(k.duration_ns or 0.0))


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "").strip())  # ncu may group thousands: "1,234.5"
    except ValueError:
        return None  # "n/a", empty


def error_line(output: str) -> str:
    """ncu's first ==ERROR== line (or the output's last line) for a one-line note."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    found = next((line for line in lines if "==ERROR==" in line), lines[-1] if lines else "no output")
    return found[:300]


# ---- the worker op and its target -----------------------------------------------------------------

def op_ncu(request: NcuRequest) -> NcuReport:
    """The worker op: ncu around this module's target, its CSV read into an NcuReport."""
    import tempfile

    from hiera_core.worker.isolate import kill_group

    timeout_s = float(request.ncu_timeout_s or NCU_TIMEOUT_S)
    with tempfile.TemporaryDirectory(prefix="hiera-ncu-") as folder:
        target_request = os.path.join(folder, "target.json")
        with open(target_request, "w", encoding="utf-8") as handle:
            json.dump(request.to_dict(), handle)  # the target reads the same record
        launches = launch_count(request.kernels_per_call)
        command = ncu_command(request.ncu, launches, [sys.executable, "-m", "hiera_core.profile.ncu",
                                                         target_request])
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            output, _ = process.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return NcuReport(note=f"Nsight Compute (ncu) did not finish within {timeout_s:.0f} s: no hardware "
                                  f"counters")
        finally:
            kill_group(process)
    print(output[-20000:])  # into the worker's log
    kernels = parse_details_csv(output)
    if not kernels:
        return NcuReport(note=f"Nsight Compute (ncu) gave no kernel figures (exit code {process.returncode}): "
                              f"{error_line(output)}")
    per_call = request.kernels_per_call
    note = (f"(the first {launches} of about {per_call:.0f} kernel launches of the call were profiled)"
            if per_call and per_call > launches else "")
    return NcuReport(kernels, note)


def main(argv: list[str]) -> int:
    """ncu's target: one profiled call of the candidate, built as the judge's runner builds it, with
    the parameters moved off their initial values as the judge's timing has them."""
    import torch

    from hiera_core.task.load import load_task
    from hiera_core.verify.perturb import perturbed_state
    from hiera_core.worker.runner import import_candidate

    with open(argv[0], encoding="utf-8") as handle:
        request = NcuRequest.from_dict(json.load(handle))
    device = request.device
    task = load_task(request.address)
    reference = task.build_model(device, seed=0)
    torch.manual_seed(0)
    with torch.device(device):
        candidate = import_candidate(request.candidate_path, "hiera_ncu_candidate").ModelNew(*task.make_init())
    candidate = candidate.to(device).eval()
    candidate.load_state_dict(perturbed_state(reference.state_dict(), 0), strict=False)
    inputs = task.make_inputs(device, seed=0)
    with torch.no_grad():
        for _ in range(WARM_UP_CALLS):
            candidate(*inputs)
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        candidate(*inputs)
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

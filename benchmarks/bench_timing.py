"""How stable HIERA's timing is from one process to the next: each example, eager and
torch.compile (default mode), timed by `hiera_core.profile.timing.time_module` in several fresh processes,
as `hiera optimize`'s workers and `hiera bench` time them. Prints, per process, the figure and its
parts (GPU time from events, host time back to back, the host's queueing time, which one bounds
the call), then per module the spread across processes (max / min) of the GPU time, of the figure,
and, for torch.compile, of its speedup over eager timed in the same process.

    python benchmarks/bench_timing.py                         # 3 examples x 3 processes, cuda when present
    python benchmarks/bench_timing.py --processes 5 softmax layernorm
    python benchmarks/bench_timing.py --pin-cpu 3             # each process on CPU core 3 only

Why it exists: on the H200 (2026-11-29) torch.compile of elementwise_chain timed 0.041 ms in one
process and 0.102 ms in another under the earlier method (docs/timing.md). Target: GPU time spread
at most 1.15x for every module. Host time follows the host's speed in that process (the H200
machine, 2026-11-29: up to 1.67x between processes, benchmarks/results/h200-2026-11-29-s4), so
host-bound figures are reported with their spread, and `--pin-cpu` tests whether one core steadies them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_EXAMPLES = ("elementwise_chain", "softmax", "launch_bound")
SPREAD_TARGET = 1.15


def time_in_this_process(name: str, device: str, pin_cpu: int | None) -> dict:
    """{"eager": timing, "compile": timing or None} for examples/NAME.py, in this process."""
    if pin_cpu is not None:  # before torch starts its threads, so they inherit the one core
        os.sched_setaffinity(0, {pin_cpu})
    import torch

    from hiera_core.profile.timing import time_module
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task

    prepared = prepare(load_task(str(ROOT / "examples" / f"{name}.py")), device, measure=False)
    result = {"eager": time_module(prepared.model, prepared.inputs, device, profile=False).to_dict()}
    compiled = torch.compile(prepared.model)
    with torch.no_grad():
        compiled(*prepared.inputs)  # compiles here, outside the timing
    result["compile"] = time_module(compiled, prepared.inputs, device, profile=False).to_dict()
    return result


def describe(timing: dict) -> str:
    if timing["device"] != "cuda":
        return f"{timing['median_ms']:9.4f} ms (cpu wall clock)"
    return (f"{timing['median_ms']:9.4f} ms = {timing['bound']:4} | gpu {timing['gpu_median_ms']:8.4f} "
            f"host {timing['host_median_ms']:8.4f} queue {timing['host_queue_ms']:8.4f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*", default=list(DEFAULT_EXAMPLES))
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--device", choices=("cuda", "cpu"))
    parser.add_argument("--pin-cpu", type=int, metavar="CORE", help="run each timing process on this CPU core only")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.child:  # one fresh process: time one example, print JSON
        print(json.dumps(time_in_this_process(args.examples[0], args.device, args.pin_cpu)))
        return 0
    if args.device is None:
        import torch

        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    pinned = f", each process on CPU core {args.pin_cpu}" if args.pin_cpu is not None else ""
    print(f"timing in {args.processes} fresh processes per example, device {args.device}{pinned}; target: GPU "
          f"time spread <= {SPREAD_TARGET}x")
    worst = 0.0
    for name in args.examples:
        runs: list[dict] = []
        for number in range(args.processes):
            command = [sys.executable, __file__, name, "--device", args.device, "--child"]
            if args.pin_cpu is not None:
                command += ["--pin-cpu", str(args.pin_cpu)]
            child = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
            if child.returncode != 0:
                print(f"{name} process {number + 1}: failed: {child.stderr.strip().splitlines()[-1:]}")
                continue
            runs.append(json.loads(child.stdout.strip().splitlines()[-1]))
            for label in ("eager", "compile"):
                print(f"{name:18} {label:7} process {number + 1}: {describe(runs[-1][label])}")
        if not runs:
            continue
        for label in ("eager", "compile"):
            figures = [run[label]["median_ms"] for run in runs]
            line = f"{name:18} {label:7} spread across processes: figure {spread(figures):.3f}x"
            if args.device == "cuda":
                gpu = spread([run[label]["gpu_median_ms"] for run in runs])
                worst = max(worst, gpu)
                line += f", GPU time {gpu:.3f}x"
            else:
                worst = max(worst, spread(figures))
            if label == "compile":
                speedups = [run["eager"]["median_ms"] / run[label]["median_ms"] for run in runs]
                line += f", speedup over eager {spread(speedups):.3f}x"
            print(line)
    measured = "GPU time" if args.device == "cuda" else "figure"
    print(f"worst {measured} spread {worst:.3f}x: {'OK' if worst <= SPREAD_TARGET else 'OVER TARGET'}")
    return 0


def spread(values: list[float]) -> float:
    return max(values) / min(values)


if __name__ == "__main__":
    sys.exit(main())

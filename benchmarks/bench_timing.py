"""How stable HIERA's timing is from one process to the next: each example, eager and
torch.compile (default mode), timed by `hiera_core.timing.time_module` in several fresh processes,
as `hiera optimize`'s workers and `hiera bench` time them. Prints, per process, the figure and its
parts (GPU time from events, host time back to back, the host's queueing time, which one bounds
the call), then per module the spread of the figure across processes (max / min).

    python benchmarks/bench_timing.py                         # 3 examples x 3 processes, cuda when present
    python benchmarks/bench_timing.py --processes 5 softmax layernorm

Why it exists: on the H200 (2026-11-29) torch.compile of elementwise_chain timed 0.041 ms in one
process and 0.102 ms in another under the earlier method (docs/timing.md). Target: spread at most
1.15x for every module.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_EXAMPLES = ("elementwise_chain", "softmax", "launch_bound")
SPREAD_TARGET = 1.15


def time_in_this_process(name: str, device: str) -> dict:
    """{"eager": timing, "compile": timing or None} for examples/NAME.py, in this process."""
    import torch

    from hiera_core.contract import prepare
    from hiera_core.task import load_task
    from hiera_core.timing import time_module

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
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.child:  # one fresh process: time one example, print JSON
        print(json.dumps(time_in_this_process(args.examples[0], args.device)))
        return 0
    if args.device is None:
        import torch

        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    print(f"timing in {args.processes} fresh processes per example, device {args.device}; target spread "
          f"<= {SPREAD_TARGET}x")
    worst = 0.0
    for name in args.examples:
        figures: dict[str, list[float]] = {"eager": [], "compile": []}
        for number in range(args.processes):
            child = subprocess.run([sys.executable, __file__, name, "--device", args.device, "--child"],
                                   capture_output=True, text=True, cwd=ROOT)
            if child.returncode != 0:
                print(f"{name} process {number + 1}: failed: {child.stderr.strip().splitlines()[-1:]}")
                continue
            timings = json.loads(child.stdout.strip().splitlines()[-1])
            for label in ("eager", "compile"):
                figures[label].append(timings[label]["median_ms"])
                print(f"{name:18} {label:7} process {number + 1}: {describe(timings[label])}")
        for label, values in figures.items():
            if values:
                spread = max(values) / min(values)
                worst = max(worst, spread)
                print(f"{name:18} {label:7} spread across processes {spread:.3f}x")
    print(f"worst spread {worst:.3f}x: {'OK' if worst <= SPREAD_TARGET else 'OVER TARGET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

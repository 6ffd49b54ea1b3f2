"""Which spaces a GPU plan offers within the budget, per task, planned here on the CPU (no GPU needed).

    python benchmarks/bench_plan_coverage.py TASK.py|FOLDER ... [--budget 4] [--gpu h200] [--timeout 150] [--meta]

Each task is prepared on the CPU without timing (as `hiera plan --device cpu` does) and planned as
for a GPU of the roofline `--gpu` (the spec's device set to cuda), in a process of its own; then the
worker's implement step (hiera_core.worker.ops.implement_candidates) generates up to `--budget`
candidates in plan order. Prints one line per task (workload class, the candidates within the budget,
the refinement compositions compiled glue would add, generator failures) and a summary: how many
tasks get a CUDA-library or custom-CUDA candidate within the budget. A figure of the plan, not of
speed: unmeasured, so no region's time share gates a custom candidate as a measured GPU spec would.

`--meta` traces each reference on the meta device instead of running it (as `hiera plan --meta`):
KernelBench's larger sizes plan in seconds instead of minutes on the CPU (a 3D transposed convolution
of the fork's level 2: 6.5 s, against more than 120 s run). What a meta trace cannot know, such as
the value of a `torch.tensor(c)` the forward makes, is left to PyTorch in the plan.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="task files or folders of them")
    parser.add_argument("--budget", type=int, default=4)
    parser.add_argument("--gpu", default="h200")
    parser.add_argument("--timeout", type=float, default=150.0, help="seconds per task")
    parser.add_argument("--meta", action="store_true", help="trace the references on the meta device, not run them")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a task, in this child process
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_plan_one(args.one, args.budget, args.gpu, args.meta)))
        return 0
    if not args.paths:
        parser.error("give task files or folders")
    tasks = [p for path in args.paths for p in (sorted(Path(path).rglob("*.py")) if Path(path).is_dir() else [Path(path)])]
    rows = []
    for task in tasks:
        try:
            done = subprocess.run([sys.executable, __file__, "--one", str(task), "--budget", str(args.budget),
                                   "--gpu", args.gpu, *(["--meta"] if args.meta else [])],
                                  capture_output=True, text=True, timeout=args.timeout)
            lines = done.stdout.strip().splitlines()
            row = json.loads(lines[-1]) if done.returncode == 0 and lines else \
                {"task": str(task), "error": f"exit status {done.returncode}: "
                                             + (done.stderr.strip().splitlines() or ["no output"])[-1][:300]}
        except subprocess.TimeoutExpired:
            row = {"task": str(task), "error": f"over {args.timeout:.0f} s"}
        rows.append(row)
        if "error" in row:
            print(f"{task}: FAILED: {row['error']}", flush=True)
        else:
            print(f"{task}: {row['workload_class']}: {', '.join(row['candidates']) or 'none'}"
                  + (f"; compiled glue: {', '.join(row['compositions'])}" if row["compositions"] else "")
                  + (f"; PROBLEMS: {'; '.join(row['problems'])}" if row["problems"] else ""), flush=True)
    planned = [r for r in rows if "error" not in r]
    beyond = [r for r in planned if any(not c.startswith("pytorch.") for c in r["candidates"])]
    print(f"\n{len(beyond)} of {len(planned)} tasks get a CUDA-library or custom-CUDA candidate within a budget of "
          f"{args.budget}; {sum(bool(r['compositions']) for r in planned)} a compiled-glue composition; "
          f"{sum(bool(r['problems']) for r in planned)} with generator or static-check problems; "
          f"{len(rows) - len(planned)} not planned")
    return 0


def _plan_one(path: str, budget: int, gpu: str, meta: bool) -> dict:
    from hiera_core.spaces.compose import compiled_glue
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task
    from hiera_core.verify.verdicts import static_verification
    from hiera_core.worker.ops import implement_candidates
    from hiera_core.worker.requests import PrepareRequest, PrepareResult

    task = load_task(path)
    prepared = prepare(task, "cpu", gpu=gpu, force_meta=meta, measure=False)
    prepared.spec.device = "cuda"
    result = PrepareResult(spec=prepared.spec)
    # The worker's own implement step, as a GPU run's prepare worker takes it.
    implement_candidates(PrepareRequest(address=path, device="cuda", implement=True, budget=budget), task, prepared,
                         result)
    problems = [f"{r['strategy']}: {r['reason']}" for r in result.rejected if r["reason"].startswith("generator failed")]
    compositions = []
    for candidate in result.candidates:
        composed = compiled_glue(candidate, dynamic=bool(prepared.spec.dynamic_dims))
        if composed is not None:
            compositions.append(composed.name)
        for written in [candidate] + ([composed] if composed else []):
            verdict = static_verification(written.code, written.space, task.class_name, 1)
            if not verdict.passed:
                problems.append(f"{written.name}: " + "; ".join(c.message for c in verdict.checks if not c.passed)[:200])
    return {"task": path, "workload_class": prepared.spec.workload_class,
            "candidates": [c.name for c in result.candidates], "compositions": compositions, "problems": problems}


if __name__ == "__main__":
    sys.exit(main())

"""What torch.compile's max-autotune costs on a task, compiled in a fresh process alone, against the
same after the default and reduce-overhead modes in one process (as `hiera bench`'s baseline worker
compiles them, hiera_core.bench.worker_ops). Session 21 measured 30-45 s of autotune benchmarking a
GEMM in the bench's worker on level-3 proxy tasks, 0.5 s in a fresh process on the same shapes.

    python3 benchmarks/bench_autotune_order.py [TASK.py] [--limit-s 240]

Each order runs in its own process with empty inductor and Triton caches, both side by side; prints
each mode's first-call seconds and inductor's own "AUTOTUNE benchmarking" lines.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORDERS = {"alone": ["max-autotune-no-cudagraphs"],
          "after two modes": ["default", "reduce-overhead", "max-autotune-no-cudagraphs"]}

COMPILE = r"""
import os, sys, time, torch
from hiera_core.task.load import load_task
task = load_task(sys.argv[1])
model = task.build_model("cuda", seed=0)
inputs = task.make_inputs("cuda", seed=0)
with torch.no_grad():
    for mode in sys.argv[2:]:
        torch._dynamo.reset()
        compiled = torch.compile(model, mode=None if mode == "default" else mode)
        began = time.time()
        compiled(*inputs)
        torch.cuda.synchronize()
        print(f"{mode}: first call {time.time() - began:.1f} s", flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("task", nargs="?", default=str(ROOT / "benchmarks/proxy/level3/4_ViT_Encoder_Block_SDPA.py"))
    parser.add_argument("--limit-s", type=float, default=240.0)
    args = parser.parse_args()
    processes = {}
    for label, modes in ORDERS.items():
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=tempfile.mkdtemp(), TRITON_CACHE_DIR=tempfile.mkdtemp(),
                   PYTHONPATH=f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
        processes[label] = subprocess.Popen([sys.executable, "-c", COMPILE, args.task, *modes], env=env, text=True,
                                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + args.limit_s
    for label, process in processes.items():
        try:
            output, _ = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
            output += f"\nstopped at the {args.limit_s:.0f} s limit"
        print(f"{label}:")
        for line in output.splitlines():
            if "first call" in line or "AUTOTUNE benchmarking" in line or "limit" in line or "Error" in line[:60]:
                print(f"  {line.strip()[:160]}")


if __name__ == "__main__":
    main()

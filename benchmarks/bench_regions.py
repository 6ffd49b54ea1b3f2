"""Per-region plans and the composed custom-CUDA candidate against eager and torch.compile, on a GPU.

    PYTHONPATH=. python benchmarks/bench_regions.py TASK.py [TASK.py ...] [--modes default,max-autotune-no-cudagraphs]

For each task: the plan per region (hiera_core.regions), the custom-CUDA candidate the lowering
composes (library calls, generated kernels, ops left to PyTorch), checked against the reference
(allclose at the contract's float32 tolerance), then eager, each torch.compile mode and the
candidate timed in this one process by one method (hiera_core.timing.time_module). Prints one
line per task; a figure, not a verdict (`hiera optimize` verifies and re-times in fresh processes).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="+")
    parser.add_argument("--modes", default="default", help="torch.compile modes, comma-separated")
    args = parser.parse_args()

    import torch

    from hiera_core.contract import prepare
    from hiera_core.plan import ExpertPlanner
    from hiera_core.spaces import ImplementContext
    from hiera_core.spaces.custom_cuda import STRATEGIES
    from hiera_core.task import load_task
    from hiera_core.timing import time_module

    if not torch.cuda.is_available():
        print("bench_regions needs a CUDA GPU", file=sys.stderr)
        return 2
    print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    for path in args.tasks:
        task = load_task(path)
        prepared = prepare(task, "cuda", measure=True)
        plan = ExpertPlanner().plan(prepared.spec)
        print(f"\n{Path(path).name}: reference {prepared.spec.reference_ms:.4g} ms, bound "
              f"{prepared.spec.roofline.bound_ms:.4g} ms")
        for line in plan.region_lines():
            print(f"  {line}")
        context = ImplementContext(prepared.spec, task.class_name, prepared.model, prepared.inputs, prepared.graph,
                                   "cuda")
        applying = [s for s in STRATEGIES.values() if s.applies(prepared.spec)]
        candidate = applying[0].generate(context) if applying else None
        model = task.build_model("cuda", seed=0)
        inputs = task.make_inputs("cuda", seed=0)
        figures = {"eager": time_module(model, inputs, "cuda", profile=False).median_ms}
        for mode in [m for m in args.modes.split(",") if m]:
            torch._dynamo.reset()
            compiled = torch.compile(model, mode=None if mode == "default" else mode)
            with torch.no_grad():
                compiled(*inputs)
            figures[f"compile:{mode}"] = time_module(compiled, inputs, "cuda", profile=False).median_ms
        if candidate is None:
            print("  no custom-CUDA candidate: " + "; ".join(f"{k} {v:.4g} ms" for k, v in figures.items()))
            continue
        namespace = {"__name__": f"hiera_bench_{Path(path).stem}"}
        exec(compile(Path(path).read_text() + "\n\n" + candidate.code, f"{Path(path).stem}_hiera.py", "exec"),
             namespace)
        composed = namespace["ModelNew"](*task.make_init()).to("cuda").eval()
        composed.load_state_dict(model.state_dict())
        with torch.no_grad():
            expected, got = model(*inputs), composed(*inputs)
        close = torch.allclose(got, expected, rtol=1e-4, atol=1e-4 * float(expected.float().pow(2).mean().sqrt()))
        figures[candidate.name] = time_module(composed, inputs, "cuda", profile=False).median_ms
        best_compile = min(v for k, v in figures.items() if k.startswith("compile:"))
        print(f"  {candidate.name} ({'matches' if close else 'DIFFERS FROM'} the reference): "
              + "; ".join(f"{k} {v:.4g} ms" for k, v in figures.items())
              + f"; x eager {figures['eager'] / figures[candidate.name]:.2f}, "
                f"x best compile {best_compile / figures[candidate.name]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

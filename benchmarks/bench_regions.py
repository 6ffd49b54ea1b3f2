"""Per-region plans and the composed custom-CUDA candidate against eager and torch.compile, on a GPU.

    PYTHONPATH=. python benchmarks/bench_regions.py TASK.py [TASK.py ...] [--modes default,max-autotune-no-cudagraphs]
        [--kernels 6]

For each task: the plan per region (hiera_core.plan.regions), then eager, each torch.compile mode,
the default mode's compiled forward captured in a CUDA graph (the refinement that won most proxy
tasks), and every other candidate whose strategy applies (library calls, generated kernels), each as
written and captured in a CUDA graph, and a custom-CUDA candidate with the PyTorch ops between its
kernels compiled (compose.compiled_glue) where it leaves any, and with the library settings its
convolutions and GEMMs can take (compose.library_variants: cuDNN autotuned, NHWC); each checked against the reference
(allclose, rtol 1e-3) and timed in this one process by one method
(hiera_core.profile.timing.time_module), with its GPU time. `--kernels N`: also each one's N
costliest GPU kernels per call (where inductor's kernels and the candidates' differ). A figure, not a
verdict (`hiera optimize` verifies and re-times in fresh processes).
"""

from __future__ import annotations

import argparse
import sys
import types
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="+")
    parser.add_argument("--modes", default="default", help="torch.compile modes, comma-separated")
    parser.add_argument("--kernels", type=int, default=0, help="print each one's N costliest kernels per call")
    args = parser.parse_args()

    import torch

    if not torch.cuda.is_available():
        print("bench_regions needs a CUDA GPU", file=sys.stderr)
        return 2
    print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    for path in args.tasks:
        try:
            _bench_task(path, args.modes, args.kernels)
        except Exception as error:  # one task's failure is a figure too; the others still run
            print(f"\n{Path(path).name}: FAILED: {type(error).__name__}: {str(error)[:400]}")
    return 0


def _bench_task(path: str, modes: str, kernels: int) -> None:
    import torch

    from hiera_core.plan.planner import ExpertPlanner
    from hiera_core.profile.timing import time_module
    from hiera_core.spaces import strategies
    from hiera_core.spaces.compose import compiled_glue, library_variants
    from hiera_core.spaces.pytorch_ops import generate_cuda_graph, graphed
    from hiera_core.spaces.strategy import ImplementContext
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task

    task = load_task(path)
    prepared = prepare(task, "cuda", measure=True)
    plan = ExpertPlanner().plan(prepared.spec)
    print(f"\n{Path(path).name}: reference {prepared.spec.reference_ms:.4g} ms, bound "
          f"{prepared.spec.roofline.bound_ms:.4g} ms")
    for line in plan.region_lines():
        print(f"  {line}")
    context = ImplementContext(prepared.spec, task.class_name, prepared.model, prepared.inputs, prepared.graph, "cuda")
    model = task.build_model("cuda", seed=0)
    inputs = task.make_inputs("cuda", seed=0)
    with torch.no_grad():
        expected = model(*inputs)
    scale = float(expected.float().pow(2).mean().sqrt())
    figures: dict[str, tuple[float, float]] = {}  # name: (median ms, GPU median ms)
    costliest: dict[str, list] = {}  # name: its KernelShares, costliest first

    def timed(name: str, fn) -> None:
        timing = time_module(fn, inputs, "cuda", profile=kernels > 0)
        figures[name] = (timing.median_ms, timing.gpu_median_ms or timing.median_ms)
        costliest[name] = (timing.kernels or [])[:kernels]

    timed("eager", model)
    for mode in [m for m in modes.split(",") if m]:
        torch._dynamo.reset()
        compiled = torch.compile(model, mode=None if mode == "default" else mode)
        with torch.no_grad():
            compiled(*inputs)
        timed(f"compile:{mode}", compiled)
    torch._dynamo.reset()
    # Every candidate that is not a torch.compile mode, as written and captured in a CUDA graph: in a
    # launch-bound module the graph decides, so the GPU time beside it is what a region plan can win.
    compiled = strategies()["pytorch.compile_default"].generate(context)
    candidates = [generate_cuda_graph(context), graphed(compiled, "bench")]
    for strategy in strategies().values():
        if strategy.key.startswith("pytorch.compile") or strategy.key == "pytorch.cuda_graph":
            continue
        if strategy.applies(prepared.spec) is None:
            continue
        try:
            candidate = strategy.generate(context)
        except Exception as error:
            print(f"  {strategy.key}: generate failed: {type(error).__name__}: {str(error)[:200]}")
            continue
        if candidate is not None:
            candidates += [candidate, graphed(candidate, "bench")]
            if (composed := compiled_glue(candidate, dynamic=False)) is not None:
                candidates += [composed, graphed(composed, "bench")]
            for variant in library_variants(candidate, prepared.spec):  # cuDNN's choices for its convolutions
                candidates += [variant, graphed(variant, "bench")]
    verdicts = {}
    for candidate in candidates:
        torch._dynamo.reset()
        module = types.ModuleType(f"hiera_bench_{Path(path).stem}")  # dynamo reads the module of what it compiles
        sys.modules[module.__name__] = module
        namespace = module.__dict__
        try:
            exec(compile(Path(path).read_text() + "\n\n" + candidate.code, f"{Path(path).stem}_hiera.py", "exec"),
                 namespace)
            composed = namespace["ModelNew"](*task.make_init()).to("cuda").eval()
            composed.load_state_dict(model.state_dict())
            with torch.no_grad():
                got = composed(*inputs)
            verdicts[candidate.name] = torch.allclose(got, expected, rtol=1e-3, atol=1e-3 * scale)
            timed(candidate.name, composed)
        except Exception as error:
            print(f"  {candidate.name}: failed: {type(error).__name__}: {str(error)[:200]}")
    best_compile = min(v[0] for k, v in figures.items() if k.startswith("compile:"))
    for name, (ms, gpu_ms) in figures.items():
        verdict = "" if name not in verdicts else (" matches" if verdicts[name] else " DIFFERS")
        print(f"  {name:<48} {ms:8.4g} ms (GPU {gpu_ms:8.4g}){verdict}; x eager {figures['eager'][0] / ms:5.2f}, "
              f"x best compile {best_compile / ms:5.2f}")
        for kernel in costliest[name]:
            print(f"      {1000 * kernel.ms:7.2f} us {100 * kernel.share:3.0f}%  {kernel.name[:90]}")


if __name__ == "__main__":
    sys.exit(main())

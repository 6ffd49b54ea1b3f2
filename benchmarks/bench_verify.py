"""The verifier's own cost per candidate, for the examples (target: at most 2 s for level-1-size
tasks on an H200).

    python benchmarks/bench_verify.py                       # every example, on cuda when present
    python benchmarks/bench_verify.py --device cpu softmax layernorm

The candidate is the reference itself (`class ModelNew(Model): pass`, pytorch space), eager, so
no compilation is measured. Columns: `verify` is the whole verification (static checks, the
reference on every input set, every check); `model` the part spent inside the reference's and the
candidate's forward; `own` = verify - model, the verifier's own cost (cloning, poisoning,
comparing in float64, the profiler pass of custom candidates); `timing` the timing of reference
and candidate with the timing checks, as `hiera verify` runs it (no profiler pass). All in one
process: the worker's start (importing torch) is not included.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hiera_core.contract import prepare  # noqa: E402
from hiera_core.proposal import assemble_body, candidate_part  # noqa: E402
from hiera_core.task import load_task  # noqa: E402
from hiera_core.timing import time_module  # noqa: E402
from hiera_core.verify import timing_checks, verify  # noqa: E402

TARGET_S = 2.0


def measure(path: Path, device: str, folder: Path) -> dict:
    task = load_task(str(path))
    spec = prepare(task, device, measure=False).spec
    body = assemble_body(task.info.source, "reference_itself", "pytorch",
                         f"class ModelNew({task.class_name}):\n    pass\n")
    candidate_path = folder / f"{path.stem}_candidate.py"
    candidate_path.write_text(body)
    source, first_line = candidate_part(body)
    started = time.perf_counter()
    with ModelTime(device) as model_time:
        verification, verified = verify(task, spec, str(candidate_path), source, first_line, "pytorch", device)
    verify_s = time.perf_counter() - started
    if not verification.passed:
        raise SystemExit(f"{path.stem}: the reference did not verify against itself: {verification.summary()}")
    started = time.perf_counter()
    inputs = verified.input_sets[0].inputs
    baseline = time_module(task.build_model(device, seed=0), inputs, device, profile=False)
    last = []
    timed = time_module(verified.candidate, inputs, device, profile=False, on_last_output=last.append)
    failed = [c.name for c in timing_checks(spec, device, timed, baseline, last[0], verified) if not c.passed]
    return {"example": path.stem, "verify": verify_s, "model": model_time.seconds,
            "own": verify_s - model_time.seconds, "timing": time.perf_counter() - started, "ms": timed.median_ms,
            "checks": ", ".join(failed) or "ok"}


class ModelTime:
    """Wall time spent inside top-level nn.Module calls (the reference's and the candidate's forward),
    device work included."""

    def __init__(self, device: str):
        self.device = device
        self.seconds = 0.0

    def __enter__(self) -> "ModelTime":
        import torch

        self.original = original = torch.nn.Module.__call__
        depth = [0]

        def call(module, *args, **kwargs):
            if depth[0]:
                return original(module, *args, **kwargs)
            depth[0] += 1
            started = time.perf_counter()
            try:
                out = original(module, *args, **kwargs)
                if self.device == "cuda":
                    torch.cuda.synchronize()
                return out
            finally:
                self.seconds += time.perf_counter() - started
                depth[0] -= 1

        torch.nn.Module.__call__ = call
        return self

    def __exit__(self, *exc) -> None:
        import torch

        torch.nn.Module.__call__ = self.original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*", help="example names (default: all)")
    parser.add_argument("--device", choices=["cuda", "cpu"], default=None)
    args = parser.parse_args()
    import torch

    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    paths = sorted((ROOT / "examples").glob("*.py"))
    if args.examples:
        paths = [p for p in paths if p.stem in args.examples]
    name = torch.cuda.get_device_name() if device == "cuda" else f"CPU, {torch.get_num_threads()} threads"
    print(f"verifier cost per candidate on {device} ({name}); target <= {TARGET_S} s for level-1-size tasks")
    print(f"{'example':<20} {'verify s':>9} {'model s':>8} {'own s':>7} {'timing s':>9} {'ms/call':>9}  timing checks")
    with tempfile.TemporaryDirectory() as folder:
        for path in paths:
            row = measure(path, device, Path(folder))
            print(f"{row['example']:<20} {row['verify']:>9.2f} {row['model']:>8.2f} {row['own']:>7.2f} "
                  f"{row['timing']:>9.2f} {row['ms']:>9.4g}  {row['checks']}", flush=True)


if __name__ == "__main__":
    main()

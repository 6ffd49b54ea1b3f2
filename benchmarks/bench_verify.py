"""The verifier's cost per candidate, for the examples, as `hiera optimize` pays it: the worker op
`evaluate`, process starts included.

    python benchmarks/bench_verify.py                       # every example, on cuda when present
    python benchmarks/bench_verify.py --device cpu softmax layernorm
    PYTHONPATH=/path/to/other/checkout python benchmarks/bench_verify.py ...   # that tree's verifier

The candidate is the reference itself (`class ModelNew(Model): pass`, pytorch space), eager, so no
compilation is measured. Columns: `verify s`, the op with verification only (`time: False`);
`total s`, verification and timing (reference and candidate, timing checks, no profiler pass);
both wall seconds seen by the caller, worker start and imports included; `ms/call`, the candidate's
median; `verdict`, the timing verdict (a copy of the reference must never count as faster).
The request is the same for every verifier since the op's request format is, so the figures of two
checkouts compare directly (the worker runs from the tree `hiera_core` is imported from).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # after PYTHONPATH, so another checkout's hiera_core wins when given

from hiera_core.propose.proposal_file import assemble_body, candidate_part  # noqa: E402
from hiera_core.worker.isolate import run_worker  # noqa: E402
from hiera_core.worker.requests import EvaluateRequest, PrepareRequest  # noqa: E402


def as_dict(result) -> dict:
    """An op's result as a dict, as every checkout gives it: a typed result record's, or the dict a
    checkout from before them returns."""
    return result if isinstance(result, dict) else result.to_dict()


def measure(path: Path, device: str, folder: Path) -> dict:
    prepared = run_worker(PrepareRequest(address=str(path), device=device, measure=False), timeout_s=600,
                          doing=f"building the spec of {path.stem}")
    source = path.read_text()
    class_name = next(line.split()[1].split("(")[0] for line in source.splitlines()
                      if line.startswith("class ") and "nn.Module" in line)
    body = assemble_body(source, "reference_itself", "pytorch", f"class ModelNew({class_name}):\n    pass\n")
    candidate_path = folder / f"{path.stem}_candidate.py"
    candidate_path.write_text(body)
    candidate, first_line = candidate_part(body)
    request = EvaluateRequest(address=str(path), device=device, spec=as_dict(prepared)["spec"],
                              candidate_path=str(candidate_path), candidate_source=candidate, first_line=first_line,
                              space="pytorch", profile=False)
    row = {"example": path.stem}
    for label, timed in (("verify", False), ("total", True)):
        started = time.perf_counter()
        result = as_dict(run_worker(replace(request, time=timed), timeout_s=600, doing=f"evaluating {path.stem}"))
        row[label] = time.perf_counter() - started
        if not result["verification"]["passed"]:
            failed = next(c for c in result["verification"]["checks"] if not c["passed"])
            raise SystemExit(f"{path.stem}: the reference did not verify against itself: {failed}")
    row["ms"] = result["candidate"]["median_ms"]
    row["verdict"] = result.get("timing_verdict", f"{result.get('speedup', 0):.2f}x (no significance rule)")
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*", help="example names (default: all)")
    parser.add_argument("--device", choices=["cuda", "cpu"], default=None)
    args = parser.parse_args()
    import hiera_core
    from hiera_core.loop.session import default_device

    device = args.device or default_device()
    paths = sorted((ROOT / "examples").glob("*.py"))
    if args.examples:
        paths = [p for p in paths if p.stem in args.examples]
    print(f"verifier cost per candidate on {device}, the `evaluate` op of {Path(hiera_core.__file__).parent.parent}")
    print(f"{'example':<20} {'verify s':>9} {'total s':>8} {'ms/call':>9}  verdict")
    with tempfile.TemporaryDirectory() as folder:
        for path in paths:
            row = measure(path, device, Path(folder))
            print(f"{row['example']:<20} {row['verify']:>9.2f} {row['total']:>8.2f} {row['ms']:>9.4g}  {row['verdict']}",
                  flush=True)


if __name__ == "__main__":
    main()

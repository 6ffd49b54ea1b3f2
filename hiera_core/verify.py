"""Verifying a candidate against the reference (first version; hardening is its own issue).

Runs in a worker process. Order matters: the reference's outputs for every input set are
computed, and kept alive (so a candidate cannot be handed their freed memory), before the
candidate module is imported. Then, per input set: fresh clones at new addresses, the
caching allocator poisoned with NaN (uninitialised outputs show up), the candidate called,
inputs compared with their originals, outputs checked for type, shape, dtype, device and
values in float64 with |out - ref| <= atol + rtol*|ref| (atol scaled by the set's output RMS),
NaN where the reference has none failing, constant or input-copy outputs failing. The candidate
is called twice on one set (same result; the first result not overwritten by the second).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import asdict, dataclass, field

from hiera_core.errors import HieraError
from hiera_core.inputs import InputSet, clone_inputs, input_sets
from hiera_core.spec import Spec, Tolerance
from hiera_core.static_checks import check_candidate
from hiera_core.task import Task, outputs_as_list


@dataclass
class Check:
    name: str
    passed: bool
    message: str = ""
    reproducer: str = ""  # seed, distribution and shapes of the failing input set
    max_error: float | None = None


@dataclass
class Verification:
    passed: bool
    checks: list[Check] = field(default_factory=list)
    input_sets: int = 0
    max_abs_error: float = 0.0
    max_rel_error: float = 0.0  # max of |out-ref| / (atol + rtol*|ref|): <= 1 passes

    def failure(self) -> Check | None:
        return next((check for check in self.checks if not check.passed), None)

    def summary(self) -> str:
        if self.passed:
            return (f"passed: {len(self.checks)} checks, {self.input_sets} input sets, "
                    f"max error {self.max_abs_error:.2g} ({self.max_rel_error:.2f} of tolerance)")
        failed = self.failure()
        return f"failed: {failed.name}: {failed.message}" + (f" [{failed.reproducer}]" if failed.reproducer else "")

    def to_dict(self) -> dict:
        return asdict(self)


def import_candidate(path: str, module_name: str):
    """Import a candidate/proposal file; errors become a failed 'load' check upstream."""
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def _poison_allocator(nbytes: int, device: str) -> None:
    """Fill, then free, a block the size of the outputs: memory a candidate leaves unwritten reads NaN."""
    import torch

    if nbytes and device == "cuda":
        torch.empty(nbytes // 4 + 1, dtype=torch.float32, device=device).fill_(float("nan"))


def compare(out, ref, tolerance: Tolerance) -> tuple[bool, str, float, float]:
    """(ok, message, max abs error, max error as a fraction of the allowed error)."""
    import torch

    out64, ref64 = out.detach().double(), ref.detach().double()
    ref_finite = ref64.isfinite()
    rms = float(ref64[ref_finite].pow(2).mean().sqrt()) if ref_finite.any() else 1.0
    atol = tolerance.atol_rel * (rms if rms > 0 else 1.0)
    new_nan = out64.isnan() & ~ref64.isnan()
    if new_nan.any():
        return False, f"{int(new_nan.sum())} NaN values where the reference has none", float("inf"), float("inf")
    inf_mismatch = (ref64.isinf() | out64.isinf()) & (out64 != ref64)
    if inf_mismatch.any():
        return False, f"{int(inf_mismatch.sum())} infinite values differ from the reference", float("inf"), float("inf")
    both = ref_finite & out64.isfinite()
    error = (out64 - ref64).abs().where(both, torch.zeros_like(out64))
    allowed = atol + tolerance.rtol * ref64.abs().where(both, torch.zeros_like(ref64))
    ratio = float((error / allowed).max()) if error.numel() else 0.0
    max_error = float(error.max()) if error.numel() else 0.0
    if ratio > 1.0:
        bad = int((error > allowed).sum())
        index = int((error / allowed).argmax())
        return (False, f"{bad} of {error.numel()} values out of tolerance (worst at flat index {index}: "
                f"{float(out64.flatten()[index]):.6g} vs reference {float(ref64.flatten()[index]):.6g}; "
                f"allowed {atol:.2g} + {tolerance.rtol:.2g}*|ref|)", max_error, ratio)
    return True, "", max_error, ratio


def _trivial(out, ref, inputs) -> str | None:
    """Outputs that are constant, or a copy of an input, when the reference's are not."""
    import torch

    if out.numel() > 1 and ref.numel() > 1:
        if bool((out == out.flatten()[0]).all()) and not bool((ref == ref.flatten()[0]).all()):
            return "the output is constant but the reference's is not"
    for value in inputs:
        if isinstance(value, torch.Tensor) and value.shape == out.shape and value.dtype == out.dtype \
                and out.numel() > 1 and bool(torch.equal(out, value)) and not bool(torch.equal(ref, value)):
            return "the output equals an input but the reference's does not"
    return None


def verify(task: Task, spec: Spec, candidate_path: str, candidate_source: str, first_line: int,
           space: str, device: str, sets: int = 5) -> tuple[Verification, object, list[InputSet]]:
    """Verify; returns (verification, the candidate model or None, the input sets for timing)."""
    import torch

    result = Verification(passed=False)
    checks = result.checks
    problems = check_candidate(candidate_source, space, task.class_name, first_line)
    checks.append(Check("static", not problems,
                        "; ".join(f"line {p.line}: {p.check}: {p.message}" for p in problems)))
    if problems:
        return result, None, []
    reference = task.build_model(device, seed=0)
    input_list = input_sets(task, device, count=sets)
    reference_outputs = [outputs_as_list(task.run_forward(reference, clone_inputs(s.inputs))) for s in input_list]
    output_bytes = max(sum(o.numel() * o.element_size() for o in outs) for outs in reference_outputs)
    tolerance = [spec.tolerance[o.name] for o in spec.outputs] if spec.outputs else []

    try:
        module = import_candidate(candidate_path, f"hiera_candidate_{os.getpid()}")
        model_class = getattr(module, "ModelNew")
    except Exception as error:  # noqa: BLE001 - the candidate's own failure
        checks.append(Check("load", False, f"importing the candidate raised {type(error).__name__}: {error}"[:600]))
        return result, None, []
    try:
        torch.manual_seed(0)
        with torch.device(device):
            candidate = model_class(*task.make_init())
        candidate = candidate.to(device).eval()
        candidate.load_state_dict(reference.state_dict())
    except Exception as error:  # noqa: BLE001
        checks.append(Check("construct", False, f"ModelNew(*init) / load_state_dict raised "
                                                 f"{type(error).__name__}: {error}"[:600]))
        return result, None, []
    checks.append(Check("load", True))

    for input_set, ref_outs in zip(input_list, reference_outputs):
        fresh = clone_inputs(input_set.inputs)
        _poison_allocator(output_bytes, device)
        try:
            with torch.no_grad():
                outs = candidate(*fresh)
            if device == "cuda":
                torch.cuda.synchronize()
        except Exception as error:  # noqa: BLE001
            checks.append(Check("runs", False, f"forward raised {type(error).__name__}: {str(error)[:400]}",
                                input_set.describe()))
            return result, None, []
        failure = _check_outputs(outs, ref_outs, fresh, input_set, tolerance, device, result)
        if failure:
            checks.append(failure)
            return result, None, []
        mutated = [i for i, (a, b) in enumerate(zip(fresh, input_set.inputs))
                   if isinstance(a, torch.Tensor) and not _equal(a, b)]
        if mutated and not spec.mutated_inputs:
            checks.append(Check("input-mutation", False, f"forward modified input(s) {mutated}", input_set.describe()))
            return result, None, []
    result.input_sets = len(input_list)
    checks.append(Check("values", True, f"{len(input_list)} input sets within tolerance"))
    checks.append(Check("input-mutation", True))

    first_set = input_list[0]
    with torch.no_grad():
        first = outputs_as_list(candidate(*clone_inputs(first_set.inputs)))
        kept = [o.clone() for o in first]
        second = outputs_as_list(candidate(*clone_inputs(first_set.inputs)))
    if device == "cuda":
        torch.cuda.synchronize()
    if not all(_equal(a, b) for a, b in zip(first, kept)):
        checks.append(Check("output-reuse", False, "the second call overwrote the first call's output "
                                                   "(outputs must be fresh tensors)", first_set.describe()))
        return result, None, []
    for a, b, tol in zip(first, second, tolerance):
        ok, message, _, _ = compare(b, a, tol)
        if not ok:
            checks.append(Check("determinism", False, f"two calls on the same inputs differ: {message}",
                                first_set.describe()))
            return result, None, []
    checks.append(Check("determinism", True))
    result.passed = True
    return result, candidate, input_list


def _check_outputs(outs, ref_outs, inputs, input_set, tolerance, device, result) -> Check | None:
    import torch

    where = input_set.describe()
    outs = outputs_as_list(outs) if isinstance(outs, (torch.Tensor, tuple, list)) else [outs]
    if len(outs) != len(ref_outs) or not all(isinstance(o, torch.Tensor) for o in outs):
        return Check("output-type", False, f"returned {[type(o).__name__ for o in outs]}, the reference returns "
                                           f"{len(ref_outs)} tensor(s)", where)
    for index, (out, ref, tol) in enumerate(zip(outs, ref_outs, tolerance)):
        if type(out) is not torch.Tensor:
            return Check("tensor-subclass", False, f"output {index} is a {type(out).__name__}, not a plain tensor", where)
        if out.shape != ref.shape:
            return Check("shape", False, f"output {index} has shape {list(out.shape)}, expected {list(ref.shape)}", where)
        if out.dtype != ref.dtype:
            return Check("dtype", False, f"output {index} is {out.dtype}, expected {ref.dtype}", where)
        if out.device.type != device:
            return Check("device", False, f"output {index} is on {out.device}, expected {device}", where)
        ok, message, max_error, ratio = compare(out, ref, tol)
        if not ok:
            name = "nan" if "NaN" in message else "values"
            return Check(name, False, f"output {index}: {message}", where, max_error)
        trivial = _trivial(out, ref, inputs)
        if trivial:
            return Check("trivial-output", False, f"output {index}: {trivial}", where)
        result.max_abs_error = max(result.max_abs_error, max_error)
        result.max_rel_error = max(result.max_rel_error, ratio)
    return None


def _equal(a, b) -> bool:
    import torch

    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.is_floating_point():
        return bool(((a == b) | (a.isnan() & b.isnan())).all())
    return bool(torch.equal(a, b))


def require_loadable(path: str) -> None:
    if not os.path.exists(path):
        raise HieraError(f"no such candidate file: {path}", kind="usage", hint="give the path of a file defining ModelNew")

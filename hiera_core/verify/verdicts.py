"""The verifier's judgements: comparing outputs, the static checks' verdict, the checks on a timing
(compute-sanitizer's runs are hiera_core.verify.sanitizer). The checklist of DESIGN.md, hardened
against the reward hacks in ../shared/notes/reward-hacks.md (tests/adversarial holds attacks and
legitimate controls). Importing it does not import torch: the worker's results carry its records.

The verification itself runs in hiera_core.verify.judge, which never imports candidate code: the
candidate runs in its own process (hiera_core.worker.runner) and only answers the judge's requests.
Every failure names its check, the input set (run seed, distribution, shapes) and the largest
error. docs/verification.md describes the processes, the input policy and the significance rule.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from hiera_core.spec.model import Spec, Tolerance
from hiera_core.verify.repro import FailingInputs
from hiera_core.verify.static_checks import check_candidate, patch_check

LIBRARY_KINDS = {"matmul", "conv", "attention"}  # cuBLAS/cuDNN calls a custom-kernel candidate may make
# The harness functions whose replacement the runner reports (hiera_core.worker.runner.HARNESS_FUNCTIONS)
# that fake a measurement: named by the static check that would have seen the patch.
TIMER_LABELS = ("time.", "torch.cuda.", "torch.profiler.", "torch.autograd.profiler.")


def patch_check_name(label: str) -> tuple[str, str] | None:
    """(check, message) for a replaced harness function that fakes a timing; None for others."""
    if not label.startswith(TIMER_LABELS):
        return None
    return patch_check(label)


@dataclass
class Check:
    name: str
    passed: bool
    message: str = ""
    reproducer: str = ""  # seed, distribution and shapes of the failing input set
    max_error: float | None = None
    inputs: FailingInputs | None = None  # how that set was drawn, for a runnable reproducer (hiera_core.verify.repro)


@dataclass
class Verification:
    passed: bool
    checks: list[Check] = field(default_factory=list)
    input_sets: int = 0
    max_abs_error: float = 0.0
    max_rel_error: float = 0.0  # max of |out-ref| / (atol + rtol*|ref|): <= 1 passes
    sets_checked: list[str] = field(default_factory=list)  # seed, distribution and shapes of each set

    def failure(self) -> Check | None:
        return next((check for check in self.checks if not check.passed), None)

    def add(self, checks: list[Check]) -> None:
        self.checks.extend(checks)
        self.passed = self.passed and all(check.passed for check in checks)

    def summary(self) -> str:
        if self.passed:
            return (f"passed: {len(self.checks)} checks, {self.input_sets} input sets, "
                    f"max error {self.max_abs_error:.2g} ({self.max_rel_error:.2f} of tolerance)")
        failed = self.failure()
        return f"failed: {failed.name}: {failed.message}" + (f" [{failed.reproducer}]" if failed.reproducer else "")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Verification:
        checks = [Check(**{**check, "inputs": FailingInputs(**check["inputs"]) if check.get("inputs") else None})
                  for check in data.get("checks", [])]
        return cls(**{**data, "checks": checks})


# ---- comparing -----------------------------------------------------------------------------------

@dataclass
class Comparison:
    ok: bool
    kind: str  # "values" | "nan"
    message: str
    max_error: float
    ratio: float  # largest error as a fraction of the allowed error


COMPARE_CHUNK = 1 << 20  # elements per float64 pass: the temporaries stay in a CPU's caches
# On a set where the reference's own float32 result is far from float64's (an ill-conditioned set:
# attention on logits in the tens of thousands), an equally precise implementation differs from it by
# as much: this many times the reference's own largest error is allowed on top of the tolerance. Not 2:
# |out - ref| can reach |out - exact| + |ref - exact|, and an equally precise implementation's largest
# error falls on other elements than the reference's (H100, 2026-12-05: torch.compile's ResNet basic
# block, 1 value of 802816 at 2.2x eager's own largest error on a timed set, 0.00145 against 0.00066).
OWN_ERROR_FACTOR = 3.0


def compare(out, ref, tolerance: Tolerance, own_error: float = 0.0) -> Comparison:
    """|out - ref| <= atol + rtol*|ref| (+ OWN_ERROR_FACTOR x `own_error`, the reference's own largest
    error against float64 on this set) in float64, atol = atol_rel x RMS of the reference's finite
    values; NaN where the reference has none, and infinities that differ, fail first."""
    import torch

    if out.device != ref.device:  # a float64 result computed on the host (lean): compared there
        out = out.to(ref.device)
    out_flat, ref_flat = out.detach().reshape(-1), ref.detach().reshape(-1)
    all_finite = bool(out_flat.isfinite().all()) and bool(ref_flat.isfinite().all())
    if not all_finite:
        new_nan = int((out_flat.isnan() & ~ref_flat.isnan()).sum())
        if new_nan:
            return Comparison(False, "nan", f"{new_nan} of {out.numel()} values are NaN where the reference has "
                                            f"none", float("inf"), float("inf"))
        lost_nan = int((ref_flat.isnan() & ~out_flat.isnan()).sum())
        if lost_nan:
            return Comparison(False, "nan", f"{lost_nan} of {out.numel()} values are finite where the reference's "
                                            f"are NaN", float("inf"), float("inf"))
        inf_mismatch = int(((ref_flat.isinf() | out_flat.isinf()) & (out_flat != ref_flat)).sum())
        if inf_mismatch:
            return Comparison(False, "values", f"{inf_mismatch} infinite values differ from the reference",
                              float("inf"), float("inf"))
    chunks = range(0, ref_flat.numel(), COMPARE_CHUNK)
    squares, finite = 0.0, 0
    for start in chunks:
        values = ref_flat[start:start + COMPARE_CHUNK].to(torch.float64)
        if not all_finite:
            values = values[values.isfinite()]
        squares += float(torch.dot(values, values))
        finite += values.numel()
    rms = (squares / finite) ** 0.5 if finite else 1.0
    atol = tolerance.atol_rel * (rms if rms > 0 else 1.0) + OWN_ERROR_FACTOR * own_error
    max_error, ratio, worst = 0.0, 0.0, 0
    for start in chunks:
        o = out_flat[start:start + COMPARE_CHUNK].to(torch.float64, copy=True)
        r = ref_flat[start:start + COMPARE_CHUNK].to(torch.float64, copy=True)
        error = o.sub_(r).abs_()
        if not all_finite:  # equal infinities (checked above) are not errors
            error.nan_to_num_(nan=0.0)
        max_error = max(max_error, float(error.max()))
        chunk_ratio = error.div_(r.abs_().mul_(tolerance.rtol).add_(atol))
        if atol == 0 or not all_finite:
            chunk_ratio.nan_to_num_(nan=0.0)  # 0/0 (an exact tolerance met), or a NaN the reference has too
        chunk_worst = int(chunk_ratio.argmax())
        if float(chunk_ratio[chunk_worst]) > ratio:
            ratio, worst = float(chunk_ratio[chunk_worst]), start + chunk_worst
    if ratio > 1.0:
        bad = _count_out_of_tolerance(out_flat, ref_flat, tolerance.rtol, atol)
        return Comparison(False, "values", f"{bad} of {out.numel()} values out of tolerance, largest error "
                          f"{max_error:.3g} (worst at flat index {worst}: {float(out_flat[worst]):.6g} vs "
                          f"reference {float(ref_flat[worst]):.6g}; allowed {atol:.2g} + "
                          f"{tolerance.rtol:.2g}*|ref|" + (f", which includes {OWN_ERROR_FACTOR:g}x the "
                                                           f"reference's own float32 error on this set, "
                                                           f"{own_error:.2g}" if own_error else "") + ")",
                          max_error, ratio)
    return Comparison(True, "values", "", max_error, ratio)


def largest_difference(ref, exact) -> float:
    """The largest finite |ref - exact| in float64, a chunk at a time on `exact`'s device (the
    temporaries of a whole 6 GiB output would not fit beside a large task's sets)."""
    import torch

    ref_flat, exact_flat = ref.detach().reshape(-1), exact.detach().reshape(-1)
    largest = 0.0
    for start in range(0, ref_flat.numel(), COMPARE_CHUNK):
        difference = ref_flat[start:start + COMPARE_CHUNK].to(exact.device, torch.float64, copy=True)
        difference = difference.sub_(exact_flat[start:start + COMPARE_CHUNK]).abs_()
        difference = difference[difference.isfinite()]
        if difference.numel():
            largest = max(largest, float(difference.max()))
    return largest


def _count_out_of_tolerance(out_flat, ref_flat, rtol: float, atol: float) -> int:
    import torch

    bad = 0
    for start in range(0, ref_flat.numel(), COMPARE_CHUNK):
        o = out_flat[start:start + COMPARE_CHUNK].to(torch.float64)
        r = ref_flat[start:start + COMPARE_CHUNK].to(torch.float64)
        bad += int(((o - r).abs().nan_to_num(nan=0.0) > atol + rtol * r.abs()).sum())
    return bad


def trivial_output(out, ref, inputs) -> str | None:
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


def tolerances_for(spec: Spec | None, reference_outputs: list) -> list[Tolerance]:
    """One per output: the contract's, or (no spec outputs) the strict default of its dtype."""
    from hiera_core.spec.contract import TOLERANCES, dtype_name

    if spec is not None and len(spec.outputs) == len(reference_outputs):
        return [spec.tolerance[o.name] for o in spec.outputs]
    found = []
    for out in reference_outputs:
        rtol, atol_rel, label = TOLERANCES.get(dtype_name(out.dtype), (0.0, 0.0, "exact"))
        found.append(Tolerance(rtol=rtol, atol_rel=atol_rel, atol=atol_rel, note=label))
    return found


def static_verification(candidate_source: str, space: str, reference_class: str, first_line: int) -> Verification:
    """The static checks alone (pure, no torch): passed, or failed with one check per problem."""
    problems = check_candidate(candidate_source, space, reference_class, first_line)
    if problems:
        return Verification(False, [Check(p.check, False, f"line {p.line}: {p.message}") for p in problems])
    return Verification(True, [Check("static", True, f"{space} space: no fallback, threads, patching, tensor "
                                                     f"subclasses or introspection")])


# ---- judging the timing --------------------------------------------------------------------------

# Back-to-back calls keeping the device busy beyond this multiple of what the call's GPU work on
# the timed stream (events) and the host's queueing explain: GPU work the timed stream never waited for.
CPU_BOUND_MARGIN = 0.25  # on CPU a time is impossible only below a quarter of the nominal bound
HOST_EXCESS_RATIO = 1.5
HOST_EXCESS_SLACK_MS = 0.02
# The device busy after the timed stream's end event for more than this share of the call's timed
# GPU work (and than the noise of two synchronisations) means work the timed stream never waited for.
UNWAITED_SHARE = 0.1
UNWAITED_SLACK_MS = 0.02


def streams_check(timed, where: str) -> Check:
    """GPU work the timed stream never waited for, seen two ways. Alone on an idle device, the device
    stays busy after the timed stream's end event (`unwaited_ms`). Back to back, waited for on every
    stream, calls take far longer each than their GPU work on the timed stream (events) and the host's
    time to queue them: a host-bound call takes as long as its queueing, a GPU-bound one as its events.
    There the fastest batch is judged: another process's load on the host or the device only adds
    time to some batches, while unwaited work adds it to every one."""
    unwaited = timed.unwaited_ms
    if unwaited is not None and unwaited > max(UNWAITED_SHARE * timed.gpu_median_ms, UNWAITED_SLACK_MS):
        return Check("streams", False, f"after the timed stream's end event the device stays busy {unwaited:.4g} ms per "
                                       f"call, against {timed.gpu_median_ms:.4g} ms of GPU work on the timed stream "
                                       f"(CUDA events): the candidate does GPU work the timed stream does not wait "
                                       f"for (side streams)", where)
    explained = max(timed.gpu_median_ms, timed.host_queue_ms)
    back_to_back = timed.host_min_ms if timed.host_min_ms is not None else timed.host_median_ms
    if back_to_back > HOST_EXCESS_RATIO * explained + HOST_EXCESS_SLACK_MS:
        return Check("streams", False, f"back-to-back calls keep the device busy {back_to_back:.4g} ms per call "
                                       f"in the fastest batch, {back_to_back / max(explained, 1e-9):.1f}x what the "
                                       f"call's GPU work on the timed stream ({timed.gpu_median_ms:.4g} ms, CUDA "
                                       f"events) and queueing it ({timed.host_queue_ms:.4g} ms) take: the candidate "
                                       f"does GPU work the timed stream does not wait for (side streams)", where)
    tail = f"; {unwaited:.3g} ms busy after the end event" if unwaited is not None else ""
    return Check("streams", True, f"{back_to_back:.4g} ms/call back to back (fastest batch); events "
                                  f"{timed.gpu_median_ms:.4g} ms, queueing {timed.host_queue_ms:.4g} ms{tail}")


def roofline_check(spec: Spec, timed, baseline, device_key: str | None, where: str,
                   exact_rewrite: bool = False) -> Check | None:
    """Faster than the roofline lower bound is impossible, so the timing is not real. Only where the
    bound is for this GPU, and not when the reference itself beats it (then the task's minimal
    bytes overstate what it must read, e.g. an input it ignores). An exact rewrite (an engine
    strategy that computes the result with fewer FLOPs than the reference's ops, e.g. a GEMM whose
    outputs are only summed) is held to the bytes every implementation moves: its inputs read and its
    outputs written once at peak bandwidth (weights it derives once are not read per call)."""
    if exact_rewrite:
        import torch

        moved = sum(t.numel * getattr(torch, t.dtype).itemsize for t in spec.inputs + spec.outputs)
        bound = 1000 * moved / spec.roofline.peak_bw
        what = "reading its inputs and writing its outputs once at peak bandwidth"
    else:
        bound = spec.roofline.bound_ms
        what = "the roofline lower bound"
    if device_key == "cpu":  # nominal peaks, not this machine's: only far beyond them is impossible
        bound *= CPU_BOUND_MARGIN
        what += f" at {1 / CPU_BOUND_MARGIN:.0f}x the table's nominal CPU peaks"
    if device_key != spec.roofline.device or bound <= 0 or (baseline is not None and _gpu_ms(baseline) < bound):
        return None
    if _gpu_ms(timed) < bound:
        kind = "time" if device_key == "cpu" else "GPU time"
        return Check("roofline", False, f"{kind} {_gpu_ms(timed):.4g} ms is faster than {what}, {bound:.4g} ms "
                                        f"on {spec.roofline.device_name}" + ("" if exact_rewrite else
                                        " (FLOPs and bytes at peak rates)") + ": the timing cannot be real", where)
    return Check("roofline", True, f"{100 * bound / timed.median_ms:.0f}% of {what}")


def _gpu_ms(timed) -> float:
    """The call's GPU time: its CUDA-event median, the median where the timing has none."""
    return timed.gpu_median_ms if timed.gpu_median_ms is not None else timed.median_ms

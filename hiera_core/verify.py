"""Verifying a candidate against the reference: the checklist of DESIGN.md, hardened against the
reward hacks in ../shared/notes/reward-hacks.md (tests/adversarial holds one candidate per hack).

Runs in a worker process (hiera_core.isolate: a time limit, a memory limit on CPU, its own
process group), so a candidate that crashes, hangs or exhausts memory fails without taking the
caller down. Order matters:
1. Static checks on the candidate's source (hiera_core.static_checks), before any of it runs.
2. The reference's outputs for every input set are computed, and kept alive (so a candidate can
   never be handed their freed memory), before the candidate module is imported. The identities
   of the timers and of the functions the verifier uses are recorded too.
3. Per input set (varied distributions, boundary sizes of dynamic dims): fresh inputs at
   addresses no other call saw (earlier trials' inputs stay alive), freshly allocated memory
   poisoned (CUDA: cached free blocks filled with 0xFF; CPU: glibc's M_PERTURB fills every
   allocation with 0xFE), one call, then: output type, shape, dtype, device; inputs unchanged;
   no output still holding the poison (memory never written); no NaN where the reference has
   none; values in float64 within |out - ref| <= atol + rtol*|ref| (atol scaled by the set's
   output RMS); a failing output that is constant or a copy of an input is named as such.
   After each call: no thread of the candidate's still running, no timer or verifier function
   replaced.
4. Custom-CUDA space: the torch ops one call runs (profiler) must not redo the reference's main
   computation.
5. Repeated calls: the same inputs twice (same result within tolerance, the first result not
   overwritten by the second); then set A, set B written into A's tensors (same addresses), A
   again: each must match its own reference, so nothing carries over between calls.
A failure after earlier calls is retried on a freshly imported candidate: when that passes, the
failure is named `state` (the result depended on earlier calls: a cache keyed on input pointers
or shapes, a call counter). Every failure names its check, the input set (seed, distribution,
shapes) and the largest error. `timing_checks` judges the timing that follows; `sanitize` reruns
the verification under compute-sanitizer.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path

from hiera_core.errors import HieraError
from hiera_core.inputs import (InputSet, clone_inputs, forward_parameter_names, input_sets, tensors_equal,
                               with_signs_kept)
from hiera_core.spec import Spec, Tolerance
from hiera_core.static_checks import check_candidate, patch_check
from hiera_core.task import Task, outputs_as_list

POISON_BYTE = {"cuda": 0xFF, "cpu": 0xFE}  # 0xFF..: NaN in every float format; 0xFE: glibc perturb byte 0x01
M_PERTURB = -6  # glibc mallopt: fill each allocation with (byte ^ 0xFF)
LIBRARY_KINDS = {"matmul", "conv", "attention"}  # cuBLAS/cuDNN calls a custom-kernel candidate may make
# Functions a candidate could replace to fake a time or a comparison; checked by identity after each call.
HARNESS_FUNCTIONS = (
    "time.perf_counter", "time.perf_counter_ns", "time.time", "time.time_ns", "time.monotonic",
    "time.monotonic_ns", "time.process_time", "torch.cuda.synchronize", "torch.cuda.Event",
    "torch.cuda.Event.record", "torch.cuda.Event.elapsed_time", "torch.cuda.Event.synchronize",
    "torch.cuda.Stream", "torch.cuda.current_stream", "torch.cuda.default_stream", "torch.cuda.stream",
    "torch.profiler.profile", "torch.autograd.profiler.profile", "torch.no_grad",
    "torch.equal", "torch.allclose", "torch.isclose", "torch.isnan", "torch.isfinite", "torch.where",
    "torch.zeros_like", "torch.Tensor.double", "torch.Tensor.abs", "torch.Tensor.isnan",
    "torch.Tensor.isfinite", "torch.Tensor.isinf", "torch.Tensor.__eq__", "torch.Tensor.__ne__",
    "torch.Tensor.__sub__", "torch.Tensor.__le__", "torch.Tensor.__gt__", "torch.Tensor.__and__",
    "torch.Tensor.__or__", "torch.Tensor.__invert__", "torch.Tensor.__truediv__", "torch.Tensor.all",
    "torch.Tensor.any", "torch.Tensor.sum", "torch.Tensor.max", "torch.Tensor.where", "torch.Tensor.view",
    "torch.Tensor.clone", "torch.Tensor.copy_", "torch.Tensor.flatten", "torch.Tensor.contiguous",
    "torch.Tensor.pow", "torch.Tensor.mean", "torch.Tensor.sqrt", "torch.Tensor.argmax",
    "builtins.float", "builtins.int", "builtins.bool", "builtins.abs", "builtins.max", "builtins.min",
    "builtins.isinstance", "builtins.type", "builtins.len", "builtins.all", "builtins.any", "builtins.zip",
    "threading.Thread", "threading.enumerate",
)


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


@dataclass
class Verified:
    """What timing needs from a passed verification."""

    candidate: object
    input_sets: list[InputSet]
    reference_outputs: list[list]  # per input set, kept alive
    tolerance: list[Tolerance]


class _Rejected(Exception):
    def __init__(self, check: Check):
        super().__init__(check.message)
        self.check = check


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


# ---- comparing -----------------------------------------------------------------------------------

@dataclass
class Comparison:
    ok: bool
    kind: str  # "values" | "nan"
    message: str
    max_error: float
    ratio: float  # largest error as a fraction of the allowed error


COMPARE_CHUNK = 1 << 20  # elements per float64 pass: the temporaries stay in a CPU's caches


def compare(out, ref, tolerance: Tolerance) -> Comparison:
    """|out - ref| <= atol + rtol*|ref| in float64, atol = atol_rel x RMS of the reference's finite
    values; NaN where the reference has none, and infinities that differ, fail first."""
    import torch

    out_flat, ref_flat = out.detach().reshape(-1), ref.detach().reshape(-1)
    all_finite = bool(out_flat.isfinite().all()) and bool(ref_flat.isfinite().all())
    if not all_finite:
        new_nan = int((out_flat.isnan() & ~ref_flat.isnan()).sum())
        if new_nan:
            return Comparison(False, "nan", f"{new_nan} of {out.numel()} values are NaN where the reference has "
                                            f"none", float("inf"), float("inf"))
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
    atol = tolerance.atol_rel * (rms if rms > 0 else 1.0)
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
                          f"{tolerance.rtol:.2g}*|ref|)", max_error, ratio)
    return Comparison(True, "values", "", max_error, ratio)


def _count_out_of_tolerance(out_flat, ref_flat, rtol: float, atol: float) -> int:
    import torch

    bad = 0
    for start in range(0, ref_flat.numel(), COMPARE_CHUNK):
        o = out_flat[start:start + COMPARE_CHUNK].to(torch.float64)
        r = ref_flat[start:start + COMPARE_CHUNK].to(torch.float64)
        bad += int(((o - r).abs().nan_to_num(nan=0.0) > atol + rtol * r.abs()).sum())
    return bad


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


def _tolerances(spec: Spec, reference_outputs: list) -> list[Tolerance]:
    """One per output: the contract's, or (no spec outputs) the strict default of its dtype."""
    from hiera_core.contract import TOLERANCES, dtype_name

    if len(spec.outputs) == len(reference_outputs):
        return [spec.tolerance[o.name] for o in spec.outputs]
    found = []
    for out in reference_outputs:
        rtol, atol_rel, label = TOLERANCES.get(dtype_name(out.dtype), (0.0, 0.0, "exact"))
        found.append(Tolerance(rtol=rtol, atol_rel=atol_rel, atol=atol_rel, note=label))
    return found


# ---- poisoned allocations ------------------------------------------------------------------------

class _Poison:
    """Memory a call allocates holds a known pattern, so an output it never wrote is recognised."""

    def __init__(self, device: str, output_bytes: list[int]):
        self.device = device
        self.output_bytes = output_bytes
        self.byte = POISON_BYTE[device]
        self.mallopt = None
        if device == "cpu":
            libc = ctypes.CDLL(None)
            if hasattr(libc, "gnu_get_libc_version") and hasattr(libc, "mallopt"):
                self.mallopt = libc.mallopt  # glibc only; elsewhere the value checks catch such outputs

    def __enter__(self) -> "_Poison":
        import torch

        if self.device == "cuda":
            # Every block the caching allocator could hand out holds the poison: release the free
            # segments, fill the free blocks left in segments still in use (they hold stale data:
            # intermediates, maybe a result for the same inputs), and add a poisoned small-pool
            # segment (requests <= 1 MiB) and a large block bigger than every output.
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
            device, stream = torch.cuda.current_device(), torch.cuda.current_stream().cuda_stream
            sizes = [block["size"] for segment in torch.cuda.memory_snapshot()
                     if segment.get("device", device) == device and segment["stream"] == stream
                     and tuple(segment.get("segment_pool_id", (0, 0))) == (0, 0)  # the default pool
                     for block in segment["blocks"] if block["state"] == "inactive"]
            sizes += [2**20, 2**20, 2 * max(self.output_bytes, default=0) + 20 * 2**20]
            blocks = [torch.empty(size, dtype=torch.uint8, device="cuda") for size in sizes]
            for block in blocks:
                block.fill_(self.byte)
            del blocks
        elif self.mallopt is not None:
            self.mallopt(M_PERTURB, self.byte ^ 0xFF)
        return self

    def __exit__(self, *exc) -> None:
        if self.mallopt is not None:
            self.mallopt(M_PERTURB, 0)

    def unwritten(self, out) -> int:
        """How many elements of a floating-point output still hold the poison bytes."""
        import torch

        if not out.is_floating_point() or out.numel() == 0:
            return 0
        width = out.element_size()
        as_int = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[width]
        pattern = int.from_bytes(bytes([self.byte]) * width, "little", signed=width > 1)
        return int((out.detach().contiguous().view(as_int) == pattern).sum())


# ---- the harness's own functions and the candidate's threads -------------------------------------

def _lookup(label: str):
    root, *attributes = label.split(".")
    value = importlib.import_module(root)
    for attribute in attributes:
        value = getattr(value, attribute)
    return value


def _harness_snapshot() -> dict[str, object]:
    return {label: _lookup(label) for label in HARNESS_FUNCTIONS}


def _patched(snapshot: dict[str, object]) -> Check | None:
    for label, original in snapshot.items():
        try:
            current = _lookup(label)
        except AttributeError:
            current = None
        if current is not original:
            name, message = patch_check(label)
            return Check(name, False, f"{message} (found at run time)")
    return None


def _candidate_threads(path: str) -> list[str]:
    """Threads still running code from the candidate's file."""
    found = []
    for thread in threading.enumerate():
        function = getattr(thread, "_target", None) or type(thread).run
        code = getattr(function, "__code__", None)
        if code is not None and os.path.abspath(code.co_filename) == path:
            found.append(thread.name)
    return found


# ---- the verifier --------------------------------------------------------------------------------

def _free_memory(device: str) -> int:
    import torch

    from hiera_core.timing import available_host_memory

    return torch.cuda.mem_get_info()[0] if device == "cuda" else available_host_memory()


class _Session:
    """One verification: the reference's results, the candidate as loaded, and how to call it."""

    def __init__(self, task: Task, spec: Spec, candidate_path: str, device: str, reference, input_list,
                 reference_outputs, result: Verification):
        self.task = task
        self.spec = spec
        self.path = os.path.abspath(candidate_path)
        self.device = device
        self.reference = reference
        self.input_list = input_list
        self.reference_outputs = reference_outputs
        self.tolerance = _tolerances(spec, reference_outputs[0])
        self.poison = _Poison(device, [sum(o.numel() * o.element_size() for o in outs) for outs in reference_outputs])
        self.result = result
        self.harness = _harness_snapshot()
        self.loads = 0
        self.kept: list[list] = []  # trials' inputs, alive so that no two trials share an address
        self.keep_bytes = 0.25 * _free_memory(device)

    def load(self):
        """Import the candidate (afresh: a new module) and build ModelNew with the reference's weights."""
        import torch

        self.loads += 1
        try:
            module = import_candidate(self.path, f"hiera_candidate_{os.getpid()}_{self.loads}")
        except Exception as error:  # noqa: BLE001 - the candidate's own failure
            raise _Rejected(Check("load", False, f"importing the candidate raised {type(error).__name__}: "
                                                 f"{error}"[:600])) from None
        model_class = getattr(module, "ModelNew", None)
        if not isinstance(model_class, type):
            raise _Rejected(Check("load", False, "the candidate file defines no class ModelNew"))
        try:
            torch.manual_seed(0)
            with torch.device(self.device):
                candidate = model_class(*self.task.make_init())
            candidate = candidate.to(self.device).eval()
            candidate.load_state_dict(self.reference.state_dict())
        except Exception as error:  # noqa: BLE001
            raise _Rejected(Check("construct", False, f"ModelNew(*init) / load_state_dict raised "
                                                      f"{type(error).__name__}: {error}"[:600])) from None
        self._no_patching()
        return candidate

    def fresh_inputs(self, input_set: InputSet) -> list:
        """A copy of the set at addresses no earlier trial used: earlier trials' copies stay alive,
        within a quarter of the memory free at the start (beyond that the oldest are let go)."""
        import torch

        fresh = clone_inputs(input_set.inputs)
        self.kept.append(fresh)
        size = sum(x.numel() * x.element_size() for x in fresh if isinstance(x, torch.Tensor))
        while len(self.kept) > 1 and size * len(self.kept) > self.keep_bytes:
            self.kept.pop(0)
        return fresh

    def call(self, candidate, inputs: list, input_set: InputSet, around=None) -> list:
        """One call on poisoned memory; its outputs as a list (exceptions and odd returns rejected).
        `around`: a context manager entered just around the forward (the profiler)."""
        import torch

        where = input_set.describe()
        try:
            with self.poison, torch.no_grad(), around or contextlib.nullcontext():
                out = candidate(*inputs)
                if self.device == "cuda":
                    torch.cuda.synchronize()
        except Exception as error:  # noqa: BLE001
            name = "oom" if isinstance(error, (torch.OutOfMemoryError, MemoryError)) \
                or "can't allocate memory" in str(error).lower() else "runs"
            raise _Rejected(Check(name, False, f"forward raised {type(error).__name__}: {str(error)[:400]}",
                                  where)) from None
        threads = _candidate_threads(self.path)
        if threads:
            raise _Rejected(Check("threads", False, f"threads started by the candidate still run after forward "
                                                    f"returned: {', '.join(threads)}", where))
        self._no_patching()
        outs = outputs_as_list(out) if isinstance(out, (torch.Tensor, tuple, list)) else [out]
        if len(outs) != len(self.tolerance) or not all(isinstance(o, torch.Tensor) for o in outs):
            raise _Rejected(Check("output-type", False, f"returned {[type(o).__name__ for o in outs]}, the reference "
                                                        f"returns {len(self.tolerance)} tensor(s)", where))
        return outs

    def _no_patching(self) -> None:
        patched = _patched(self.harness)
        if patched:
            raise _Rejected(patched)

    def judge(self, outs: list, ref_outs: list, inputs: list, input_set: InputSet) -> None:
        """Every per-call check of one call's outputs; raises _Rejected on the first failure."""
        import torch

        where = input_set.describe()
        for index, (out, ref) in enumerate(zip(outs, ref_outs)):
            if type(out) is not torch.Tensor:
                raise _Rejected(Check("tensor-subclass", False, f"output {index} is a {type(out).__name__}, "
                                                                f"not a plain tensor", where))
            if out.shape != ref.shape:
                raise _Rejected(Check("shape", False, f"output {index} has shape {list(out.shape)}, expected "
                                                      f"{list(ref.shape)}", where))
            if out.dtype != ref.dtype:
                raise _Rejected(Check("dtype", False, f"output {index} is {out.dtype}, expected {ref.dtype}", where))
            if out.device.type != self.device:
                raise _Rejected(Check("device", False, f"output {index} is on {out.device}, expected "
                                                       f"{self.device}", where))
        names = forward_parameter_names(self.task)
        mutated = [names[i] if i < len(names) else f"arg{i}"
                   for i, (after, before) in enumerate(zip(inputs, input_set.inputs))
                   if isinstance(after, torch.Tensor) and not tensors_equal(after, before)]
        allowed = set(self.spec.mutated_inputs or [])
        if any(name not in allowed for name in mutated):
            raise _Rejected(Check("input-mutation", False, f"forward modified its input(s) {mutated}; the reference "
                                                           f"leaves them unchanged", where))
        for index, (out, ref, tolerance) in enumerate(zip(outs, ref_outs, self.tolerance)):
            unwritten = self.poison.unwritten(out)
            if unwritten:
                raise _Rejected(Check("uninitialized-output", False, f"output {index}: {unwritten} of {out.numel()} "
                                      f"values are the poison pattern freshly allocated memory was filled with: the "
                                      f"output was never written (e.g. torch.empty returned without computing into it)",
                                      where))
            comparison = compare(out, ref, tolerance)
            if not comparison.ok:
                trivial = _trivial(out, ref, inputs) if comparison.kind == "values" else None
                raise _Rejected(Check("trivial-output" if trivial else comparison.kind, False,
                                      f"output {index}: {trivial + '; ' if trivial else ''}{comparison.message}",
                                      where, comparison.max_error))
            self.result.max_abs_error = max(self.result.max_abs_error, comparison.max_error)
            self.result.max_rel_error = max(self.result.max_rel_error, comparison.ratio)

    def run_and_judge(self, candidate, input_set: InputSet, ref_outs: list, inputs: list | None = None,
                      after_calls: bool = True) -> list:
        """One checked call; a failure after earlier calls goes through `diagnose`."""
        inputs = self.fresh_inputs(input_set) if inputs is None else inputs
        try:
            outs = self.call(candidate, inputs, input_set)
            self.judge(outs, ref_outs, inputs, input_set)
        except _Rejected as rejected:
            raise self.diagnose(rejected, input_set, ref_outs) if after_calls else rejected from None
        return outs

    def diagnose(self, rejected: _Rejected, input_set: InputSet, ref_outs: list) -> _Rejected:
        """A failure after earlier calls: `state` when a freshly imported candidate passes the same set."""
        try:
            self.run_and_judge(self.load(), input_set, ref_outs, after_calls=False)
        except Exception:  # noqa: BLE001 - the fresh candidate fails too (or cannot load again): keep the original
            return rejected
        original = rejected.check
        return _Rejected(Check("state", False, f"after earlier calls, {original.name} failed ({original.message}); "
                                               f"a freshly imported candidate passes the same inputs: the result "
                                               f"depends on earlier calls (state kept between calls, e.g. a cache "
                                               f"keyed on input addresses or shapes, or a call counter) or is not "
                                               f"deterministic",
                               original.reproducer, original.max_error))


def _reference_runs(task: Task, reference, device: str, count: int) -> tuple[list[InputSet], list[list]]:
    """Input sets and the reference's outputs on them. A mixed-sign set on which the reference gives
    non-finite values its own inputs do not (log, sqrt of negatives) is swapped for its sign-keeping twin."""
    sets = input_sets(task, device, count=count)
    outputs = []

    def finite(outs: list) -> bool:
        return all(bool(o.isfinite().all()) for o in outs if o.is_floating_point())

    for index, input_set in enumerate(sets):
        outs = outputs_as_list(task.run_forward(reference, clone_inputs(input_set.inputs)))
        if not input_set.keeps_sign and not finite(outs) and finite(outputs[0]):
            sets[index] = input_set = with_signs_kept(task, device, input_set)
            outs = outputs_as_list(task.run_forward(reference, clone_inputs(input_set.inputs)))
        outputs.append(outs)
    return sets, outputs


def static_verification(candidate_source: str, space: str, reference_class: str, first_line: int) -> Verification:
    """The static checks alone (pure, no torch): passed, or failed with one check per problem."""
    problems = check_candidate(candidate_source, space, reference_class, first_line)
    if problems:
        return Verification(False, [Check(p.check, False, f"line {p.line}: {p.message}") for p in problems])
    return Verification(True, [Check("static", True, f"{space} space: no fallback, threads, patching, tensor "
                                                     f"subclasses or introspection")])


def verify(task: Task, spec: Spec, candidate_path: str, candidate_source: str, first_line: int,
           space: str, device: str, sets: int = 5, profiler: bool = True) -> tuple[Verification, Verified | None]:
    """Verify; returns (verification, what timing needs when it passed). `profiler=False` leaves out the
    profiler-based reference-ops check (under compute-sanitizer, which holds CUPTI itself)."""
    result = static_verification(candidate_source, space, task.class_name, first_line)
    if not result.passed:
        return result, None
    result.passed = False
    reference = task.build_model(device, seed=0)
    input_list, reference_outputs = _reference_runs(task, reference, device, sets)
    result.sets_checked = [s.describe() for s in input_list]
    session = _Session(task, spec, candidate_path, device, reference, input_list, reference_outputs, result)
    try:
        candidate = session.load()
        result.checks.append(Check("load", True))
        _check_sets(session, candidate)
        result.input_sets = len(input_list)
        result.checks.append(Check("values", True, f"{len(input_list)} input sets within tolerance: output type, "
                                                   f"shape, dtype, device, NaN, non-trivial"))
        result.checks.append(Check("input-mutation", True))
        result.checks.append(Check("uninitialized-output", True, "no output holds poisoned memory"))
        if space == "custom_cuda" and profiler:
            _check_reference_ops(session, candidate)
            result.checks.append(Check("reference-ops", True, "no fallback to the reference's torch ops"))
        _check_repeats(session, candidate)
    except _Rejected as rejected:
        result.checks.append(rejected.check)
        return result, None
    result.passed = True
    return result, Verified(candidate, input_list, reference_outputs, session.tolerance)


def _check_sets(session: _Session, candidate) -> None:
    for index, (input_set, ref_outs) in enumerate(zip(session.input_list, session.reference_outputs)):
        session.run_and_judge(candidate, input_set, ref_outs, after_calls=index > 0)


def _check_reference_ops(session: _Session, candidate) -> None:
    """A custom-kernel candidate may call libraries (cuBLAS/cuDNN) and views, but must not re-run, as
    torch ops, most of the reference's own computation, nor all of it."""
    from torch.profiler import ProfilerActivity, profile

    from hiera_core.opkinds import kind_of_name

    input_set, ref_outs = session.input_list[0], session.reference_outputs[0]
    inputs = session.fresh_inputs(input_set)
    prof = profile(activities=[ProfilerActivity.CPU])
    try:
        outs = session.call(candidate, inputs, input_set, around=prof)
        session.judge(outs, ref_outs, inputs, input_set)
    except _Rejected as rejected:
        raise session.diagnose(rejected, input_set, ref_outs) from None
    ran = {event.name for event in prof.events() if event.name.startswith("aten::")}
    compute = [op for op in session.spec.ops if kind_of_name(op.op) not in ("view", "copy", "other")]
    rerun = [op for op in compute if op.op in ran]
    own_share = sum(op.share for op in compute if op.kind not in LIBRARY_KINDS)
    rerun_share = sum(op.share for op in rerun if op.kind not in LIBRARY_KINDS)
    if rerun and (len(rerun) == len(compute) or own_share and rerun_share >= 0.5 * own_share):
        listed = ", ".join(f"{op.op} ({100 * op.share:.0f}%)" for op in rerun)
        raise _Rejected(Check("reference-ops", False, f"a custom-kernel candidate runs the reference's own torch ops "
                                                      f"for {'all' if len(rerun) == len(compute) else 'most'} of its "
                                                      f"computation: {listed} of the reference's time; implement them "
                                                      f"in kernels, or submit it in the pytorch space",
                              input_set.describe()))


def _check_repeats(session: _Session, candidate) -> None:
    """Set A twice (same result, the first not overwritten); then set B written into the second call's
    tensors (same addresses) and A again at new ones: each must match its own reference."""
    first_set, first_refs = session.input_list[0], session.reference_outputs[0]
    where = first_set.describe()
    first = session.run_and_judge(candidate, first_set, first_refs)
    kept = [o.clone() for o in first]
    shared = session.fresh_inputs(first_set)
    second = session.run_and_judge(candidate, first_set, first_refs, shared)
    if not all(tensors_equal(a, b) for a, b in zip(first, kept)):
        raise _Rejected(Check("output-reuse", False, "the second call overwrote the first call's output (outputs "
                                                     "must be fresh tensors, not a buffer the module reuses)", where))
    for a, b, tolerance in zip(first, second, session.tolerance):
        comparison = compare(b, a, tolerance)
        if not comparison.ok:
            raise _Rejected(Check("determinism", False, f"two calls on the same inputs differ: {comparison.message}",
                                  where, comparison.max_error))
    session.result.checks.append(Check("output-reuse", True))
    session.result.checks.append(Check("determinism", True))
    other = next((index for index, s in enumerate(session.input_list[1:], start=1)
                  if _same_layout(s.inputs, first_set.inputs)), None)
    if other is None:
        return
    other_set, other_refs = session.input_list[other], session.reference_outputs[other]
    for tensor, value in zip(shared, other_set.inputs):
        if hasattr(tensor, "copy_"):
            tensor.copy_(value)
    session.run_and_judge(candidate, other_set, other_refs, shared)
    session.run_and_judge(candidate, first_set, first_refs)
    session.result.checks.append(Check("state", True, f"set {other_set.seed} in the tensors set {first_set.seed} "
                                                      f"was just computed from, then {first_set.seed} again: each "
                                                      f"matches its reference"))


def _same_layout(a: list, b: list) -> bool:
    import torch

    return len(a) == len(b) and all(
        (x.shape, x.dtype, x.stride()) == (y.shape, y.dtype, y.stride()) if isinstance(x, torch.Tensor)
        else not isinstance(y, torch.Tensor) and x == y for x, y in zip(a, b))


# ---- judging the timing --------------------------------------------------------------------------

# Back-to-back calls keeping the device busy beyond this multiple of what the call's GPU work on
# the timed stream (events) and the host's queueing explain: GPU work the timed stream never waited for.
HOST_EXCESS_RATIO = 1.5
HOST_EXCESS_SLACK_MS = 0.02


def timing_checks(spec: Spec, device: str, timed, baseline, last_output, verified: Verified,
                  exact_rewrite: bool = False) -> list[Check]:
    """Checks on a candidate's timing: all streams waited for (GPU), not faster than the roofline bound
    (GPU, on the device the bound is for; for an engine's exact rewrite, the bytes any implementation
    moves), and the output of the last timed call still right."""
    import torch

    from hiera_core import gpus

    where = verified.input_sets[0].describe()
    checks = []
    if device == "cuda":
        here = gpus.match_name(torch.cuda.get_device_name())
        checks.append(streams_check(timed, where))
        roofline = roofline_check(spec, timed, baseline, here.key if here else None, where, exact_rewrite)
        if roofline is not None:
            checks.append(roofline)
        if not all(check.passed for check in checks):
            return checks
    checks.append(_revalidation(last_output, verified, where))
    return checks


def streams_check(timed, where: str) -> Check:
    """Back-to-back calls, waited for on every stream, take far longer each than the call's GPU work
    on the timed stream (events) and the host's time to queue it: GPU work the timed stream never
    waited for. A host-bound call takes as long as its queueing, a GPU-bound one as its events."""
    explained = max(timed.gpu_median_ms, timed.host_queue_ms)
    if timed.host_median_ms > HOST_EXCESS_RATIO * explained + HOST_EXCESS_SLACK_MS:
        return Check("streams", False, f"back-to-back calls keep the device busy {timed.host_median_ms:.4g} ms per "
                                       f"call, {timed.host_median_ms / max(explained, 1e-9):.1f}x what the call's "
                                       f"GPU work on the timed stream ({timed.gpu_median_ms:.4g} ms, CUDA events) and "
                                       f"queueing it ({timed.host_queue_ms:.4g} ms) take: the candidate does GPU "
                                       f"work the timed stream does not wait for (side streams)", where)
    return Check("streams", True, f"{timed.host_median_ms:.4g} ms/call back to back; events {timed.gpu_median_ms:.4g} ms, "
                                  f"queueing {timed.host_queue_ms:.4g} ms")


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
    if device_key != spec.roofline.device or bound <= 0 or (baseline is not None and _gpu_ms(baseline) < bound):
        return None
    if _gpu_ms(timed) < bound:
        return Check("roofline", False, f"GPU time {_gpu_ms(timed):.4g} ms is faster than {what}, {bound:.4g} ms "
                                        f"on {spec.roofline.device_name}" + ("" if exact_rewrite else
                                        " (FLOPs and bytes at peak rates)") + ": the timing cannot be real", where)
    return Check("roofline", True, f"{100 * bound / timed.median_ms:.0f}% of {what}")


def _gpu_ms(timed) -> float:
    """The call's GPU time: its CUDA-event median, the median where the timing has none."""
    return timed.gpu_median_ms if timed.gpu_median_ms is not None else timed.median_ms


def _revalidation(last_output, verified: Verified, where: str) -> Check:
    import torch

    ref_outs = verified.reference_outputs[0]
    outs = outputs_as_list(last_output) if isinstance(last_output, (torch.Tensor, tuple, list)) else [last_output]
    if len(outs) != len(ref_outs) or not all(type(o) is torch.Tensor and o.shape == r.shape and o.dtype == r.dtype
                                             for o, r in zip(outs, ref_outs)):
        problem = Comparison(False, "values", "it returned outputs of another type, shape or dtype",
                             float("inf"), float("inf"))
    else:
        problem = next((c for c in (compare(o, r, t) for o, r, t in zip(outs, ref_outs, verified.tolerance))
                        if not c.ok), None)
    if problem:
        return Check("revalidation", False, f"the output of the last timed call is wrong although verification "
                                            f"passed: {problem.message}", where, problem.max_error)
    return Check("revalidation", True, "the last timed call's output matches the reference")


# ---- compute-sanitizer ---------------------------------------------------------------------------

SANITIZER_TOOLS = ("memcheck", "racecheck")
SANITIZER_ERROR_EXIT = 86
SANITIZER_PADDING_BYTES = 4096


def find_compute_sanitizer() -> str | None:
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        candidate = os.path.join(home, "bin", "compute-sanitizer") if home else ""
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def sanitize(tool: str, request: dict, *, timeout_s: float, log_path: Path, python: str | None = None) -> Check:
    """Re-run the verification (a few input sets, no timing) in a worker under `compute-sanitizer
    --tool TOOL`; any error it reports fails the check. Without the caching allocator under memcheck,
    so an access past a tensor's end is past an allocation's end."""
    from hiera_core.isolate import PACKAGE_ROOT, kill_group, log_tail

    sanitizer = find_compute_sanitizer()
    if sanitizer is None:
        raise HieraError("--sanitize needs compute-sanitizer (CUDA toolkit) on PATH or under $CUDA_HOME/bin",
                         kind="usage", hint="install the CUDA toolkit, or drop --sanitize")
    with tempfile.TemporaryDirectory(prefix="hiera-sanitize-") as folder:
        request_path = Path(folder) / "request.json"
        result_path = Path(folder) / "result.json"
        report_path = Path(folder) / "sanitizer.txt"
        request_path.write_text(json.dumps({**request, "op": "evaluate", "time": False, "sets": 2, "profiler": False}),
                                encoding="utf-8")
        env = {name: value for name, value in os.environ.items() if name != "OPENAI_API_KEY"}  # as run_worker
        env["PYTHONPATH"] = PACKAGE_ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        if tool == "memcheck":
            env["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"
        command = [sanitizer, "--tool", tool, "--report-api-errors", "no", "--print-limit", "20",
                   "--error-exitcode", str(SANITIZER_ERROR_EXIT), "--log-file", str(report_path)]
        if tool == "memcheck" and _sanitizer_has_padding(sanitizer):
            # cudaMalloc packs allocations back to back: a read one element past a tensor's end lands
            # in its neighbour, which memcheck counts as valid unless a padding buffer sits between.
            command += ["--padding", str(SANITIZER_PADDING_BYTES)]
        command += [python or sys.executable, "-m", "hiera_core.worker", str(request_path), str(result_path)]
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(log_path, "ab") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       env=env, start_new_session=True)
            try:
                code = process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                return Check(tool, False, f"compute-sanitizer --tool {tool} did not finish within {timeout_s:.0f} s")
            finally:
                kill_group(process)
        report = report_path.read_text(encoding="utf-8", errors="replace") if report_path.exists() else ""
        sets = ""
        if result_path.exists():
            payload = json.loads(result_path.read_text(encoding="utf-8"))
            if payload.get("ok"):
                sets = "; ".join(payload["result"]["verification"]["sets_checked"])
    errors = _sanitizer_errors(report)
    if errors:
        findings = [line.strip("= ").strip() for line in report.splitlines()
                    if re.match(r"=+\s+(Invalid|Race|Error:|Uninitialized|Barrier|Warning:)", line)]
        return Check(tool, False, f"{errors} error(s): " + " | ".join(dict.fromkeys(findings))[:700], sets)
    if code != 0 or errors is None:
        return Check(tool, False, f"the worker under compute-sanitizer exited with code {code} without an error "
                                  f"summary: {log_tail(log_path, 8)}"[:800], sets)
    return Check(tool, True, f"compute-sanitizer --tool {tool}: no errors", sets)


@functools.lru_cache(maxsize=None)
def _sanitizer_has_padding(sanitizer: str) -> bool:
    try:
        usage = subprocess.run([sanitizer, "--help"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "--padding" in usage


def _sanitizer_errors(report: str) -> int | None:
    """The error count of compute-sanitizer's summary line (memcheck: `ERROR SUMMARY: N errors`;
    racecheck: `RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)`); None without one."""
    match = (re.search(r"ERROR SUMMARY:\s*(\d+)\s+error", report)
             or re.search(r"RACECHECK SUMMARY:.*?\((\d+)\s+errors?,", report))
    return int(match.group(1)) if match else None


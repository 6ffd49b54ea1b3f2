"""The judge: verifies and times a candidate that runs in another process, and decides.

This process never imports candidate code. It builds the reference, draws the run's seeds,
computes the reference's outputs, sends inputs to the candidate's runner (hiera_core.worker.runner)
and compares what comes back (hiera_core.verify.calls); it times the reference itself, by the same
steps the runner times the candidate by (hiera_core.profile.steps.BatchTimer), alternating the two
so that drift falls on both, and holds the runner's reported times to the wall clock it measures
itself (hiera_core.verify.paired_timing). A runner that ends, stops answering or says something
the protocol does not allow is rejected. The checklist and why each check exists: docs/verification.md.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import TYPE_CHECKING

from hiera_core.spec.memory import tensor_bytes
from hiera_core.spec.model import Spec
from hiera_core.task.load import Task, outputs_as_list
from hiera_core.verify.calls import CheckedCalls, ReferenceCall
from hiera_core.verify.footprint import SET_COPIES, Footprint, footprint_of
from hiera_core.verify.inputs import InputSet, SetRecipe, clone_inputs, draw_set, set_recipes, tensors_equal
from hiera_core.verify.paired_timing import (
    TIMING_SETS,
    LocalSide,
    PairedTiming,
    RemoteSide,
    TimedPair,
    significance,
    timing_checks,
)
from hiera_core.verify.perturb import perturbed_state
from hiera_core.verify.runner_process import Rejected
from hiera_core.verify.verdicts import LIBRARY_KINDS, Check, compare, tolerances_for
from hiera_core.worker.messages import Argument, AuditRequest, ReleaseRequest, ResendRequest, TimingSetsRequest

if TYPE_CHECKING:
    from hiera_core.worker.requests import EvaluateResult

PERTURBED_SETS = ("task", "offset")  # distributions of the sets run with perturbed parameters


class Judge(CheckedCalls):
    """One candidate's verification and timing against the reference."""

    def __init__(self, task: Task, spec: Spec, candidate_path: str, space: str, device: str, seed: int,
                 cpu_threads: int | None = None):
        super().__init__(task, spec, candidate_path, space, device, seed, cpu_threads)
        self.reference_ops: dict[str, int] = {}
        self.first_outputs: list = []
        self.timed_model, self.timed_slot = self.reference, "main"  # the perturbed ones once checked
        self.footprint = Footprint(0, None)  # measured on the first set (hiera_core.verify.footprint)

    # ---- the checklist -----------------------------------------------------------------------------

    def verify(self, sets: int, profiler: bool) -> bool:
        import torch

        from hiera_core.events import stopwatch

        result, seconds = self.result, self.seconds
        base_seed = self.seed
        with stopwatch(seconds, "reference_runs"):
            recipes = set_recipes(self.task, count=sets, base_seed=base_seed)
            first = self._reference_run(self.reference, draw_set(self.task, self.device, recipes[0]))
            self.plan_memory(first, len(recipes))
            references = [first] if self.lean else \
                [first] + [self._reference_run(self.reference, draw_set(self.task, self.device, recipe), first)
                           for recipe in recipes[1:]]
        if self.lean:
            result.checks.append(Check("memory", True, f"one input set on the device at a time "
                                                       f"({self.footprint.describe()})"))
        result.sets_checked = [self.describe(r.input_set) for r in references]
        self.tolerance = tolerances_for(self.spec, first.outputs)
        self.largest_output_bytes = max(tensor_bytes(r.outputs) for r in references)
        with stopwatch(seconds, "runner_start"):
            self.started()
        try:
            with stopwatch(seconds, "candidate_load"):
                self.load("main", self.initial_state)
                self._audit("importing the candidate")
            result.checks.append(Check("load", True))
            for index, reference in enumerate(self._each_reference(references, recipes)):
                with stopwatch(seconds, "first_call" if index == 0 else "other_sets"):
                    outs = self.run_checked("main", reference, f"v{index}", first=index == 0,
                                            profile=index == 0 and profiler, after_calls=index > 0)
                if index == 0:
                    self.first_outputs = self._kept(outs)
                elif self.lean:
                    del outs, reference
                    self.ask(ReleaseRequest(call_ids=[f"v{index}"]), doing="releasing outputs")
            result.input_sets = len(recipes)
            result.checks.append(Check("values", True, f"{len(recipes)} input sets within tolerance: output type, "
                                                       f"shape, dtype, device, NaN, non-trivial (run seed {self.seed})"))
            result.checks.append(Check("input-mutation", True, "inputs left as the reference leaves them"))
            result.checks.append(Check("uninitialized-output", True, "no output holds poisoned memory"))
            result.checks.append(Check("aliasing", True, "outputs share storage as the reference's do"))
            self._check_kept_output("v0", self.first_outputs, first)
            self.first_outputs = []
            self.ask(ReleaseRequest(call_ids=[f"v{index}" for index in range(len(recipes))]),
                     doing="releasing outputs")
            if profiler:
                with stopwatch(seconds, "reference_ops"):
                    self._check_reference_ops(first)
            with stopwatch(seconds, "repeats"):
                self._check_repeats(first, self._same_layout_set(first, references, recipes))
            del references
            with stopwatch(seconds, "perturbed"):
                self._check_perturbed_parameters()
            self._audit("the calls")
        except Rejected as rejected:
            result.checks.append(rejected.check)
            return False
        finally:
            if self.device == "cuda":
                torch.cuda.synchronize()
        result.passed = True
        return True

    def run_checked(self, slot: str, reference: ReferenceCall, call_id: str, *, first: bool = False,
                    profile: bool = False, after_calls: bool = True, into: str | None = None) -> list:
        try:
            return self.checked_call(slot, reference, call_id, first=first, profile=profile, into=into)
        except Rejected as rejected:
            if not after_calls or rejected.check.name in ("timeout", "crash", "runner-exit", "runtime-state"):
                raise
            raise self.diagnose(rejected, reference) from None

    def diagnose(self, rejected: Rejected, reference: ReferenceCall) -> Rejected:
        """A failure after earlier calls: `state` when a freshly imported candidate passes the same set."""
        slot = f"fresh{self.loads}"
        try:
            self.load(slot, self.initial_state)
            self.checked_call(slot, reference, f"{slot}-diagnose", first=True)
        except Rejected:
            return rejected
        original = rejected.check
        return Rejected(Check("state", False, f"after earlier calls, {original.name} failed ({original.message}); "
                                              f"a freshly imported candidate passes the same inputs: the result "
                                              f"depends on earlier calls (state kept between calls, e.g. a cache "
                                              f"keyed on input addresses or shapes, or a call counter) or is not "
                                              f"deterministic", original.reproducer, original.max_error))

    def plan_memory(self, first: ReferenceCall, sets: int) -> None:
        """The footprint of the first set's call, and whether `sets` of them fit at once (else lean)."""
        self.footprint = footprint_of(first.input_set.inputs, first.outputs, self.device)
        self.lean = not self.footprint.fits(SET_COPIES * sets)

    def _reference_run(self, model, input_set: InputSet, first: ReferenceCall | None = None) -> ReferenceCall:
        """The reference on one set. A mixed-sign set on which the reference gives non-finite values
        where on the `first` set (the task's own values) it did not (log, sqrt of negatives) is swapped
        for its sign-keeping twin."""
        from hiera_core.verify.inputs import with_signs_kept

        call = self.reference_call(model, input_set)
        if not input_set.keeps_sign and not _finite(call.outputs) and first is not None and _finite(first.outputs):
            del call
            call = self.reference_call(model, with_signs_kept(self.task, self.device, input_set))
        return call

    def _each_reference(self, references: list[ReferenceCall], recipes: list[SetRecipe]):
        """The reference's calls on every set in turn: those held, or (lean) each drawn at its turn."""
        yield from references
        if self.lean:
            for recipe in recipes[1:]:
                call = self._reference_run(self.reference, draw_set(self.task, self.device, recipe), references[0])
                self.result.sets_checked.append(self.describe(call.input_set))
                yield call

    def _same_layout_set(self, first: ReferenceCall, references: list[ReferenceCall],
                         recipes: list[SetRecipe]) -> ReferenceCall | None:
        """Another set with the first's shapes and strides, for the state check (lean: drawn again)."""
        if not self.lean:
            return next((r for r in references[1:] if _same_layout(r.input_set.inputs, first.input_set.inputs)), None)
        for recipe in recipes[1:]:
            input_set = draw_set(self.task, self.device, recipe)
            if _same_layout(input_set.inputs, first.input_set.inputs):
                return self._reference_run(self.reference, input_set, first)
        return None

    def _audit(self, after: str) -> None:
        changes = self.ask(AuditRequest(), doing=f"auditing the process after {after}").answer.result.changes
        if changes:
            raise Rejected(self._state_check(changes, after))

    def _check_reference_ops(self, reference: ReferenceCall) -> None:
        """A custom-kernel candidate may call libraries (cuBLAS/cuDNN) and views, but must not re-run, as
        torch ops, most of the reference's own computation, nor all of it."""
        from hiera_core.spec.opkinds import kind_of_name

        self.reference_ops = profile_ops(self.task, self.reference, reference.input_set)
        if self.space != "custom_cuda":
            return
        ran = set(self.candidate_ops or {})
        compute = [op for op in self.spec.ops if kind_of_name(op.op) not in ("view", "copy", "other")]
        rerun = [op for op in compute if op.op in ran]
        own_share = sum(op.share for op in compute if op.kind not in LIBRARY_KINDS)
        rerun_share = sum(op.share for op in rerun if op.kind not in LIBRARY_KINDS)
        if rerun and (len(rerun) == len(compute) or own_share and rerun_share >= 0.5 * own_share):
            listed = ", ".join(f"{op.op} ({100 * op.share:.0f}%)" for op in rerun)
            raise Rejected(Check("reference-ops", False, f"a custom-kernel candidate runs the reference's own torch "
                                                         f"ops for {'all' if len(rerun) == len(compute) else 'most'} "
                                                         f"of its computation: {listed} of the reference's time; "
                                                         f"implement them in kernels, or submit it in the pytorch "
                                                         f"space", self.describe(reference.input_set)))
        self.result.checks.append(Check("reference-ops", True, "no fallback to the reference's torch ops"))

    def same_ops_as_reference(self) -> bool:
        return bool(self.candidate_ops) and self.candidate_ops == self.reference_ops

    def _check_repeats(self, first: ReferenceCall, other: ReferenceCall | None) -> None:
        """Set A twice (same result); every earlier output, kept alive, re-sent after later calls
        with other values (unchanged: no buffer reused for a later result); set B (`other`: A's
        shapes and strides) written into A's tensors (same addresses), then A again: each matches
        its own reference."""
        where = self.describe(first.input_set)
        again = self.run_checked("main", first, "r1")
        twice = self.run_checked("main", first, "r2", into="r1")
        for a, b, tolerance in zip(again, twice, self.tolerance):
            comparison = compare(b, a, tolerance)
            if not comparison.ok:
                raise Rejected(Check("determinism", False, f"two calls on the same inputs differ: "
                                                           f"{comparison.message}", where, comparison.max_error))
        again = self._kept(again)
        del twice
        self.result.checks.append(Check("determinism", True))
        if other is None:
            self.ask(ReleaseRequest(call_ids=["r1", "r2"]), doing="releasing outputs")
            return
        self.run_checked("main", other, "s1", into="r2")
        self._check_kept_output("r1", again, first)
        self.run_checked("main", first, "s2")
        self.result.checks.append(Check("state", True, f"set {other.input_set.seed} in the tensors set "
                                                       f"{first.input_set.seed} was just computed from, then "
                                                       f"{first.input_set.seed} again: each matches its reference"))
        self.ask(ReleaseRequest(call_ids=["r1", "r2", "s1", "s2"]), doing="releasing outputs")

    def _check_kept_output(self, call_id: str, received: list, reference: ReferenceCall) -> None:
        """An earlier call's outputs, kept alive by the runner, re-sent after later calls on other
        values: they must be what they were (no buffer reused for a later result)."""
        resent = self.ask(ResendRequest(call_id=call_id), doing="re-sending an earlier call's outputs").tensors
        # An output that is a view of an input, as the reference's is, changes with that input by design.
        if len(resent) != len(received) or not all(r.shape == o.shape and tensors_equal(r.to(o.device), o)
                                                   for r, o, alias in zip(resent, received, reference.aliases)
                                                   if alias is None or not alias.startswith("input")):
            raise Rejected(Check("output-reuse", False, "an output returned earlier changed when later calls ran on "
                                                        "other values (outputs must be fresh tensors, not a buffer "
                                                        "the module reuses)", self.describe(reference.input_set)))
        if not any(c.name == "output-reuse" for c in self.result.checks):
            self.result.checks.append(Check("output-reuse", True, "earlier outputs unchanged by later calls"))

    def _kept(self, outs: list) -> list:
        """A call's outputs to compare later calls' against: in host memory when lean (bit for bit, so
        the comparison is as exact), where they would otherwise hold a footprint on the device."""
        return [o.cpu() for o in outs] if self.lean else outs

    def _check_perturbed_parameters(self) -> None:
        """The parameters and buffers moved at their own scale (variances kept positive), loaded into a
        new reference and a freshly built candidate: a candidate specialised on the initial values
        (a zero gate, initial running statistics, a tiny scale) fails here."""
        if not self.initial_state:
            return
        state = perturbed_state(self.initial_state, self.seed)
        model = self.task.build_model(self.device, seed=0)
        model.load_state_dict(state)
        model.eval()
        self.load("perturbed", state, reimport=False)
        # Timing uses these parameters too: trained weights are never the initial ones (a guard on a
        # zero-initialised gate is honest, but its speed on the initial values tells nothing).
        self.timed_model, self.timed_slot = model, "perturbed"
        recipes = set_recipes(self.task, count=len(PERTURBED_SETS), base_seed=self.seed + 50,
                              distributions=PERTURBED_SETS)
        for index, recipe in enumerate(recipes):  # drawn at their turn: only one set is held at a time
            input_set = draw_set(self.task, self.device, recipe)
            input_set.note = "perturbed parameters"
            reference = self.reference_call(model, input_set)
            self.run_checked("perturbed", reference, f"p{index}", first=index == 0, after_calls=False)
            del reference, input_set
            self.ask(ReleaseRequest(call_ids=[f"p{index}"]), doing="releasing outputs")
        self.result.checks.append(Check("parameters", True, f"{len(recipes)} input sets with the parameters and "
                                                            f"buffers perturbed at their own scale"))

    # ---- timing ------------------------------------------------------------------------------------

    def time(self, profile: bool) -> TimedPair:
        from hiera_core.profile.steps import BatchTimer, FreshValues

        count = 1 if self.lean else TIMING_SETS
        timing_sets = [draw_set(self.task, self.device, recipe) for recipe in
                       set_recipes(self.task, count=count, base_seed=self.seed + 200, distributions=("task",) * count)]
        base = [s.inputs for s in timing_sets]
        values = FreshValues(base)
        local = LocalSide(BatchTimer(self.timed_model, values, self.device))
        sets, tensors = [], []
        for inputs in base:
            arguments = []
            for value in inputs:
                if hasattr(value, "data_ptr"):
                    arguments.append(Argument(tensor=len(tensors)))
                    tensors.append(value)
                else:
                    arguments.append(Argument(value=value))
            sets.append(arguments)
        self.ask(TimingSetsRequest(slot=self.timed_slot, sets=sets), tensors, doing="receiving the timing sets")
        remote = RemoteSide(self)
        rolls = self._rolls_keep_outputs_finite(values)
        driver = PairedTiming(local, remote, self.device, rolls, self._check_timed_output(values), self.seconds,
                              sets=count, most_calls=self.footprint.calls(20) if self.lean else None)
        baseline, candidate = driver.run()
        checks = list(driver.checks)
        if baseline is None:
            return TimedPair(None, None, checks)
        if profile:
            calls = [driver.next_call() for _ in range(5)]
            for side, timing in ((local, baseline), (remote, candidate)):
                figures, _ = side.step("profile", calls)
                timing.kernel_sum_ms = figures["kernel_sum_ms"]
                timing.kernels = figures["kernels"]
                timing.kernels_per_call = figures["kernels_per_call"]
        self._audit("timing")
        return TimedPair(baseline, candidate, checks)

    def _rolls_keep_outputs_finite(self, values) -> bool:
        """Rolled values suit most inputs; where they make the reference's outputs non-finite (a
        matrix that must stay positive definite, sorted boundaries), calls take the sets unrolled."""
        reference = outputs_as_list(self.task.run_forward(self.timed_model, values.make(0, 0)))
        rolled = outputs_as_list(self.task.run_forward(self.timed_model, values.make(0, 1 + secrets.randbelow(997))))
        return _finite(rolled) or not _finite(reference)

    def _check_timed_output(self, values):
        def check(call: tuple[int, int], outs: list) -> Check | None:
            inputs = values.make(*call)
            expected = outputs_as_list(self.task.run_forward(self.timed_model, inputs))
            shapes = [list(t.shape) for t in inputs if hasattr(t, "shape")]
            where = (f"run seed {self.seed}: timed call on timing set seed {self.seed + 200 + call[0]}, task values "
                     f"rolled by {call[1]}, shapes {shapes}")
            if len(outs) != len(expected):
                return Check("revalidation", False, "a timed call returned another number of outputs", where)
            for index, (out, ref, tolerance) in enumerate(zip(outs, expected, self.tolerance)):
                if out.shape != ref.shape or out.dtype != ref.dtype:
                    return Check("revalidation", False, "a timed call returned outputs of another shape or dtype", where)
                comparison = self.compare_output(out, ref, tolerance, self.timed_model, inputs, index)
                if not comparison.ok:
                    return Check("revalidation", False, f"the output of a timed call is wrong although verification "
                                                        f"passed: {comparison.message}", where, comparison.max_error)
            return None
        return check


# ---- helpers ------------------------------------------------------------------------------------

def profile_ops(task: Task, model, input_set: InputSet) -> dict[str, int]:
    """The aten ops one call of `model` runs, with their counts (CPU profiler)."""
    import torch

    from hiera_core.profile.harness import op_profiler
    from hiera_core.worker.runner import aten_op_counts

    inputs = clone_inputs(input_set.inputs)
    with op_profiler() as prof, torch.no_grad():
        task.run_forward(model, inputs)
    return aten_op_counts(prof)


def _finite(outs: list) -> bool:
    return all(bool(o.isfinite().all()) for o in outs if o.is_floating_point())


def _same_layout(a: list, b: list) -> bool:
    import torch

    return len(a) == len(b) and all(
        (x.shape, x.dtype, x.stride()) == (y.shape, y.dtype, y.stride()) if isinstance(x, torch.Tensor)
        else not isinstance(y, torch.Tensor) and x == y for x, y in zip(a, b))


def run_seed(requested: int | None) -> int:
    """The run's seed: the one asked for (to reproduce a failure), else drawn afresh."""
    return requested if requested is not None else secrets.randbelow(2**31 - 1000)


def evaluate(task: Task, spec: Spec, candidate_path: str, space: str, device: str, *, sets: int = 5,
             seed: int | None = None, profiler: bool = True, timed: bool = True, profile: bool = True,
             exact_rewrite: bool = False, cpu_threads: int | None = None, device_lock: str | None = None,
             alone: bool = False, on_phase=None) -> EvaluateResult:
    """Verify, then time; the worker op `evaluate`'s result (verification, baseline, candidate,
    speedup with its interval, significance, the seed, where the time went). `device_lock`: the lock file of candidates
    evaluated side by side on this device (hiera_core.worker.devicelock), None when evaluated alone;
    `alone`: verified under the exclusive lock too, nothing else on the device (a retry of one that
    ran out of memory beside others); `on_phase`: told "verify" and "time" as each phase starts (the
    candidate's progress stages)."""
    from hiera_core.events import stopwatch
    from hiera_core.worker import devicelock
    from hiera_core.worker.requests import EvaluateResult

    judge = Judge(task, spec, candidate_path, space, device, run_seed(seed), cpu_threads)
    try:
        hold = devicelock.verifying_alone if alone else devicelock.verifying
        with hold(device_lock, on_phase), stopwatch(judge.seconds, "verify"):
            passed = judge.verify(sets, profiler)
        result = EvaluateResult(verification=judge.result, seed=judge.seed, seconds=judge.seconds)
        if not passed or not timed:
            return result
        try:
            # Inside the lock: its wait (other candidates' timings) is the rest of "evaluate".
            with devicelock.timing(device_lock, on_phase), stopwatch(judge.seconds, "time"):
                pair = judge.time(profile)
        except Rejected as rejected:
            judge.result.add([rejected.check])
            return result
        if pair.baseline is None:  # a check failed while timing: no figures to report
            judge.result.add(pair.checks)
            return result
        judge.result.add(pair.checks + timing_checks(judge, pair.candidate, pair.baseline, exact_rewrite))
        counts = significance(pair.baseline, pair.candidate, judge.same_ops_as_reference())
        return replace(result, baseline=pair.baseline, candidate=pair.candidate, **vars(counts))
    finally:
        judge.close()

"""The judge: verifies and times a candidate that runs in another process, and decides.

This process never imports candidate code. It builds the reference, draws the run's seeds,
computes the reference's outputs, sends inputs to the candidate's runner (hiera_core.worker.runner)
and compares what comes back; it times the reference itself, by the same steps the runner
times the candidate by (hiera_core.profile.timing.BatchTimer), alternating the two so that drift
falls on both, and holds the runner's reported times to the wall clock it measures itself.
A runner that ends, stops answering or says something the protocol does not allow is rejected.
The checklist and why each check exists: docs/verification.md.
"""

from __future__ import annotations

import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from hiera_core.worker.channel import BadMessage, Channel, ChannelClosed, ChannelTimeout
from hiera_core.errors import HieraError
from hiera_core.verify.inputs import InputSet, clone_inputs, forward_parameter_names, input_sets, tensors_equal
from hiera_core.verify.repro import FailingInputs
from hiera_core.spec.model import Spec
from hiera_core.task.load import Task, outputs_as_list
from hiera_core.verify.verdicts import (LIBRARY_KINDS, Check, Verification, compare, patch_check_name, roofline_check,
                               streams_check, trivial_output, tolerances_for)

POISON_BYTE = {"cuda": 0xFF, "cpu": 0xFE}
PERTURBED_SETS = ("task", "offset")  # distributions of the sets run with perturbed parameters
TIMING_SETS = 2  # base sets of timed calls (each call rolls one of them anew)
FIRST_CALL_FLOOR_S = 180.0  # a compile (torch.compile, autotuning) may happen in an instance's first call
CALL_FLOOR_S = 20.0
CALL_LIMIT_RATIO = 100.0  # a later call may take this many times the reference's
# Timing steps whose wall time per call (seen here) exceeds the runner's reported time per call (its
# calls and the making of their fresh values) plus the channel's overhead (measured on empty steps)
# by more than this share of the wall time and more than the device's noise, in every step: time
# spent outside what it reports. Its reported making of values may exceed the reference's (the same
# work on the same data) by MAKE_RATIO and the noise at most.
WINDOW_SHARE = 0.3
WINDOW_SLACK_MS = {"cpu": 0.5, "cuda": 0.02}
MAKE_RATIO = 3.0
MIN_TIMED_CHECKS = 3
TAIL_CALLS = 11  # calls, each alone on an idle device, that measure the work left after the end event


class Rejected(Exception):
    def __init__(self, check: Check):
        super().__init__(check.message)
        self.check = check


@dataclass
class Reply:
    message: dict
    tensors: list
    wall_ms: float


class RunnerProcess:
    """The candidate's process and the channel to it. Started in this process's group, so whatever
    ends the judge's group ends it too; it also dies with its parent (PR_SET_PDEATHSIG)."""

    def __init__(self, folder: str, device: str):
        self.device = device
        judge_file = os.path.join(folder, "to_runner.bin")
        runner_file = os.path.join(folder, "from_runner.bin")
        for path in (judge_file, runner_file):
            with open(path, "wb"):
                pass
        to_runner_read, to_runner_write = os.pipe()
        from_runner_read, from_runner_write = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hiera_core.worker.runner", str(to_runner_read), str(from_runner_write), judge_file,
             runner_file], pass_fds=(to_runner_read, from_runner_write), stdin=subprocess.DEVNULL)
        os.close(to_runner_read)
        os.close(from_runner_write)
        self.channel = Channel(from_runner_read, to_runner_write, send_path=judge_file, receive_path=runner_file)
        self.calls = 0

    def request(self, message: dict, tensors: list | None = None, *, timeout_s: float, doing: str) -> Reply:
        started = time.perf_counter()
        try:
            self.channel.send(message, tensors)
            answer, received = self.channel.receive(timeout_s=timeout_s, device=self.device)
        except (ChannelClosed, BrokenPipeError):
            raise Rejected(self._ended(doing)) from None
        except ChannelTimeout:
            self.kill()
            raise Rejected(Check("timeout", False, f"the candidate did not answer within {timeout_s:.0f} s while "
                                                   f"{doing} and was stopped (a hang, or far slower than the "
                                                   f"reference)")) from None
        except BadMessage as error:
            self.kill()
            raise Rejected(Check("runner-exit", False, f"the candidate's process answered {doing} with what the "
                                                       f"protocol does not allow ({error})")) from None
        return Reply(answer, received, (time.perf_counter() - started) * 1000)

    def _ended(self, doing: str) -> Check:
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
            code = None
        if code is not None and code < 0:
            name = signal.Signals(-code).name
            reason = {"SIGSEGV": "crashed with a segmentation fault", "SIGABRT": "aborted",
                      "SIGKILL": "was killed (out of memory?)"}.get(name, f"was killed by {name}")
            return Check("crash", False, f"the candidate's process {reason} while {doing}")
        return Check("runner-exit", False, f"the candidate's process ended (exit code {code}) while {doing}, "
                                           f"without answering: a candidate may not end or leave its process "
                                           f"(os._exit, sys.exit, signals, closing its channel)")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        """Killed, not asked to exit: it holds nothing to save, and torch's teardown takes a second."""
        self.kill()
        self.channel.close()


@dataclass
class ReferenceCall:
    """One input set and what the reference made of it (outputs, final inputs, aliasing)."""

    input_set: InputSet
    outputs: list
    inputs_after: list
    mutated: list[int]
    aliases: list[str | None]
    model: object = None  # the module that made the outputs (the reference, or its perturbed twin)


class Judge:
    """One candidate's verification and timing against the reference."""

    def __init__(self, task: Task, spec: Spec, candidate_path: str, space: str, device: str, seed: int,
                 cpu_threads: int | None = None):
        self.task = task
        self.spec = spec
        self.path = candidate_path
        self.space = space
        self.device = device
        self.seed = seed
        self.result = Verification(False)
        self.reference_call_s = 0.0
        self.folder = tempfile.mkdtemp(prefix="hiera-judge-")
        self.runner = RunnerProcess(self.folder, device)
        # Its start (importing torch, settling the device) overlaps the reference's runs here.
        # On CPU both processes use the same intra-op threads: torch's default, or `cpu_threads` where
        # evaluations share the cores (OpenMP threads beyond the free cores stall for whole time
        # slices: beside other work a 1 ms reference op once measured 120 ms).
        threads = cpu_threads if device == "cpu" else None
        self.runner.channel.send({"op": "start", "device": device, "path": candidate_path, "address": task.address,
                                  "threads": threads})
        if threads:
            import torch

            torch.set_num_threads(threads)
        self.largest_output_bytes = 0
        try:
            self.reference = task.build_model(device, seed=0)
        except BaseException:
            self.close()
            raise
        self.initial_state = {k: v.detach().clone() for k, v in self.reference.state_dict().items()}
        self.loads = 0
        self.tolerance: list = []
        self.reference_ops: dict[str, int] = {}
        self.candidate_ops: dict[str, int] | None = None
        self.first_outputs: list = []
        self.timed_model, self.timed_slot = self.reference, "main"  # the perturbed ones once checked
        self._float64_models: dict[int, object] = {}

    def close(self) -> None:
        import shutil

        self.runner.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    # ---- talking to the runner ---------------------------------------------------------------------

    def ask(self, message: dict, tensors: list | None = None, *, doing: str, timeout_s: float | None = None) -> Reply:
        reply = self.runner.request(message, tensors, timeout_s=timeout_s or self._limit(first=False), doing=doing)
        answer = reply.message
        changes = answer.get("state_changes") or []
        if changes:
            raise Rejected(self._state_check(changes, doing))
        if answer.get("threads"):
            raise Rejected(Check("threads", False, f"threads started by the candidate still run after {doing}: "
                                                   f"{', '.join(map(str, answer['threads']))}"))
        if not answer.get("ok"):
            check = str(answer.get("check", "runs"))
            text = str(answer.get("message", ""))
            if check == "runs":
                text = f"forward raised {text}"
            raise Rejected(Check(check, False, text[:700]))
        return reply

    def started(self) -> None:
        """The answer to the start request sent when the runner was spawned."""
        try:
            answer, _ = self.runner.channel.receive(timeout_s=FIRST_CALL_FLOOR_S, device=self.device)
        except (ChannelClosed, ChannelTimeout, BadMessage):
            self.runner.kill()
            raise HieraError("the candidate's process did not start", kind="crash",
                             hint="see the worker log: importing torch or the task failed there") from None
        if not answer.get("ok"):
            raise HieraError(f"the candidate's process did not start: {answer.get('message')}", kind="crash",
                             details={"log": str(answer.get("traceback", ""))})

    def _state_check(self, changes: list, doing: str) -> Check:
        replaced = [str(change).removesuffix(" was replaced") for change in changes if str(change).endswith(" was replaced")]
        harness = next((name for name in replaced if patch_check_name(name)), None)
        if harness:
            name, message = patch_check_name(harness)
            return Check(name, False, f"{message} (found at run time, after {doing})")
        listed = "; ".join(map(str, changes[:6])) + (f"; and {len(changes) - 6} more" if len(changes) > 6 else "")
        return Check("runtime-state", False, f"after {doing}, the candidate had changed torch's state for the whole "
                                             f"process: {listed}. A candidate may set such things only inside its "
                                             f"forward and must restore them")

    def _limit(self, first: bool, calls: int = 1) -> float:
        floor = FIRST_CALL_FLOOR_S if first else CALL_FLOOR_S
        return max(floor, CALL_LIMIT_RATIO * self.reference_call_s * calls)

    def load(self, slot: str, state: dict, reimport: bool = True) -> None:
        """Build ModelNew into `slot` (importing the candidate afresh unless `reimport` is False: a
        module may register things only once per process) and load the reference's `state`."""
        self.loads += 1
        self.ask({"op": "load", "slot": slot, "seed": 0, "largest_output_bytes": self.largest_output_bytes,
                  "reimport": reimport},
                 doing="importing the candidate and building ModelNew", timeout_s=FIRST_CALL_FLOOR_S)
        names = list(state)
        reply = self.ask({"op": "load_state", "slot": slot, "names": names}, [state[n] for n in names],
                         doing="loading the reference's state_dict")
        unconsumed = reply.message.get("unexpected") or []
        if unconsumed:
            raise Rejected(Check("state-dict", False, f"ModelNew.load_state_dict(Model(...).state_dict()) left "
                                                      f"reference entries unused: {', '.join(map(str, unconsumed[:8]))}"
                                                      f". Keep the reference's parameter and buffer names (state of "
                                                      f"the candidate's own may be added), or consume them in "
                                                      f"_load_from_state_dict"))

    # ---- the reference ------------------------------------------------------------------------------

    def reference_call(self, model, input_set: InputSet) -> ReferenceCall:
        import torch

        inputs = clone_inputs(input_set.inputs)
        started = time.perf_counter()
        outs = outputs_as_list(self.task.run_forward(model, inputs))
        if self.device == "cuda":
            torch.cuda.synchronize()
        self.reference_call_s = max(self.reference_call_s, time.perf_counter() - started)
        from hiera_core.worker.runner import storage_aliases

        mutated = [i for i, (after, before) in enumerate(zip(inputs, input_set.inputs))
                   if isinstance(after, torch.Tensor) and not tensors_equal(after, before)]
        return ReferenceCall(input_set, [o.detach() for o in outs], inputs, mutated, storage_aliases(inputs, outs),
                             model)

    def compare_output(self, out, ref, tolerance, model, inputs: list, index: int):
        """`compare`; where the values differ, again with the reference's own float32 error on these
        inputs allowed for (an ill-conditioned set, on which equally precise code differs as much)."""
        import torch

        comparison = compare(out, ref, tolerance)
        if comparison.ok or comparison.kind != "values" or not ref.is_floating_point() or model is None:
            return comparison
        exact = self.float64_outputs(model, inputs)
        if exact is None or index >= len(exact) or not isinstance(exact[index], torch.Tensor) \
                or exact[index].shape != ref.shape:
            return comparison
        difference = (ref.double() - exact[index]).abs()
        difference = difference[difference.isfinite()]
        own = float(difference.max()) if difference.numel() else 0.0
        return compare(out, ref, tolerance, own) if own > 0 else comparison

    def float64_outputs(self, model, inputs: list) -> list | None:
        """The module's outputs on `inputs` with its parameters and floating inputs in float64
        (computed here, in the judge, never by the candidate); None where it cannot run so."""
        import copy

        import torch

        try:
            double = self._float64_models.get(id(model))
            if double is None:
                double = self._float64_models[id(model)] = copy.deepcopy(model).double()
            return outputs_as_list(self.task.run_forward(double, [
                v.double() if isinstance(v, torch.Tensor) and v.is_floating_point() else v
                for v in clone_inputs(inputs)]))
        except Exception:  # noqa: BLE001 - a module that only runs in its own dtype keeps the strict tolerance
            return None

    # ---- one checked call --------------------------------------------------------------------------

    def send_call(self, slot: str, input_set: InputSet, call_id: str, *, first: bool = False,
                  profile: bool = False, into: str | None = None) -> Reply:
        """One call of the candidate on the set's inputs (fresh allocations in its process)."""
        import torch

        where = self.describe(input_set)
        specs, tensors = [], []
        for value in input_set.inputs:
            if isinstance(value, torch.Tensor):
                specs.append({"tensor": len(tensors)})
                tensors.append(value)
            else:
                specs.append({"value": value})
        message = {"op": "call", "slot": slot, "id": call_id, "inputs": specs, "profile": profile}
        if into:
            message["into"] = into
        try:
            return self.ask(message, tensors, doing=f"calling forward ({where})", timeout_s=self._limit(first))
        except Rejected as rejected:
            rejected.check.reproducer = rejected.check.reproducer or where
            raise

    def checked_call(self, slot: str, reference: ReferenceCall, call_id: str, *, first: bool = False,
                     profile: bool = False, into: str | None = None) -> list:
        """Send the set's inputs, receive outputs and changed inputs, and judge them here."""
        where = self.describe(reference.input_set)
        reply = self.send_call(slot, reference.input_set, call_id, first=first, profile=profile, into=into)
        answer = reply.message
        count = answer.get("outputs")
        if not isinstance(count, int) or count != len(reference.outputs) or count > len(reply.tensors):
            raise Rejected(Check("output-type", False, f"returned {count} tensor(s), the reference returns "
                                                       f"{len(reference.outputs)}", where))
        outs, changed = reply.tensors[:count], reply.tensors[count:]
        devices = answer.get("devices") or []
        wrong = next((i for i, kind in enumerate(devices) if kind != self.device), None)
        if wrong is not None or len(devices) != count:
            raise Rejected(Check("device", False, f"output {wrong} is on {devices[wrong] if wrong is not None else '?'}"
                                                  f", expected {self.device}", where))
        mutated = answer.get("mutated") or []
        if profile:
            self.candidate_ops = {str(k): int(v) for k, v in (answer.get("ops") or {}).items()}
        self.judge_inputs(mutated, changed, reference, where)
        self.judge_outputs(outs, reference, where)
        aliases = answer.get("aliases") or [None] * count
        if list(aliases) != list(reference.aliases):
            differing = next(i for i, (a, b) in enumerate(zip(aliases, reference.aliases)) if a != b)
            raise Rejected(Check("aliasing", False, f"output {differing} "
                                 + (f"shares storage with {aliases[differing]}" if aliases[differing] else
                                    "has storage of its own")
                                 + (f", where the reference's shares storage with {reference.aliases[differing]}"
                                    if reference.aliases[differing] else ", where the reference's has its own")
                                 + ": callers that write into one see the other change", where))
        return outs

    def judge_outputs(self, outs: list, reference: ReferenceCall, where: str) -> None:
        for index, (out, ref) in enumerate(zip(outs, reference.outputs)):
            if out.shape != ref.shape:
                raise Rejected(Check("shape", False, f"output {index} has shape {list(out.shape)}, expected "
                                                     f"{list(ref.shape)}", where, inputs=self.failing_inputs(reference)))
            if out.dtype != ref.dtype:
                raise Rejected(Check("dtype", False, f"output {index} is {out.dtype}, expected {ref.dtype}", where,
                                     inputs=self.failing_inputs(reference)))
        for index, (out, ref, tolerance) in enumerate(zip(outs, reference.outputs, self.tolerance)):
            unwritten = poisoned(out, POISON_BYTE[self.device])
            if unwritten and not poisoned(ref, POISON_BYTE[self.device]):
                raise Rejected(Check("uninitialized-output", False, f"output {index}: {unwritten} of {out.numel()} "
                                     f"values are the poison pattern freshly allocated memory was filled with: the "
                                     f"output was never written (e.g. torch.empty returned without computing into it)",
                                     where))
            comparison = self.compare_output(out, ref, tolerance, reference.model, reference.input_set.inputs, index)
            if not comparison.ok:
                trivial = trivial_output(out, ref, reference.input_set.inputs) if comparison.kind == "values" else None
                raise Rejected(Check("trivial-output" if trivial else comparison.kind, False,
                                     f"output {index}: {trivial + '; ' if trivial else ''}{comparison.message}",
                                     where, comparison.max_error, self.failing_inputs(reference)))
            self.result.max_abs_error = max(self.result.max_abs_error, comparison.max_error)
            self.result.max_rel_error = max(self.result.max_rel_error, comparison.ratio)

    def judge_inputs(self, mutated: list, changed: list, reference: ReferenceCall, where: str) -> None:
        names = forward_parameter_names(self.task)

        def name(index: int) -> str:
            return names[index] if index < len(names) else f"arg{index}"

        if sorted(mutated) != sorted(reference.mutated) or len(changed) != len(mutated):
            extra = [name(i) for i in mutated if i not in reference.mutated]
            missing = [name(i) for i in reference.mutated if i not in mutated]
            raise Rejected(Check("input-mutation", False, (f"forward modified its input(s) {extra}; the reference "
                                                           f"leaves them unchanged" if extra else
                                                           f"forward left its input(s) {missing} unchanged; the "
                                                           f"reference modifies them in place"), where))
        for index, after in zip(mutated, changed):
            expected = reference.inputs_after[index]
            comparison = compare(after, expected, self.tolerance[0]) if after.shape == expected.shape \
                and after.dtype == expected.dtype else None
            if comparison is None or not comparison.ok:
                raise Rejected(Check("input-mutation", False, f"input {name(index)} ends with other values than the "
                                     f"reference leaves in it" + (f": {comparison.message}" if comparison else ""),
                                     where))

    def describe(self, input_set: InputSet) -> str:
        return f"run seed {self.seed}: {input_set.describe()}"

    def failing_inputs(self, reference: ReferenceCall) -> FailingInputs:
        """How the set was drawn and judged, for a script that draws it again (hiera_core.verify.repro)."""
        drawn = reference.input_set
        perturbed = reference.model is not None and reference.model is not self.reference
        return FailingInputs(drawn.seed, drawn.distribution, drawn.keeps_sign, drawn.dynamic_size,
                             self.seed if perturbed else None, [[t.rtol, t.atol_rel] for t in self.tolerance])

    # ---- the checklist -----------------------------------------------------------------------------

    def verify(self, sets: int, profiler: bool) -> bool:
        import torch

        result = self.result
        base_seed = self.seed
        input_list = input_sets(self.task, self.device, count=sets, base_seed=base_seed)
        references = self._reference_runs(self.reference, input_list)
        result.sets_checked = [self.describe(r.input_set) for r in references]
        self.tolerance = tolerances_for(self.spec, references[0].outputs)
        self.largest_output_bytes = max(sum(o.numel() * o.element_size() for o in r.outputs) for r in references)
        self.started()
        try:
            self.load("main", self.initial_state)
            self._audit("importing the candidate")
            result.checks.append(Check("load", True))
            for index, reference in enumerate(references):
                outs = self.run_checked("main", reference, f"v{index}", first=index == 0,
                                        profile=index == 0 and profiler, after_calls=index > 0)
                if index == 0:
                    self.first_outputs = outs
            result.input_sets = len(references)
            result.checks.append(Check("values", True, f"{len(references)} input sets within tolerance: output type, "
                                                       f"shape, dtype, device, NaN, non-trivial (run seed {self.seed})"))
            result.checks.append(Check("input-mutation", True, "inputs left as the reference leaves them"))
            result.checks.append(Check("uninitialized-output", True, "no output holds poisoned memory"))
            result.checks.append(Check("aliasing", True, "outputs share storage as the reference's do"))
            self._check_kept_output("v0", self.first_outputs, references[0])
            self.ask({"op": "release", "ids": [f"v{index}" for index in range(len(references))]},
                     doing="releasing outputs")
            if profiler:
                self._check_reference_ops(references[0])
            self._check_repeats(references)
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

    def _reference_runs(self, model, input_list: list[InputSet]) -> list[ReferenceCall]:
        """The reference on every set. A mixed-sign set on which the reference gives non-finite values
        its own inputs do not (log, sqrt of negatives) is swapped for its sign-keeping twin."""
        from hiera_core.verify.inputs import with_signs_kept

        calls = []
        for input_set in input_list:
            call = self.reference_call(model, input_set)
            if not input_set.keeps_sign and not _finite(call.outputs) and calls and _finite(calls[0].outputs):
                call = self.reference_call(model, with_signs_kept(self.task, self.device, input_set))
            calls.append(call)
        return calls

    def _audit(self, after: str) -> None:
        reply = self.ask({"op": "audit"}, doing=f"auditing the process after {after}")
        changes = reply.message.get("changes") or []
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

    def _check_repeats(self, references: list[ReferenceCall]) -> None:
        """Set A twice (same result); every earlier output, kept alive, re-sent after later calls
        with other values (unchanged: no buffer reused for a later result); set B written into
        A's tensors (same addresses), then A again: each matches its own reference."""
        first = references[0]
        where = self.describe(first.input_set)
        again = self.run_checked("main", first, "r1")
        twice = self.run_checked("main", first, "r2", into="r1")
        for a, b, tolerance in zip(again, twice, self.tolerance):
            comparison = compare(b, a, tolerance)
            if not comparison.ok:
                raise Rejected(Check("determinism", False, f"two calls on the same inputs differ: "
                                                           f"{comparison.message}", where, comparison.max_error))
        self.result.checks.append(Check("determinism", True))
        other = next((r for r in references[1:] if _same_layout(r.input_set.inputs, first.input_set.inputs)), None)
        if other is None:
            return
        self.run_checked("main", other, "s1", into="r2")
        self._check_kept_output("r1", again, first)
        self.run_checked("main", first, "s2")
        self.result.checks.append(Check("state", True, f"set {other.input_set.seed} in the tensors set "
                                                       f"{first.input_set.seed} was just computed from, then "
                                                       f"{first.input_set.seed} again: each matches its reference"))
        self.ask({"op": "release", "ids": ["r1", "r2", "s1", "s2"]}, doing="releasing outputs")

    def _check_kept_output(self, call_id: str, received: list, reference: ReferenceCall) -> None:
        """An earlier call's outputs, kept alive by the runner, re-sent after later calls on other
        values: they must be what they were (no buffer reused for a later result)."""
        resent = self.ask({"op": "resend", "id": call_id}, doing="re-sending an earlier call's outputs").tensors
        # An output that is a view of an input, as the reference's is, changes with that input by design.
        if len(resent) != len(received) or not all(r.shape == o.shape and tensors_equal(r, o)
                                                   for r, o, alias in zip(resent, received, reference.aliases)
                                                   if alias is None or not alias.startswith("input")):
            raise Rejected(Check("output-reuse", False, "an output returned earlier changed when later calls ran on "
                                                        "other values (outputs must be fresh tensors, not a buffer "
                                                        "the module reuses)", self.describe(reference.input_set)))
        if not any(c.name == "output-reuse" for c in self.result.checks):
            self.result.checks.append(Check("output-reuse", True, "earlier outputs unchanged by later calls"))

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
        input_list = input_sets(self.task, self.device, count=len(PERTURBED_SETS), base_seed=self.seed + 50,
                                distributions=PERTURBED_SETS)
        for index, input_set in enumerate(input_list):
            input_set.note = "perturbed parameters"
            reference = self.reference_call(model, input_set)
            self.run_checked("perturbed", reference, f"p{index}", first=index == 0, after_calls=False)
        self.result.checks.append(Check("parameters", True, f"{len(input_list)} input sets with the parameters and "
                                                            f"buffers perturbed at their own scale"))

    # ---- timing ------------------------------------------------------------------------------------

    def time(self, profile: bool) -> dict:
        from hiera_core.profile.timing import BatchTimer, FreshValues

        timing_sets = input_sets(self.task, self.device, count=TIMING_SETS, base_seed=self.seed + 200,
                                 distributions=("task",) * TIMING_SETS)
        base = [s.inputs for s in timing_sets]
        values = FreshValues(base)
        local = LocalSide(BatchTimer(self.timed_model, values, self.device))
        specs, tensors = [], []
        for inputs in base:
            entry = []
            for value in inputs:
                if hasattr(value, "data_ptr"):
                    entry.append({"tensor": len(tensors)})
                    tensors.append(value)
                else:
                    entry.append({"value": value})
            specs.append(entry)
        self.ask({"op": "timing_sets", "slot": self.timed_slot, "sets": specs}, tensors,
                 doing="receiving the timing sets")
        remote = RemoteSide(self)
        rolls = self._rolls_keep_outputs_finite(values)
        driver = PairedTiming(local, remote, self.device, rolls, self._check_timed_output(values))
        baseline, candidate = driver.run()
        checks = list(driver.checks)
        if baseline is None:
            return {"baseline": None, "candidate": None, "checks": checks}
        if profile:
            calls = [driver.next_call() for _ in range(5)]
            for side, timing in ((local, baseline), (remote, candidate)):
                figures, _ = side.step("profile", calls)
                timing.kernel_sum_ms = figures["kernel_sum_ms"]
                timing.kernels = figures["kernels"]
                timing.kernels_per_call = figures["kernels_per_call"]
        self._audit("timing")
        return {"baseline": baseline, "candidate": candidate, "checks": checks}

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


class LocalSide:
    """The reference, timed in this process."""

    name = "reference"

    def __init__(self, timer):
        self.timer = timer

    def step(self, step: str, calls: list, head_start_ms: float = 0.0) -> tuple[dict, float]:
        started = time.perf_counter()
        figures = self.timer.run(step, calls, head_start_ms)
        return figures, (time.perf_counter() - started) * 1000

    def outputs(self, indices: list[int]) -> list[list]:
        return [outputs_as_list(self.timer.outputs[i]) for i in indices]


class RemoteSide:
    """The candidate, timed by its runner; this process measures the wall time of each step."""

    name = "candidate"

    def __init__(self, judge: Judge):
        self.judge = judge

    def step(self, step: str, calls: list, head_start_ms: float = 0.0) -> tuple[dict, float]:
        reply = self.judge.ask({"op": "time", "step": step, "calls": calls, "head_start_ms": head_start_ms},
                               doing=f"timing ({step.replace('_', ' ')})",
                               timeout_s=self.judge._limit(first=step == "warm_up", calls=len(calls)))
        figures = reply.message.get("result")
        if not isinstance(figures, dict):
            raise Rejected(Check("runner-exit", False, "the candidate's process answered a timing step without "
                                                       "figures"))
        return figures, reply.wall_ms

    def outputs(self, indices: list[int]) -> list[list]:
        reply = self.judge.ask({"op": "timed_outputs", "indices": indices}, doing="sending timed outputs")
        per_call = reply.message.get("per_call")
        if not isinstance(per_call, int) or per_call * len(indices) != len(reply.tensors):
            raise Rejected(Check("revalidation", False, "the candidate's process sent timed outputs that do not "
                                                        "match the calls asked for"))
        return [reply.tensors[i * per_call:(i + 1) * per_call] for i in range(len(indices))]


class PairedTiming:
    """The reference and the candidate timed by alternating steps of one method (docs/timing.md):
    CPU, wall clock per call; GPU, back-to-back host batches and CUDA-event batches behind a
    head start, as hiera_core.profile.timing.time_module. Every call gets fresh values the judge chose;
    after each candidate step one of its calls, picked afterwards, may be checked against the
    reference's output on the same values; each candidate step's wall time, measured here, must
    be explained by the times it reports plus the step's measured overhead."""

    def __init__(self, reference: LocalSide, candidate: RemoteSide, device: str, rolls: bool, check_output):
        self.sides = (reference, candidate)
        self.device = device
        self.rolls = rolls
        self.check_output = check_output
        self.checks: list[Check] = []
        self.random = secrets.SystemRandom()
        self.checked = 0
        self.excess: list[float] = []  # candidate steps, per call: wall - reported - overhead
        self.walls: list[float] = []  # candidate steps, per call
        self.make_ms: dict[str, list[float]] = {"reference": [], "candidate": []}  # harness ms per call, per step

    def next_call(self) -> tuple[int, int]:
        return (self.random.randrange(TIMING_SETS), self.random.randrange(1, 1 << 30) if self.rolls else 0)

    def calls(self, count: int) -> list[tuple[int, int]]:
        return [self.next_call() for _ in range(count)]

    def run(self):
        """(reference timing, candidate timing), or (None, None) when a check failed while timing."""
        for side in self.sides:
            side.step("warm_up", self.calls(3))
        try:
            timings = self._run_cuda() if self.device == "cuda" else self._run_cpu()
        except Rejected as rejected:  # a timed output was wrong: no figures to summarise
            self.checks.append(rejected.check)
            return None, None
        self._window_check()
        return timings if all(check.passed for check in self.checks) else (None, None)

    def _candidate_step(self, calls: list, reported_ms: float, wall_ms: float, overhead_ms: float) -> None:
        """A candidate step whose wall time counts for the window check (`reported_ms`: its calls and
        the making of their values); its outputs may be checked."""
        self.excess.append((wall_ms - reported_ms - overhead_ms) / len(calls))
        self.walls.append(wall_ms / len(calls))
        self._maybe_check(calls)

    def _maybe_check(self, calls: list, final: bool = False) -> None:
        """One of the step's calls, picked now that the step is over, checked against the reference
        (always while fewer than MIN_TIMED_CHECKS were, else at even odds); `final`: the last call of
        the candidate's last step, always (a candidate that turns after so many calls has turned by then)."""
        if not (final or self.checked < MIN_TIMED_CHECKS or self.random.random() < 0.5):
            return
        index = len(calls) - 1 if final else self.random.randrange(len(calls))
        outs = self.sides[1].outputs([index])[0]
        problem = self.check_output(calls[index], outs)
        self.checked += 1
        if problem:
            raise Rejected(problem)

    def _overhead(self, step: str, calls: int) -> float:
        """The channel's overhead per step: the wall time of an empty step of the candidate's (values
        made, no calls) less the making it reports; the least of 3, after one that settles."""
        steps = [self.sides[1].step(step, self.calls(calls)) for _ in range(4)][1:]
        return max(0.0, min(wall - float(figures.get("harness_ms", 0.0)) for figures, wall in steps))

    def _window_check(self) -> None:
        """The least excess over the candidate's steps: on a busy machine some steps wait for the
        scheduler, but time left out of every report shows in every step, the cleanest included."""
        if not self.excess:
            return
        makes = {name: statistics.median(values) for name, values in self.make_ms.items() if values}
        if len(makes) == 2 and makes["candidate"] > MAKE_RATIO * makes["reference"] + WINDOW_SLACK_MS[self.device]:
            self.checks.append(Check("timing-window", False, f"the candidate's process reports {makes['candidate']:.4g} "
                                     f"ms per call of the harness's own work (making the fresh values of its timed "
                                     f"calls, releasing outputs), the reference's {makes['reference']:.4g} ms for the "
                                     f"same work: time moved out of the calls it reports"))
            return
        clean = min(range(len(self.excess)), key=self.excess.__getitem__)
        excess, wall = self.excess[clean], self.walls[clean]
        if excess > WINDOW_SHARE * wall and excess > WINDOW_SLACK_MS[self.device]:
            self.checks.append(Check("timing-window", False, f"every timing step of the candidate took longer by the "
                                     f"judge's clock than its process reports: at best {wall:.4g} ms per call, "
                                     f"{excess:.4g} ms more than the reported times and the steps' own overhead "
                                     f"explain; the reported times leave out work, or were not measured as reported"))
        else:
            self.checks.append(Check("timing-window", True, f"the candidate's reported times explain the judge's wall "
                                                            f"clock within {max(excess, 0):.3g} ms per call"))

    def _run_cpu(self):
        from hiera_core.profile.timing import _summarise, median_interval

        samples: dict[str, list[float]] = {"reference": [], "candidate": []}
        overhead = self._overhead("noop_cpu_batch", 5)
        last_calls: list = []
        while any(len(s) < 5 or (len(s) < 20 and sum(s) < 500.0) for s in samples.values()):
            for side in self.sides:
                calls = self.calls(5)
                figures, wall = side.step("cpu_batch", calls)
                times = [float(t) for t in figures["times"]]
                samples[side.name].extend(times)
                make = float(figures.get("harness_ms", 0.0))
                self.make_ms[side.name].append(make / len(calls))
                if side.name == "candidate":
                    self._candidate_step(calls, sum(times) + make, wall, overhead)
                    last_calls = calls
        self._maybe_check(last_calls, final=True)
        method = ("wall clock, fresh values at new addresses per call, warm-up 3, median of >=5 calls (up to 20 or "
                  "0.5 s), alternating with the other module in steps of 5")
        timings = []
        for side in self.sides:
            times = samples[side.name]
            timing = _summarise("cpu", times, times, method)
            timing.median_low_ms, timing.median_high_ms = median_interval(times)
            timings.append(timing)
        return timings

    def _run_cuda(self):
        from hiera_core.profile.timing import HEAD_START_MARGIN, HOST_BOUND_RATIO, HOST_BOUND_SLACK_MS, _summarise, \
            median_interval

        host: dict[str, list[float]] = {"reference": [], "candidate": []}
        queued: dict[str, list[float]] = {"reference": [], "candidate": []}
        events: dict[str, list[float]] = {"reference": [], "candidate": []}
        batch_calls: dict[str, int] = {}
        for side in self.sides:
            figures, _ = side.step("warm_up", self.calls(1))
            batch_calls[side.name] = max(2, min(20, int(10.0 / max(float(figures["ms"]), 1e-3))))
        overhead = self._overhead("noop_host_batch", batch_calls["candidate"])
        while any(len(h) < 5 or (sum(h) * batch_calls[n] < 250.0 and len(h) < 15) for n, h in host.items()):
            for side in self.sides:
                calls = self.calls(batch_calls[side.name])
                figures, wall = side.step("host_batch", calls)
                host[side.name].append(float(figures["done_ms"]))
                queued[side.name].append(float(figures["queued_ms"]))
                make = float(figures.get("harness_ms", 0.0))
                self.make_ms[side.name].append(make / len(calls))
                if side.name == "candidate":
                    self._candidate_step(calls, len(calls) * float(figures["done_ms"]) + make, wall, overhead)
        head_start, last_calls, unwaited = {}, [], {}
        for side in self.sides:
            loop_queue = statistics.median(float(side.step("noop_event_batch", self.calls(10))[0]["queued_ms"])
                                           for _ in range(3))
            head_start[side.name] = HEAD_START_MARGIN * (loop_queue + statistics.median(queued[side.name]))
            # Each call starts on a busy device, as in the event batches: no call can tell these apart.
            tails = side.step("tail", self.calls(TAIL_CALLS), head_start[side.name])[0]["tails"]
            empty = side.step("noop_tail", self.calls(TAIL_CALLS), head_start[side.name])[0]["tails"]
            unwaited[side.name] = max(0.0, statistics.median(map(float, tails)) - statistics.median(map(float, empty)))
        while any(len(e) < 30 or (sum(e) < 250.0 and len(e) < 1000) for e in events.values()):
            for side in self.sides:
                calls = self.calls(10)
                figures, _ = side.step("event_batch", calls, head_start[side.name])
                events[side.name].extend(float(t) for t in figures["times"])
                if side.name == "candidate":
                    self._maybe_check(calls)
                    last_calls = calls
        self._maybe_check(last_calls, final=True)
        timings = []
        for side in self.sides:
            times, host_times = events[side.name], host[side.name]
            gpu_median = statistics.median(times)
            host_bound = statistics.median(host_times) > HOST_BOUND_RATIO * gpu_median + HOST_BOUND_SLACK_MS
            headline = host_times if host_bound else times
            timing = _summarise("cuda", headline, host_times,
                                "GPU time: CUDA events per call, fresh values at new addresses, L2 flushed and a spin "
                                "kernel queued before each call, >=30 calls (up to 0.25 s); or host time where "
                                "clearly larger: back-to-back calls on fresh values, whole device synchronised per "
                                f"batch of {batch_calls.get(side.name, 0)}; the reference and the candidate in "
                                f"alternating steps, in separate processes")
            timing.iterations = len(times) + batch_calls.get(side.name, 0) * len(host_times)
            timing.gpu_median_ms = gpu_median
            timing.host_queue_ms = statistics.median(queued[side.name]) if queued[side.name] else None
            timing.host_min_ms = min(host_times)
            timing.unwaited_ms = unwaited[side.name]
            timing.bound = "host" if host_bound else "gpu"
            timing.median_low_ms, timing.median_high_ms = median_interval(headline)
            timings.append(timing)
        return timings


# ---- helpers ------------------------------------------------------------------------------------

def poisoned(tensor, byte: int) -> int:
    """How many elements of a floating-point tensor hold the poison bytes."""
    import torch

    if not tensor.is_floating_point() or tensor.numel() == 0:
        return 0
    width = tensor.element_size()
    as_int = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[width]
    pattern = int.from_bytes(bytes([byte]) * width, "little", signed=width > 1)
    return int((tensor.detach().contiguous().view(as_int) == pattern).sum())


PERTURB_FLOOR = 0.1  # the least scale a parameter moves by: zero gates and tiny LayerScales move too


def perturbed_state(state: dict, seed: int) -> dict:
    """Floating-point parameters and buffers moved at their own scale (at least PERTURB_FLOOR):
    signed ones by noise of half that scale; non-negative ones (variances, scales) multiplied by
    exp(noise/2), or, when tiny, moved up by half the floor times |noise|, so they stay positive.
    Integers are kept."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    moved = {}
    for name, value in state.items():
        if not value.is_floating_point() or value.numel() == 0:
            moved[name] = value.clone()
            continue
        noise = torch.randn(value.shape, generator=generator, dtype=torch.float32).to(value.device)
        as_float = value.float()
        rms = float(as_float.pow(2).mean().sqrt())
        if bool((as_float >= 0).all()) and bool((as_float > 0).any()):
            moved[name] = (as_float * torch.exp(0.5 * noise) if rms >= PERTURB_FLOOR
                           else as_float + 0.5 * PERTURB_FLOOR * noise.abs()).to(value.dtype)
        else:
            moved[name] = (as_float + 0.5 * max(rms, PERTURB_FLOOR) * noise).to(value.dtype)
    return moved


def profile_ops(task: Task, model, input_set: InputSet) -> dict[str, int]:
    """The aten ops one call of `model` runs, with their counts (CPU profiler)."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    from hiera_core.worker.runner import aten_op_counts

    inputs = clone_inputs(input_set.inputs)
    with profile(activities=[ProfilerActivity.CPU]) as prof, torch.no_grad():
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
             on_phase=None) -> dict:
    """Verify, then time; the worker op `evaluate`'s result (verification, baseline, candidate,
    speedup with its interval, significance, the seed). `device_lock`: the lock file of candidates
    evaluated side by side on this device (hiera_core.worker.devicelock), None when evaluated alone;
    `on_phase`: told "verify" and "time" as each phase starts (the candidate's progress stages)."""
    from hiera_core.worker import devicelock

    judge = Judge(task, spec, candidate_path, space, device, run_seed(seed), cpu_threads)
    try:
        with devicelock.verifying(device_lock, on_phase):
            passed = judge.verify(sets, profiler)
        result: dict = {"verification": judge.result, "seed": judge.seed}
        if not passed or not timed:
            return result
        try:
            with devicelock.timing(device_lock, on_phase):
                timed_result = judge.time(profile)
        except Rejected as rejected:
            judge.result.add([rejected.check])
            return result
        baseline, candidate = timed_result["baseline"], timed_result["candidate"]
        checks = timed_result["checks"]
        if baseline is None:  # a check failed while timing: no figures to report
            judge.result.add(checks)
            return result
        checks += timing_checks(judge, candidate, baseline, exact_rewrite)
        judge.result.add(checks)
        result.update(baseline=baseline, candidate=candidate)
        result.update(significance(baseline, candidate, judge.same_ops_as_reference()))
        return result
    finally:
        judge.close()


def retime(task: Task, candidate_path: str, device: str, trials: list[list], tolerance: float) -> dict:
    """A proposal checked the way KernelBench checks (`allclose` at `tolerance` on `trials`) and timed
    against the reference by the judge's paired method, the proposal in a process of its own: the
    `bench_time` op's figures. {"check", "hiera": its timing or None, "eager": the reference's}."""
    import torch

    judge = Judge(task, None, candidate_path, "pytorch", device, run_seed(None))
    worst = 0.0
    try:
        references = [judge.reference_call(judge.reference, InputSet(index, "task", None, inputs))
                      for index, inputs in enumerate(trials)]
        judge.tolerance = tolerances_for(None, references[0].outputs)
        judge.largest_output_bytes = max(sum(o.numel() * o.element_size() for o in r.outputs) for r in references)
        judge.started()
        judge.load("main", judge.initial_state)
        judge._audit("importing the proposal")
        for index, reference in enumerate(references):
            reply = judge.send_call("main", reference.input_set, f"t{index}", first=index == 0)
            outs = reply.tensors[:len(reference.outputs)]
            if reply.message.get("outputs") != len(reference.outputs):
                return _kernelbench_failed(f"trial {index}: {reply.message.get('outputs')} outputs, the reference "
                                           f"has {len(reference.outputs)}", worst, "trials")
            for out, ref in zip(outs, reference.outputs):
                if out.shape != ref.shape or out.dtype != ref.dtype:
                    return _kernelbench_failed(f"trial {index}: output {out.dtype}{list(out.shape)}, the reference's "
                                               f"is {ref.dtype}{list(ref.shape)}", worst, "trials")
                out64, ref64 = out.double(), ref.double()
                finite = out64.isfinite() & ref64.isfinite()
                if finite.any():
                    worst = max(worst, float((out64 - ref64).abs()[finite].max()))
                if not torch.allclose(out64, ref64, atol=tolerance, rtol=tolerance, equal_nan=True):
                    return _kernelbench_failed(f"trial {index}: values differ beyond atol = rtol = {tolerance:g}",
                                               worst, "trials")
        timed = judge.time(profile=False)
        failed = next((c for c in timed["checks"] if not c.passed), None)
        if failed:
            return _kernelbench_failed(f"while timed: {failed.name}: {failed.message}", worst, "judge")
        check = {"correct": True, "max_abs_error": worst, "trials": len(trials),
                 "message": f"{len(trials)} random trials within atol = rtol = {tolerance:g}, max abs error "
                            f"{worst:.2g}"}
        return {"check": check, "hiera": timed["candidate"].to_dict(), "eager": timed["baseline"].to_dict()}
    except Rejected as rejected:
        return _kernelbench_failed(f"{rejected.check.name}: {rejected.check.message}", worst, "judge")
    finally:
        judge.close()


def _kernelbench_failed(message: str, worst: float, failed_in: str) -> dict:
    """`failed_in`: "trials" (KernelBench's allclose check of the outputs) or "judge" (one of the
    judge's checks, while loading, calling or timing)."""
    return {"check": {"correct": False, "message": message[:600], "max_abs_error": worst, "trials": None,
                      "failed_in": failed_in}, "hiera": None, "eager": None}


def timing_checks(judge: Judge, timed, baseline, exact_rewrite: bool) -> list[Check]:
    """All streams waited for (GPU), and no faster than the roofline bound (on every device, where the
    bound is for this device; for an engine's exact rewrite, the bytes any implementation moves)."""
    import torch

    from hiera_core.spec import gpus

    if judge.device == "cuda":
        here = gpus.match_name(torch.cuda.get_device_name())
        device_key = here.key if here else None
        checks = [streams_check(timed, "")]
    else:
        device_key, checks = "cpu", []
    roofline = roofline_check(judge.spec, timed, baseline, device_key, "", exact_rewrite)
    if roofline is not None:
        checks.append(roofline)
    return checks


def significance(baseline, candidate, same_ops: bool) -> dict:
    """The speedup, its interval from the medians' confidence intervals, and whether it counts: only
    when those intervals do not overlap, and never for a candidate that runs the reference's ops."""
    speedup = baseline.median_ms / candidate.median_ms if candidate.median_ms else None
    low = baseline.median_low_ms / candidate.median_high_ms if candidate.median_high_ms else None
    high = baseline.median_high_ms / candidate.median_low_ms if candidate.median_low_ms else None
    if same_ops:
        verdict = "no change: the candidate runs exactly the reference's torch ops"
    elif low is not None and low > 1.0:
        verdict = "faster"
    elif high is not None and high < 1.0:
        verdict = "slower"
    else:
        verdict = "within the measured spread of the reference"
    noisy = [name for name, t in (("reference", baseline), ("candidate", candidate)) if t.iqr_ms > 0.5 * t.median_ms]
    return {"speedup": speedup, "speedup_interval": [low, high], "significant": verdict == "faster",
            "timing_verdict": verdict, "unreliable": noisy}

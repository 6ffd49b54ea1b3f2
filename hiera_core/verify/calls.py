"""The judge's calls of a candidate: its runner started and spoken to, the reference run in the
judge's process on the same input sets, and each call's outputs, changed inputs, devices and
aliasing checked against the reference's. Imports torch lazily: worker processes only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.spec.model import Spec
from hiera_core.task.load import Task, outputs_as_list
from hiera_core.verify.inputs import POISON_BYTE, InputSet, clone_inputs, forward_parameter_names, tensors_equal
from hiera_core.verify.repro import FailingInputs
from hiera_core.verify.runner_process import Rejected, Reply, runner_for
from hiera_core.verify.verdicts import (
    Check,
    Verification,
    compare,
    largest_difference,
    patch_check_name,
    trivial_output,
)
from hiera_core.worker.channel import BadMessage, ChannelClosed, ChannelTimeout
from hiera_core.worker.messages import (
    Argument,
    CallRequest,
    CallResult,
    LoadRequest,
    LoadStateRequest,
    RunnerReply,
    RunnerRequest,
    StartRequest,
    StartResult,
)

FIRST_CALL_FLOOR_S = 180.0  # a compile (torch.compile, autotuning) may happen in an instance's first call
CALL_FLOOR_S = 20.0
CALL_LIMIT_RATIO = 100.0  # a later call may take this many times the reference's


@dataclass
class ReferenceCall:
    """One input set and what the reference made of it (outputs, final inputs, aliasing)."""

    input_set: InputSet
    outputs: list
    inputs_after: list
    mutated: list[int]
    aliases: list[str | None]
    model: object = None  # the module that made the outputs (the reference, or its perturbed twin)


class CheckedCalls:
    """The runner of one candidate, the reference beside it, and each call of the candidate checked
    against the reference's (hiera_core.verify.judge.Judge runs the checklist and the timing on it)."""

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
        self.seconds: dict[str, float] = {}  # wall seconds of the judge's phases (events.stopwatch)
        self.runner = runner_for(device)
        # Its start (importing torch, settling the device) overlaps the reference's runs here.
        # On CPU both processes use the same intra-op threads: torch's default, or `cpu_threads` where
        # evaluations share the cores (OpenMP threads beyond the free cores stall for whole time
        # slices: beside other work a 1 ms reference op once measured 120 ms).
        threads = cpu_threads if device == "cpu" else None
        self.runner.channel.send(StartRequest(device=device, path=candidate_path, address=task.address,
                                              threads=threads).to_dict())
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
        self.candidate_ops: dict[str, int] | None = None
        self._float64_models: dict[int, object] = {}
        self.lean = False  # the sets one at a time: all of them at once would not fit on the device (Judge)

    def close(self) -> None:
        self.runner.close()

    # ---- talking to the runner ---------------------------------------------------------------------

    def ask(self, request: RunnerRequest, tensors: list | None = None, *, doing: str,
            timeout_s: float | None = None) -> Reply:
        reply = self.runner.request(request, tensors, timeout_s=timeout_s or self._limit(first=False), doing=doing)
        answer = reply.answer
        if answer.state_changes:
            raise Rejected(self._state_check(answer.state_changes, doing))
        if answer.threads:
            raise Rejected(Check("threads", False, f"threads started by the candidate still run after {doing}: "
                                                   f"{', '.join(answer.threads)}"))
        if not answer.ok:
            text = f"forward raised {answer.message}" if answer.check == "runs" else answer.message
            raise Rejected(Check(answer.check, False, text[:700]))
        return reply

    def started(self) -> None:
        """The answer to the start request sent when the runner was spawned."""
        try:
            message, _ = self.runner.channel.receive(timeout_s=FIRST_CALL_FLOOR_S, device=self.device)
            answer = RunnerReply.from_dict(message, StartResult)
        except (ChannelClosed, ChannelTimeout, BadMessage):
            self.runner.kill()
            raise HieraError("the candidate's process did not start", kind=ErrorKind.CRASH,
                             hint="see the worker log: importing torch or the task failed there") from None
        if not answer.ok:
            raise HieraError(f"the candidate's process did not start: {answer.message}", kind=ErrorKind.CRASH,
                             details={"log": answer.traceback})

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
        self.ask(LoadRequest(slot=slot, largest_output_bytes=self.largest_output_bytes, reimport=reimport),
                 doing="importing the candidate and building ModelNew", timeout_s=FIRST_CALL_FLOOR_S)
        names = list(state)
        reply = self.ask(LoadStateRequest(slot=slot, names=names), [state[n] for n in names],
                         doing="loading the reference's state_dict")
        unconsumed = reply.answer.result.unexpected
        if unconsumed:
            raise Rejected(Check("state-dict", False, f"ModelNew.load_state_dict(Model(...).state_dict()) left "
                                                      f"reference entries unused: {', '.join(unconsumed[:8])}"
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
        aliases = storage_aliases(inputs, outs)
        # Only a mutated input's final values are judged: the copies forward left alone are the set's own
        # values, and hold a footprint's worth of memory each on a task that fills the GPU.
        inputs = [after if i in mutated else before for i, (after, before) in enumerate(zip(inputs, input_set.inputs))]
        return ReferenceCall(input_set, [o.detach() for o in outs], inputs, mutated, aliases, model)

    def compare_output(self, out, ref, tolerance, model, inputs: list, index: int):
        """`compare`; where the values differ, again with the reference's own float32 error on these
        inputs allowed for (an ill-conditioned set, on which equally precise code differs as much),
        against the reference and then against the float64 result."""
        import torch

        comparison = compare(out, ref, tolerance)
        if comparison.ok or comparison.kind != "values" or not ref.is_floating_point() or model is None:
            return comparison
        exact = self.float64_outputs(model, inputs)
        if exact is None or index >= len(exact) or not isinstance(exact[index], torch.Tensor) \
                or exact[index].shape != ref.shape:
            return comparison
        own = largest_difference(ref, exact[index])
        if own <= 0:
            return comparison
        against_reference = compare(out, ref, tolerance, own)
        if against_reference.ok:
            return against_reference
        # Where both are off float64 on the same element in opposite directions (attention on
        # logits in the thousands: SDPA and the written-out ops round near-ties apart), the candidate
        # is judged against float64 itself, with the same allowance.
        against_exact = compare(out, exact[index], tolerance, own)
        return against_exact if against_exact.ok else against_reference

    def float64_outputs(self, model, inputs: list) -> list | None:
        """The module's outputs on `inputs` with its parameters and floating inputs in float64
        (computed here, in the judge, never by the candidate); None where it cannot run so. Lean, on
        the host: twice the call's bytes in float64 beside the sets would not fit on the device (on an
        H100 KernelBench's 6 GiB softmax ran out of memory there)."""
        import copy

        import torch

        device = "cpu" if self.lean else self.device

        def double(value):
            if not isinstance(value, torch.Tensor):
                return value
            return value.to(device, torch.float64) if value.is_floating_point() else value.to(device)

        try:
            model64 = self._float64_models.get(id(model))
            if model64 is None:
                model64 = self._float64_models[id(model)] = copy.deepcopy(model).to(device, torch.float64)
            return outputs_as_list(self.task.run_forward(model64, [double(v) for v in clone_inputs(inputs)]))
        except Exception:
            return None

    # ---- one checked call --------------------------------------------------------------------------

    def send_call(self, slot: str, input_set: InputSet, call_id: str, *, first: bool = False,
                  profile: bool = False, into: str | None = None) -> Reply:
        """One call of the candidate on the set's inputs (fresh allocations in its process)."""
        import torch

        where = self.describe(input_set)
        arguments, tensors = [], []
        for value in input_set.inputs:
            if isinstance(value, torch.Tensor):
                arguments.append(Argument(tensor=len(tensors)))
                tensors.append(value)
            else:
                arguments.append(Argument(value=value))
        request = CallRequest(slot=slot, call_id=call_id, inputs=arguments, profile=profile, into=into)
        try:
            return self.ask(request, tensors, doing=f"calling forward ({where})", timeout_s=self._limit(first))
        except Rejected as rejected:
            rejected.check.reproducer = rejected.check.reproducer or where
            raise

    def checked_call(self, slot: str, reference: ReferenceCall, call_id: str, *, first: bool = False,
                     profile: bool = False, into: str | None = None) -> list:
        """Send the set's inputs, receive outputs and changed inputs, and judge them here."""
        where = self.describe(reference.input_set)
        reply = self.send_call(slot, reference.input_set, call_id, first=first, profile=profile, into=into)
        answer: CallResult = reply.answer.result  # its lists describe its `outputs` (CallResult.from_dict)
        count = answer.outputs
        if count != len(reference.outputs) or count > len(reply.tensors):
            raise Rejected(Check("output-type", False, f"returned {count} tensor(s), the reference returns "
                                                       f"{len(reference.outputs)}", where))
        outs, changed = reply.tensors[:count], reply.tensors[count:]
        wrong = next((i for i, kind in enumerate(answer.devices) if kind != self.device), None)
        if wrong is not None:
            raise Rejected(Check("device", False, f"output {wrong} is on {answer.devices[wrong]}, expected "
                                                  f"{self.device}", where))
        if profile:
            self.candidate_ops = dict(answer.ops)
        self.judge_inputs(answer.mutated, changed, reference, where)
        self.judge_outputs(outs, reference, where)
        aliases = answer.aliases
        if aliases != list(reference.aliases):
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


def poisoned(tensor, byte: int) -> int:
    """How many elements of a floating-point tensor hold the poison bytes."""
    import torch

    if not tensor.is_floating_point() or tensor.numel() == 0:
        return 0
    width = tensor.element_size()
    as_int = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[width]
    pattern = int.from_bytes(bytes([byte]) * width, "little", signed=width > 1)
    return int((tensor.detach().contiguous().view(as_int) == pattern).sum())

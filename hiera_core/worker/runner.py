"""The candidate's process: imports the candidate and answers the judge's requests, nothing else.

    python -m hiera_core.worker.runner READ_FD WRITE_FD JUDGE_FILE RUNNER_FILE DEVICE

It builds `ModelNew`, loads the state the judge sends, calls the module on the inputs the judge
sends and sends back what it returned; it times itself by the same steps (hiera_core.profile.steps's
BatchTimer) the judge times the reference by. It judges nothing: comparisons, timing checks and
the verdict are the judge's (hiera_core.verify.judge), in a process that never imports candidate code.
What this process reports about itself (its runtime state, its threads, aliasing) is a second
line of defence: the first is that its outputs and its wall-clock time are judged from outside.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import importlib.util
import os
import sys
import threading
import traceback

from hiera_core.errors import is_out_of_memory
from hiera_core.profile.harness import op_profiler, profiled_events
from hiera_core.verify.inputs import POISON_BYTE, tensors_equal
from hiera_core.worker import messages
from hiera_core.worker.channel import BadMessage, Channel, ChannelClosed
from hiera_core.worker.isolate import die_with_parent

M_PERTURB = -6  # glibc mallopt: fill each allocation with (byte ^ 0xFF)
# Functions a candidate could replace to fake a time or a measurement; checked by identity.
HARNESS_FUNCTIONS = (
    "time.perf_counter", "time.perf_counter_ns", "time.time", "time.time_ns", "time.monotonic",
    "time.monotonic_ns", "time.process_time", "torch.cuda.synchronize", "torch.cuda.Event",
    "torch.cuda.Event.record", "torch.cuda.Event.elapsed_time", "torch.cuda.Event.synchronize",
    "torch.cuda.Stream", "torch.cuda.current_stream", "torch.cuda.default_stream", "torch.cuda.stream",
    "torch.profiler.profile", "torch.autograd.profiler.profile", "torch.no_grad",
    "threading.Thread", "threading.enumerate", "os.write", "os.read", "json.dumps", "json.loads",
    "hiera_core.worker.channel.Channel.send", "hiera_core.worker.channel.Channel.receive",
    "hiera_core.worker.messages.RunnerRequest.from_dict", "hiera_core.worker.messages.RunnerReply.to_dict",
    "hiera_core.profile.steps.BatchTimer.run", "hiera_core.profile.steps.FreshValues.make",
)
# Modules whose public functions a candidate may not replace: other code in the process (and the
# reference, were it timed here) would compute something else.
TORCH_NAMESPACES = ("torch", "torch.nn.functional", "torch.Tensor", "torch.linalg", "torch.fft", "torch.special")


def _lookup(label: str):
    root, *attributes = label.split(".")
    value = importlib.import_module(root)
    for index, attribute in enumerate(attributes):
        try:
            value = getattr(value, attribute)
        except AttributeError:
            value = importlib.import_module(".".join([root, *attributes[:index + 1]]))
    return value


def runtime_state() -> dict[str, object]:
    """What a candidate could change for every other computation in the process: torch function and
    dispatch modes, dispatch keys forced on or off, thread counts, precision and backend flags,
    default dtype, grad mode, and the identity of torch's public functions and the harness's."""
    import torch

    state: dict[str, object] = {
        "torch function modes": torch._C._len_torch_function_stack(),
        "torch dispatch modes": torch._C._len_torch_dispatch_stack(),
        "dispatch keys forced on": str(torch._C._dispatch_tls_local_include_set()),
        "dispatch keys forced off": str(torch._C._dispatch_tls_local_exclude_set()),
        "intra-op threads": torch.get_num_threads(),
        "inter-op threads": torch.get_num_interop_threads(),
        "default dtype": str(torch.get_default_dtype()),
        "grad mode": torch.is_grad_enabled(),
        "float32 matmul precision": torch.get_float32_matmul_precision(),
        "cuda.matmul.allow_tf32": torch.backends.cuda.matmul.allow_tf32,
        "cuda.matmul.allow_fp16_reduced_precision_reduction":
            torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
        "cuda.matmul.allow_bf16_reduced_precision_reduction":
            torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction,
        "cudnn.enabled": torch.backends.cudnn.enabled,
        "cudnn.allow_tf32": torch.backends.cudnn.allow_tf32,
        "cudnn.deterministic": torch.backends.cudnn.deterministic,
        "flash sdp": torch.backends.cuda.flash_sdp_enabled(),
        "memory-efficient sdp": torch.backends.cuda.mem_efficient_sdp_enabled(),
        "math sdp": torch.backends.cuda.math_sdp_enabled(),
        "deterministic algorithms": torch.are_deterministic_algorithms_enabled(),
    }
    for label in HARNESS_FUNCTIONS:
        try:
            state[f"function {label}"] = id(_lookup(label))
        except (AttributeError, ImportError):
            state[f"function {label}"] = None
    for namespace in TORCH_NAMESPACES:
        holder = _lookup(namespace)
        # The namespaces' own dictionaries (for Tensor, its C base's too): dir() and getattr would
        # import torch's lazy submodules.
        scopes = [vars(klass) for klass in holder.__mro__[:-1]] if isinstance(holder, type) else [vars(holder)]
        for scope in scopes:
            for name, value in list(scope.items()):
                if not name.startswith("_") and callable(value) and not isinstance(value, type):
                    state.setdefault(f"function {namespace}.{name}", id(value))
    return state


def aten_kernels() -> dict[str, int]:
    """A fingerprint of the kernels that serve every aten operator (which file registered each, per
    dispatch key): a kernel registered for an aten op from Python (torch.library) or C++
    (TORCH_LIBRARY_IMPL(aten, ...)) changes what torch's own operators compute. About 0.2 s."""
    import torch

    names = [name for name in torch._C._dispatch_get_all_op_names() if name.startswith("aten::")]
    return {name: hash(torch._C._dispatch_dump_table(name)) for name in names}


def state_changes(before: dict[str, object], after: dict[str, object]) -> list[str]:
    changed = []
    for key, value in before.items():
        now = after.get(key)
        if now == value:
            continue
        if key.startswith("function "):
            changed.append(f"{key.removeprefix('function ')} was replaced")
        elif key.startswith("aten::"):
            changed.append(f"the kernels of {key} were changed")
        else:
            changed.append(f"{key}: {value} -> {now}")
    changed.extend(f"the kernels of {key} were changed" for key in after if key.startswith("aten::")
                   and key not in before)
    return changed


class Poison:
    """Memory a call allocates holds a known pattern, so an output it never wrote is recognised
    (by the judge, in the bytes it receives)."""

    def __init__(self, device: str, largest_output_bytes: int):
        self.device = device
        self.largest_output_bytes = largest_output_bytes
        self.byte = POISON_BYTE[device]
        self.mallopt = None
        if device == "cpu":
            libc = ctypes.CDLL(None)
            if hasattr(libc, "gnu_get_libc_version") and hasattr(libc, "mallopt"):
                self.mallopt = libc.mallopt  # glibc only; elsewhere the value checks catch such outputs

    def __enter__(self) -> Poison:
        import torch

        if self.device == "cuda":
            # Every block the caching allocator could hand out holds the poison: release the free
            # segments, fill the free blocks left in segments still in use, and add a poisoned
            # small-pool segment (requests <= 1 MiB) and a large block bigger than every output.
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
            device, stream = torch.cuda.current_device(), torch.cuda.current_stream().cuda_stream
            sizes = [block["size"] for segment in torch.cuda.memory_snapshot()
                     if segment.get("device", device) == device and segment["stream"] == stream
                     and tuple(segment.get("segment_pool_id", (0, 0))) == (0, 0)
                     for block in segment["blocks"] if block["state"] == "inactive"]
            sizes += [2**20, 2**20, 2 * self.largest_output_bytes + 20 * 2**20]
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


def import_candidate(path: str, module_name: str):
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


class _Refused(Exception):
    """A request the candidate could not serve: becomes a failed check named `check` in the reply."""

    def __init__(self, check: str, message: str):
        super().__init__(message)
        self.check = check
        self.message = message


class Runner:
    def __init__(self, channel: Channel):
        self.channel = channel
        self.modules: dict[str, object] = {}
        self.module = None  # the candidate's module as last imported
        self.device = "cpu"
        self.path = ""
        self.task = None
        self.loads = 0
        self.kept: dict[str, list] = {}
        self.kept_inputs: dict[str, list] = {}  # alive, so no two calls' inputs share an address
        self.timer = None
        self.timing_values = None
        self.poison: Poison | None = None
        self.baseline: dict[str, object] = {}
        self.baseline_kernels: dict[str, int] = {}

    def serve(self) -> None:
        while True:
            try:
                message, tensors = self.channel.receive(device=self.device)
            except ChannelClosed:
                return
            try:
                reply, payload = self._answer(messages.RunnerRequest.from_dict(message), tensors)
            except BadMessage as error:  # a judge of another version: nothing is run
                reply, payload = messages.RunnerReply(ok=False, check="protocol", message=f"refused: {error}"), []
            if self.baseline:
                reply.state_changes = state_changes(self.baseline, runtime_state())
            reply.threads = self._candidate_threads()
            self.channel.send(reply.to_dict(), payload)

    def _answer(self, request: messages.RunnerRequest, tensors: list) -> tuple[messages.RunnerReply, list]:
        try:
            result, payload = getattr(self, f"op_{request.op}")(request, tensors)
            if self.device == "cuda":  # what the candidate queued (a finalizer's kernel) ends before it answers
                import torch

                torch.cuda.synchronize()
            return messages.RunnerReply(ok=True, result=result), payload
        except _Refused as refused:
            return messages.RunnerReply(ok=False, check=refused.check, message=refused.message), []
        except Exception as error:
            return messages.RunnerReply(ok=False, check="oom" if is_out_of_memory(error) else "runs",
                                        message=f"{type(error).__name__}: {str(error)[:400]}{self._where(error)}",
                                        traceback=traceback.format_exc()[-3000:]), []

    # ---- requests ----------------------------------------------------------------------------------

    def op_start(self, request: messages.StartRequest, _tensors) -> tuple[messages.StartResult, list]:
        """Settle the threads and the harness before any candidate code runs (`warm_up` did torch); record the state."""
        import torch

        from hiera_core.task.load import load_task

        self.device = request.device
        if request.threads:
            torch.set_num_threads(request.threads)  # as the judge's (its `cpu_threads`)
        self.path = os.path.abspath(request.path)
        self.task = load_task(request.address)
        self.baseline = runtime_state()
        self.baseline_kernels = aten_kernels()
        return messages.StartResult(), []

    def op_audit(self, _request: messages.AuditRequest, _tensors) -> tuple[messages.AuditResult, list]:
        """The full audit, kernels of aten ops included (after import and at the end)."""
        return messages.AuditResult(changes=state_changes(self.baseline_kernels, aten_kernels())), []

    def _where(self, error: BaseException) -> str:
        """' (file.py, line N, in forward)': the innermost frame of the candidate's own file, so the
        author (or the model) sees which of its lines raised."""
        path = os.path.abspath(self.path)
        frames = [f for f in traceback.extract_tb(error.__traceback__) if os.path.abspath(f.filename) == path]
        if not frames:
            return ""
        frame = frames[-1]
        return f" ({os.path.basename(frame.filename)}, line {frame.lineno}, in {frame.name})"

    def op_load(self, request: messages.LoadRequest, _tensors) -> tuple[messages.LoadResult, list]:
        """Import the candidate afresh (a new module) and build ModelNew(*init) into `slot`."""
        import torch

        self.loads += 1
        self.poison = Poison(self.device, request.largest_output_bytes)
        if request.reimport or self.module is None:
            try:
                self.module = import_candidate(self.path, f"hiera_candidate_{os.getpid()}_{self.loads}")
            except Exception as error:
                raise _Refused("load", f"importing the candidate raised {type(error).__name__}: "
                                       f"{str(error)[:500]}{self._where(error)}") from None
        module = self.module
        model_class = getattr(module, "ModelNew", None)
        if not isinstance(model_class, type):
            raise _Refused("load", "the candidate file defines no class ModelNew")
        try:
            torch.manual_seed(request.seed)
            with torch.device(self.device):
                candidate = model_class(*self.task.make_init())
            self.modules[request.slot] = candidate.to(self.device).eval()
        except Exception as error:
            raise _Refused("construct", f"ModelNew(*init) raised {type(error).__name__}: {error}"[:600]) from None
        return messages.LoadResult(), []

    def op_load_state(self, request: messages.LoadStateRequest,
                      tensors: list) -> tuple[messages.LoadStateResult, list]:
        """load_state_dict of the reference's state: keys of its own may stay unloaded, but every
        reference key must be taken (loaded, or consumed by its own _load_from_state_dict)."""
        if len(request.names) != len(tensors):
            raise _Refused("state-dict", "internal: names and tensors differ in number")
        try:
            result = self.modules[request.slot].load_state_dict(dict(zip(request.names, tensors)), strict=False)
        except Exception as error:
            raise _Refused("state-dict", f"load_state_dict of the reference's state raised "
                                         f"{type(error).__name__}: {error}"[:600]) from None
        return messages.LoadStateResult(unexpected=list(result.unexpected_keys)), []

    def op_call(self, request: messages.CallRequest, tensors: list) -> tuple[messages.CallResult, list]:
        """One call on fresh inputs in poisoned memory. Sends back the outputs, the inputs it
        changed, and which outputs share storage with an input or another output."""
        import torch

        inputs = [argument.resolve(tensors) for argument in request.inputs]
        if request.into in self.kept_inputs:  # the values written into an earlier call's tensors
            earlier = self.kept_inputs[request.into]
            for tensor, value in zip(earlier, inputs):
                if isinstance(tensor, torch.Tensor):
                    tensor.copy_(value)
            inputs = list(earlier)
        originals = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
        self.kept_inputs[request.call_id] = inputs
        around = contextlib.nullcontext()
        profiler = None
        if request.profile:
            profiler = around = op_profiler()
        with self.poison, torch.no_grad(), around:
            out = self.modules[request.slot](*inputs)
            if self.device == "cuda":
                torch.cuda.synchronize()
        outs = _as_outputs(out)
        self.kept[request.call_id] = outs
        mutated = [index for index, (after, before) in enumerate(zip(inputs, originals))
                   if isinstance(after, torch.Tensor) and not tensors_equal(after, before)]
        result = messages.CallResult(outputs=len(outs), mutated=mutated, aliases=storage_aliases(inputs, outs),
                                     devices=[out.device.type for out in outs],
                                     ops=None if profiler is None else aten_op_counts(profiler))
        return result, outs + [inputs[index] for index in mutated]

    def op_resend(self, request: messages.ResendRequest, _tensors) -> tuple[messages.ResendResult, list]:
        outs = self.kept.get(request.call_id)
        if outs is None:
            raise _Refused("output-reuse", f"no outputs kept under {request.call_id}")
        return messages.ResendResult(outputs=len(outs)), outs

    def op_release(self, request: messages.ReleaseRequest, _tensors) -> tuple[messages.ReleaseResult, list]:
        for key in request.call_ids:
            self.kept.pop(key, None)
        self.kept_inputs.clear()
        if self.device == "cuda":  # handed back to the driver: the judge or a process beside may need it
            importlib.import_module("torch").cuda.empty_cache()
        return messages.ReleaseResult(), []

    def op_timing_sets(self, request: messages.TimingSetsRequest,
                       tensors: list) -> tuple[messages.TimingSetsResult, list]:
        from hiera_core.profile.steps import BatchTimer, FreshValues

        self.timing_values = FreshValues([[argument.resolve(tensors) for argument in arguments]
                                          for arguments in request.sets])
        self.timer = BatchTimer(self.modules[request.slot], self.timing_values, self.device)
        return messages.TimingSetsResult(), []

    def op_time(self, request: messages.TimeRequest, _tensors) -> tuple[messages.TimeResult, list]:
        return messages.TimeResult(figures=self.timer.run(request.step, request.calls, request.head_start_ms)), []

    def op_timed_outputs(self, request: messages.TimedOutputsRequest,
                         _tensors) -> tuple[messages.TimedOutputsResult, list]:
        """Outputs of the last timing step's calls at the given positions (chosen after the step)."""
        chosen = [self.timer.outputs[index] for index in request.indices]
        outs = [tensor for out in chosen for tensor in _as_outputs(out)]
        return messages.TimedOutputsResult(per_call=len(outs) // max(len(chosen), 1)), outs

    def _candidate_threads(self) -> list[str]:
        found = []
        for thread in threading.enumerate():
            function = getattr(thread, "_target", None) or type(thread).run
            code = getattr(function, "__code__", None)
            if code is not None and os.path.abspath(code.co_filename) == self.path:
                found.append(thread.name)
        return found


def _as_outputs(out) -> list:
    import torch

    from hiera_core.task.load import outputs_as_list

    outs = outputs_as_list(out) if isinstance(out, (torch.Tensor, tuple, list)) else [out]
    for index, value in enumerate(outs):
        if type(value) is not torch.Tensor:
            raise _Refused("tensor-subclass" if isinstance(value, torch.Tensor) else "output-type",
                           f"output {index} is a {type(value).__name__}, not a plain tensor")
    return outs


def storage_aliases(inputs: list, outs: list) -> list[str | None]:
    """Per output: 'input N' or 'output N' when it shares storage with it, else None."""
    import torch

    def storage(tensor) -> int:
        return tensor.untyped_storage().data_ptr()

    found: list[str | None] = []
    for index, out in enumerate(outs):
        where = None
        if out.numel():
            where = next((f"input {i}" for i, x in enumerate(inputs)
                          if isinstance(x, torch.Tensor) and x.numel() and storage(x) == storage(out)), None)
            where = where or next((f"output {i}" for i, other in enumerate(outs[:index])
                                   if other.numel() and storage(other) == storage(out)), None)
        found.append(where)
    return found


def aten_op_counts(profiler) -> dict[str, int]:
    """The aten ops a profiled call ran, with their counts (the judge compares the reference's)."""
    counts: dict[str, int] = {}
    for event in profiled_events(profiler):
        if event.name.startswith("aten::"):
            counts[event.name] = counts.get(event.name, 0) + 1
    return counts


def warm_up(device: str) -> None:
    """Before its task is known (runner_process.prestart): torch, dynamo, inductor, the GPU's context."""
    import torch
    import torch._dynamo
    import torch._inductor.compile_fx

    if device == "cuda":
        torch.zeros(1, device="cuda")


def main(argv: list[str]) -> int:
    die_with_parent()  # the judge's PID is in HIERA_PARENT_PID: its death ends this process
    read_fd, write_fd, judge_file, runner_file, device = argv
    warm_up(device)
    channel = Channel(int(read_fd), int(write_fd), send_path=runner_file, receive_path=judge_file)
    try:
        Runner(channel).serve()
    finally:
        channel.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

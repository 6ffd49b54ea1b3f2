"""Timing a module the same way for the baseline and every candidate. Imports torch: workers only.

The methodology, and why, is in docs/timing.md. In short:
- Every call, warm-up and timed, gets fresh inputs at an address no earlier call saw
  (`InputRotation`), so results cached on input pointers never hit and mutated inputs are restored
  (the GPU's host-time batches: one fresh set per batch; that figure only counts where larger).
- GPU: two figures, and the call takes the larger, as in a program that calls it in a loop.
  GPU time: the persisting-L2 limit is set to 0 and the L2 flushed (a buffer twice its size
  overwritten) before each call; a spin kernel ahead of each call keeps the GPU busy while the
  host queues it, so CUDA events around the call hold its GPU work alone, whatever the host's
  speed; median over >= 30 calls and up to 0.25 s of timed work. Host time: calls back to back,
  the whole device (every stream) synchronised per batch; per call, the time to queue them and
  the time until the device is done: a host-bound call (launch overhead, Python) is timed by
  the host, and work hidden on other streams shows as device time the events do not hold
  (verify.timing_checks). Then a torch.profiler (CUPTI) pass sums the kernels per call and names
  the top ones.
- CPU: the wall clock around each call after warm-up, median over >= 5 calls and up to 30 calls
  or 1 s; the profiler names the top aten ops.
"""

from __future__ import annotations

import ctypes
import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

# Names the method of this module; bench results measured by another are not resumed into one run.
METHOD_VERSION = ("hiera-timing/3: GPU events behind a head start, or back-to-back host time where larger; "
                  "proposals in a process of their own, alternating with the reference on fresh values")
ADDRESS_SHIFT_BYTES = 256  # keeps the alignment vectorised kernels need
ROTATION_SLOTS = 2048  # more than any timing makes calls: no address repeats within one timing
CUDA_BATCH = 10
HOST_BATCH = 20  # calls per batch of the host-time loop (fewer for calls over 0.5 ms: host overhead is moot)
HEAD_START_MARGIN = 1.5  # the spin before a call lasts this many times the host's time to queue it
# Back-to-back calls slower than their GPU work by more than this (ratio, ms) were waiting for the
# host; below it, the difference is the batch's first launch and final synchronisation.
HOST_BOUND_RATIO = 1.05
HOST_BOUND_SLACK_MS = 0.002
HARNESS_RANGE = "hiera::fresh_inputs_and_flush"  # profiler range of the harness's own work per call


@dataclass
class KernelShare:
    name: str
    ms: float  # per call
    share: float


@dataclass
class Timing:
    device: str
    median_ms: float
    mean_ms: float
    min_ms: float
    stdev_ms: float
    iqr_ms: float
    iterations: int
    # Host wall time per call (GPU: back-to-back calls until the whole device is done).
    host_median_ms: float
    method: str
    kernel_sum_ms: float | None = None  # profiler's per-call kernel (GPU) or op (CPU) time
    kernels: list[KernelShare] = field(default_factory=list)
    gpu_median_ms: float | None = None  # GPU: CUDA-event time of the call's GPU work (host queueing hidden)
    host_queue_ms: float | None = None  # GPU: host time per call to queue back-to-back calls
    # A candidate's evaluation on a GPU (judge.PairedTiming), for its streams check: the fastest
    # back-to-back batch, host time per call (a busy host or device only adds time); and per call,
    # how long the device stays busy after the timed stream's end event (median, less an empty
    # call's): work on streams the timed stream never waited for
    host_min_ms: float | None = None
    unwaited_ms: float | None = None
    bound: str = "cpu"  # "gpu" or "host": which of the two GPU figures is the median; "cpu" on CPU
    kernels_per_call: float | None = None  # GPU: kernels the profiler saw per call
    # ~95% confidence interval of the median (median_interval), where the timing has one
    median_low_ms: float | None = None
    median_high_ms: float | None = None

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def spread_pct(self) -> float:
        return 100.0 * self.iqr_ms / self.median_ms if self.median_ms else 0.0


class InputRotation:
    """Fresh inputs for every call, each at an address no earlier call saw.

    Each tensor input gets one arena a little larger than itself; call i copies the original
    values into a view of it shifted by 256 B x i (SOL-ExecBench shifts addresses the same way).
    Cloning per call would not do: the caching allocator hands the freed block straight back,
    at the same address. One extra copy of the inputs is held, whatever the number of calls.
    """

    def __init__(self, inputs: list):
        import torch

        self.originals = inputs
        self.layouts = []
        self.arenas = []
        for value in inputs:
            if not isinstance(value, torch.Tensor):
                self.layouts.append(None)
                self.arenas.append(None)
                continue
            stride = torch.empty_like(value).stride()  # dense, as clone() would lay it out
            extent = 1 + sum((size - 1) * step for size, step in zip(value.shape, stride)) if value.numel() else 0
            shift = -(-ADDRESS_SHIFT_BYTES // value.element_size())
            self.layouts.append((tuple(value.shape), stride, shift))
            self.arenas.append(torch.empty(extent + shift * (ROTATION_SLOTS - 1), dtype=value.dtype,
                                           device=value.device))
        self.calls = 0

    def next(self) -> list:
        slot = self.calls % ROTATION_SLOTS
        self.calls += 1
        fresh = []
        for value, layout, arena in zip(self.originals, self.layouts, self.arenas):
            if arena is None:
                fresh.append(value)
                continue
            shape, stride, shift = layout
            view = arena.as_strided(shape, stride, slot * shift)
            view.copy_(value)
            fresh.append(view)
        return fresh


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def available_host_memory() -> int:
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 4 * 2**30


def time_module(fn: Callable, inputs: list, device: str, profile: bool = True,
                on_last_output: Callable[[object], None] | None = None) -> Timing:
    """Time `fn(*inputs)` (forward of a module under no_grad) by the method of this device.

    `on_last_output` receives the output of the last timed call once it is complete, so the
    caller can check that the candidate still computes the right thing while being timed."""
    import torch

    with torch.no_grad():
        if device == "cuda":
            return _time_cuda(fn, inputs, profile, on_last_output)
        return _time_cpu(fn, inputs, profile, on_last_output)


def _summarise(device: str, times: list[float], host: list[float], method: str) -> Timing:
    return Timing(device=device, median_ms=statistics.median(times), mean_ms=statistics.fmean(times),
                  min_ms=min(times), stdev_ms=statistics.pstdev(times),
                  iqr_ms=_percentile(times, 0.75) - _percentile(times, 0.25), iterations=len(times),
                  host_median_ms=statistics.median(host), method=method)


def _time_cpu(fn: Callable, inputs: list, profile: bool, on_last_output) -> Timing:
    rotation = InputRotation(inputs)
    warm_start = time.perf_counter()
    for _ in range(3):
        fn(*rotation.next())
        if time.perf_counter() - warm_start > 2.0:
            break
    times: list[float] = []
    total = 0.0
    out = None
    while len(times) < 5 or (len(times) < 30 and total < 1.0):
        args = rotation.next()
        del out  # the previous output, before the clock starts
        start = time.perf_counter()
        out = fn(*args)
        elapsed = (time.perf_counter() - start) * 1000
        times.append(elapsed)
        total += elapsed / 1000
    if on_last_output is not None:
        on_last_output(out)
    del out
    timing = _summarise("cpu", times, times, "wall clock, fresh inputs at new addresses per call, warm-up 3, "
                                             "median of >=5 calls (up to 30 or 1 s)")
    if profile:
        timing.kernel_sum_ms, timing.kernels, _ = _profile_ops(fn, rotation, None)
    return timing


class L2Flush:
    """Evicts the L2: a device-to-device copy of twice its size. A copy, not a fill kernel, so the
    profiler lists it as Memcpy, apart from the call's kernels (as it lists the input copies)."""

    def __init__(self):
        import torch

        properties = torch.cuda.get_device_properties(torch.cuda.current_device())
        l2_bytes = getattr(properties, "L2_cache_size", 0) or 50 * 2**20
        self.source = torch.zeros(2 * l2_bytes // 4, dtype=torch.float32, device="cuda")
        self.target = torch.empty_like(self.source)

    def __call__(self) -> None:
        self.target.copy_(self.source)


class HeadStart:
    """A spin kernel (`torch.cuda._sleep`) queued just before each timed call: while the GPU spins,
    the host queues the call, so the events around it hold its GPU work and none of the host's
    time. Its length is set from the host's measured queueing time; the spin rate (cycles per ms)
    is measured once per process. Where torch lacks the helper, there is no head start."""

    cycles_per_ms: float | None = None

    def __init__(self, ms: float):
        import torch

        self.cycles = 0
        self.spin = getattr(torch.cuda, "_sleep", None)
        if ms <= 0 or self.spin is None:
            return
        if HeadStart.cycles_per_ms is None:
            HeadStart.cycles_per_ms = _spin_cycles_per_ms(self.spin)
        self.cycles = int(ms * HeadStart.cycles_per_ms)

    def __call__(self) -> None:
        if self.cycles:
            self.spin(self.cycles)


def _spin_cycles_per_ms(spin: Callable[[int], None], cycles: int = 1_000_000, tries: int = 3) -> float:
    """The spin kernel's rate. The fastest of a few tries: measured at a lower clock, the rate would
    make every later spin (at boost clock) shorter than asked; the other way round only longer."""
    import torch

    spin(1000)  # loads the kernel
    rates = []
    for _ in range(tries):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        spin(cycles)
        end.record()
        end.synchronize()
        rates.append(cycles / max(start.elapsed_time(end), 1e-3))
    return max(rates)


def _cuda_batch(fn: Callable, rotation: InputRotation, flush: L2Flush, head_start: HeadStart
                ) -> tuple[list[float], float, object]:
    """One batch of calls, each after an input copy, the flush and the head start: (event ms per
    call, host ms per call to queue the batch, last output)."""
    import torch

    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(CUDA_BATCH)]
    host_start = time.perf_counter()
    out = None
    for start_event, end_event in events:
        args = rotation.next()
        flush()  # after the input copy, so the call reads its inputs from DRAM
        head_start()
        start_event.record()
        out = fn(*args)
        end_event.record()
    queued = (time.perf_counter() - host_start) * 1000 / CUDA_BATCH
    torch.cuda.synchronize()  # every stream of the device, so work on side streams is waited for
    return [start_event.elapsed_time(end_event) for start_event, end_event in events], queued, out


def _host_batches(fn: Callable, rotation: InputRotation, call_ms: float) -> tuple[list[float], list[float], int]:
    """Calls back to back, as a program's loop makes them (fresh inputs per batch), the whole
    device synchronised after each batch: per batch, the host ms per call until the device is
    done and the host ms per call to queue them; and the calls per batch. At least 5 batches,
    more up to 15 while under 0.25 s. `call_ms`: one call's time, synchronised (sets the batch)."""
    import torch

    calls = max(2, min(HOST_BATCH, int(10.0 / max(call_ms, 1e-3))))
    done: list[float] = []
    queued: list[float] = []
    while len(done) < 5 or (sum(done) * calls < 250.0 and len(done) < 15):
        args = rotation.next()
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        queued.append((time.perf_counter() - start) * 1000 / calls)
        torch.cuda.synchronize()
        done.append((time.perf_counter() - start) * 1000 / calls)
    return done, queued, calls


def _time_cuda(fn: Callable, inputs: list, profile: bool, on_last_output) -> Timing:
    import torch

    _disable_l2_persistence()
    flush = L2Flush()
    rotation = InputRotation(inputs)
    for _ in range(2):
        fn(*rotation.next())
    torch.cuda.synchronize()
    warm_start = time.perf_counter()
    fn(*rotation.next())
    torch.cuda.synchronize()
    host, host_queue, host_calls = _host_batches(fn, rotation, (time.perf_counter() - warm_start) * 1000)
    # The event loop's own host work per call (input copies, flush, events) plus queueing the call.
    loop_queue = statistics.median(_cuda_batch(lambda *args: None, rotation, flush, HeadStart(0))[1]
                                   for _ in range(3))
    host_queue_ms = statistics.median(host_queue)
    head_start = HeadStart(HEAD_START_MARGIN * (loop_queue + host_queue_ms))
    times: list[float] = []
    out = None
    while len(times) < 30 or (sum(times) < 250.0 and len(times) < 1000):
        del out
        batch_times, _, out = _cuda_batch(fn, rotation, flush, head_start)
        times.extend(batch_times)
    if on_last_output is not None:
        on_last_output(out)
    del out
    gpu_median = statistics.median(times)
    host_bound = statistics.median(host) > HOST_BOUND_RATIO * gpu_median + HOST_BOUND_SLACK_MS
    timing = _summarise("cuda", host if host_bound else times, host,
                        "GPU time: CUDA events per call, fresh inputs at new addresses, L2 flushed and a spin "
                        "kernel queued before each call so the events hold no host time, >=30 calls (up to "
                        "0.25 s); or host time where clearly larger: back-to-back calls, whole device "
                        f"synchronised per batch of {host_calls}, >=5 batches; warm-up 3")
    timing.iterations = len(times) + host_calls * len(host)
    timing.gpu_median_ms = gpu_median
    timing.host_queue_ms = host_queue_ms
    timing.bound = "host" if host_bound else "gpu"
    if profile:
        timing.kernel_sum_ms, timing.kernels, timing.kernels_per_call = _profile_ops(fn, rotation, flush)
    return timing


def _disable_l2_persistence() -> None:
    """Lines a candidate marks persisting survive the L2 flush (llm.c PR #851): set the persisting-L2
    limit of this process's CUDA context to 0. Best effort: needs the libcudart torch loaded."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            libraries = {line.split()[-1] for line in maps if "libcudart.so" in line}
    except OSError:
        return
    for path in libraries:
        cudart = ctypes.CDLL(path)
        cudart.cudaCtxResetPersistingL2Cache()
        cudart.cudaDeviceSetLimit(ctypes.c_int(0x06), ctypes.c_size_t(0))  # cudaLimitPersistingL2CacheSize


def _profile_ops(fn: Callable, rotation: InputRotation, flush: L2Flush | None,
                 calls: int = 5) -> tuple[float, list[KernelShare], float | None]:
    """Per-call time summed over GPU kernels (CUPTI, every stream; the flush and input copies are
    Memcpy entries, left out) or over CPU aten ops, the top entries, and (GPU) kernels per call.
    Calls as timed: fresh inputs, and on the GPU an L2 flush before each."""
    import torch
    from torch.profiler import ProfilerActivity, profile, record_function

    device = "cpu" if flush is None else "cuda"
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    with profile(activities=activities) as prof:
        for _ in range(calls):
            with record_function(HARNESS_RANGE):
                args = rotation.next()
                if flush is not None:
                    flush()
            fn(*args)
        if device == "cuda":
            torch.cuda.synchronize()
    totals: dict[str, float] = {}
    launches = 0
    for event in prof.events():
        if device == "cuda":
            # GPU-side copies of record_function ranges (the harness's own) are annotations, not kernels.
            if (event.device_type == torch.autograd.DeviceType.CUDA and not event.is_user_annotation
                    and not _is_memcpy(event.name)):
                totals[event.name] = totals.get(event.name, 0.0) + event.time_range.elapsed_us() / 1000
                launches += 1
        elif event.name.startswith("aten::") and not _inside(event, HARNESS_RANGE):
            totals[event.name] = totals.get(event.name, 0.0) + event.self_cpu_time_total / 1000
    total = sum(totals.values())
    ranked = sorted(totals.items(), key=lambda item: -item[1])[:8]
    shares = [KernelShare(_short(name), ms / calls, ms / total if total else 0.0) for name, ms in ranked]
    return total / calls, shares, (launches / calls if device == "cuda" else None)


def _is_memcpy(name: str) -> bool:
    return name.startswith(("Memcpy", "Memset"))


def _inside(event, range_name: str) -> bool:
    while event.cpu_parent is not None:
        event = event.cpu_parent
        if event.name == range_name:
            return True
    return False


def _short(name: str, limit: int = 90) -> str:
    return name if len(name) <= limit else name[: limit - 3] + "..."


# ---- timing in steps, for a judge that alternates the reference and a candidate -----------------

class FreshValues:
    """Inputs for timed calls that no other call saw: call (j, r) gets base set j with each of its
    floating-point tensors' elements rolled by r (a circular shift in row-major order) in a new
    allocation of the task's layout. The judge picks j and r, so a cache keyed on values never
    hits, no timed call sees a verification set's values, and the judge can recompute the
    reference's output of any timed call to check the candidate's."""

    def __init__(self, base_sets: list[list]):
        self.base_sets = base_sets

    def make(self, set_index: int, roll: int) -> list:
        import torch

        fresh = []
        for value in self.base_sets[set_index]:
            if not isinstance(value, torch.Tensor):
                fresh.append(value)
                continue
            out = torch.empty_like(value)
            shift = roll % value.numel() if value.is_floating_point() and value.numel() > 1 else 0
            if shift and value.is_contiguous() and out.is_contiguous():
                # The roll as two copies straight into the new allocation (torch.roll would make a third).
                source, target = value.view(-1), out.view(-1)
                target[:-shift].copy_(source[shift:])
                target[-shift:].copy_(source[:shift])
            elif shift:
                out.copy_(torch.roll(value, shifts=-shift))
            else:
                out.copy_(value)
            fresh.append(out)
        return fresh


class _PlannedRotation:
    """`next()` over a list of planned calls, for the profiler pass."""

    def __init__(self, values: FreshValues, calls: list[tuple[int, int]]):
        self.values, self.calls, self.index = values, calls, 0

    def next(self) -> list:
        set_index, roll = self.calls[self.index % len(self.calls)]
        self.index += 1
        return self.values.make(set_index, roll)


class BatchTimer:
    """One module's timing loop as steps (warm-up, host batch, event batch, CPU batch, profile).
    The same code times the reference in the judge's process and a candidate in its runner's; the
    judge alternates their steps so that drift in clocks or load falls on both. Each step's calls
    are (set, roll) pairs the judge chose; the outputs of the last step's calls stay alive until
    the next step, so the judge can ask for any of them after the fact."""

    def __init__(self, fn: Callable, values: FreshValues, device: str):
        self.fn = fn
        self.values = values
        self.device = device
        self.outputs: list = []
        self.flush = None
        if device == "cuda":
            _disable_l2_persistence()
            self.flush = L2Flush()
        else:
            fix_host_allocator()

    def run(self, step: str, calls: list[tuple[int, int]], head_start_ms: float = 0.0) -> dict:
        """One step; `harness_ms` in its figures is the time of the harness's own work in it (making
        fresh values, releasing the last step's outputs), which the judge holds to the reference's."""
        import torch

        released = time.perf_counter()
        self.outputs = []
        release_ms = (time.perf_counter() - released) * 1000
        with torch.no_grad():
            figures = getattr(self, f"_{step}")(calls, head_start_ms)
        figures["harness_ms"] = figures.pop("make_ms", 0.0) + release_ms
        return figures

    def _sync(self) -> None:
        import torch

        if self.device == "cuda":
            torch.cuda.synchronize()

    def _warm_up(self, calls, _head_start_ms) -> dict:
        started = time.perf_counter()
        for set_index, roll in calls:
            self.outputs.append(self.fn(*self.values.make(set_index, roll)))
            self._sync()
        return {"ms": (time.perf_counter() - started) * 1000 / max(len(calls), 1)}

    def _host_batch(self, calls, _head_start_ms, noop: bool = False) -> dict:
        """Back to back, every call on its own fresh values, the whole device synchronised. `make_ms`:
        the time to make the fresh values (the judge holds it to the reference's)."""
        made = time.perf_counter()
        staged = [self.values.make(set_index, roll) for set_index, roll in calls]
        self._sync()
        start = time.perf_counter()
        if not noop:
            self.outputs = [self.fn(*args) for args in staged]
        queued = (time.perf_counter() - start) * 1000 / len(calls)
        self._sync()
        return {"done_ms": (time.perf_counter() - start) * 1000 / len(calls), "queued_ms": queued,
                "make_ms": (start - made) * 1000}

    def _noop_host_batch(self, calls, head_start_ms) -> dict:
        return self._host_batch(calls, head_start_ms, noop=True)

    def _cpu_batch(self, calls, _head_start_ms, noop: bool = False) -> dict:
        """Per call the wall clock around it; `make_ms`: the time spent making the fresh values."""
        times, make_ms = [], 0.0
        for set_index, roll in calls:
            made = time.perf_counter()
            args = self.values.make(set_index, roll)
            start = time.perf_counter()
            make_ms += (start - made) * 1000
            if not noop:
                self.outputs.append(self.fn(*args))
            times.append((time.perf_counter() - start) * 1000)
        return {"times": times, "make_ms": make_ms}

    def _noop_cpu_batch(self, calls, head_start_ms) -> dict:
        return self._cpu_batch(calls, head_start_ms, noop=True)

    def _event_batch(self, calls, head_start_ms, noop: bool = False) -> dict:
        """As _cuda_batch: per call the input copy, the L2 flush and the head start, then events."""
        import torch

        head_start = HeadStart(head_start_ms)
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in calls]
        host_start = time.perf_counter()
        for (set_index, roll), (start_event, end_event) in zip(calls, events):
            args = self.values.make(set_index, roll)
            self.flush()
            head_start()
            start_event.record()
            if not noop:
                self.outputs.append(self.fn(*args))
            end_event.record()
        queued = (time.perf_counter() - host_start) * 1000 / len(calls)
        torch.cuda.synchronize()
        return {"times": [start.elapsed_time(end) for start, end in events], "queued_ms": queued}

    def _noop_event_batch(self, calls, head_start_ms) -> dict:
        return self._event_batch(calls, 0.0, noop=True)

    def _tail(self, calls, head_start_ms, noop: bool = False) -> dict:
        """Per call, queued as in an event batch (input copy, L2 flush, head start) but on its own:
        once the timed stream's end event is done, how long until the whole device is (work queued
        on other streams and never waited for)."""
        import torch

        head_start = HeadStart(head_start_ms)
        tails = []
        for set_index, roll in calls:
            args = self.values.make(set_index, roll)
            end_event = torch.cuda.Event()
            torch.cuda.synchronize()
            self.flush()
            head_start()
            if not noop:
                self.outputs.append(self.fn(*args))
            end_event.record()
            end_event.synchronize()
            after = time.perf_counter()
            torch.cuda.synchronize()
            tails.append((time.perf_counter() - after) * 1000)
        return {"tails": tails}

    def _noop_tail(self, calls, head_start_ms) -> dict:
        return self._tail(calls, head_start_ms, noop=True)

    def _profile(self, calls, _head_start_ms) -> dict:
        kernel_sum, kernels, per_call = _profile_ops(self.fn, _PlannedRotation(self.values, calls), self.flush,
                                                     calls=len(calls))
        return {"kernel_sum_ms": kernel_sum, "kernels": [asdict(k) for k in kernels], "kernels_per_call": per_call}


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc mallopt parameters


def fix_host_allocator() -> None:
    """glibc's malloc adapts its mmap and trim thresholds to what a process has freed, so the same
    ops on tensors of a few MB take page faults in one process and not in another (the reference
    in the judge's process measured 2.5x its own copy in the runner's). Fixed thresholds, the same
    in both processes: blocks up to 32 MiB come from the heap and freed memory is kept."""
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(M_MMAP_THRESHOLD, 32 * 2**20)
        libc.mallopt(M_TRIM_THRESHOLD, 2**30)
    except (OSError, AttributeError):  # not glibc
        pass


def median_interval(samples: list[float], z: float = 1.96) -> tuple[float, float]:
    """A distribution-free ~95% confidence interval of the median: the order statistics at
    n/2 -/+ z*sqrt(n)/2 (the binomial's normal approximation)."""
    ordered = sorted(samples)
    n = len(ordered)
    half = z * n ** 0.5 / 2
    low = max(0, int(n / 2 - half))
    high = min(n - 1, int(-(-(n / 2 + half) // 1)))
    return ordered[low], ordered[high]

"""Timing a module the same way for the baseline and every candidate. Imports torch: workers only.

The methodology, and why, is in docs/timing.md. In short:
- Every call, warm-up and timed, gets fresh inputs at an address no earlier call saw
  (`InputRotation`), so results cached on input pointers never hit and mutated inputs are restored.
- GPU: the persisting-L2 limit is set to 0 and the L2 flushed (a buffer twice its size
  overwritten) before each call; CUDA events bracket each call; calls are queued back to back
  without host synchronisation (as in a real program: a call's CPU overhead shows only where it
  exceeds its GPU time); the whole device (every stream) is synchronised once per batch of 10
  and the batch's host time kept, beside the host time of the same loop around an empty call,
  so work hidden on other streams shows up (verify.timing_checks); median and spread over >= 30
  calls and up to 0.25 s of timed work; then a torch.profiler (CUPTI) pass sums the kernels per
  call and names the top ones.
- CPU: the wall clock around each call after warm-up, median over >= 5 calls and up to 30 calls
  or 1 s; the profiler names the top aten ops.
"""

from __future__ import annotations

import ctypes
import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

ADDRESS_SHIFT_BYTES = 256  # keeps the alignment vectorised kernels need
ROTATION_SLOTS = 2048  # more than any timing makes calls: no address repeats within one timing
CUDA_BATCH = 10
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
    host_median_ms: float  # host wall time per call of the same windows (GPU: per batch, all streams synced)
    method: str
    kernel_sum_ms: float | None = None  # profiler's per-call kernel (GPU) or op (CPU) time
    kernels: list[KernelShare] = field(default_factory=list)
    overhead_host_ms: float | None = None  # GPU: host time per call of the timing loop around an empty call
    kernels_per_call: float | None = None  # GPU: kernels the profiler saw per call

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


def _cuda_batch(fn: Callable, rotation: InputRotation, flush: L2Flush) -> tuple[list[float], float, object]:
    """One batch of calls queued back to back: (event ms per call, host ms per call, last output)."""
    import torch

    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(CUDA_BATCH)]
    host_start = time.perf_counter()
    out = None
    for start_event, end_event in events:
        args = rotation.next()
        flush()  # after the input copy, so the call reads its inputs from DRAM
        start_event.record()
        out = fn(*args)
        end_event.record()
    torch.cuda.synchronize()  # every stream of the device, so work on side streams is waited for
    host = (time.perf_counter() - host_start) * 1000 / CUDA_BATCH
    return [start_event.elapsed_time(end_event) for start_event, end_event in events], host, out


def _time_cuda(fn: Callable, inputs: list, profile: bool, on_last_output) -> Timing:
    import torch

    _disable_l2_persistence()
    flush = L2Flush()
    rotation = InputRotation(inputs)
    # The same loop around an empty call: what the copies, the flush and the events cost by themselves.
    overhead = statistics.median(_cuda_batch(lambda *args: None, rotation, flush)[1] for _ in range(3))
    for _ in range(3):
        fn(*rotation.next())
    torch.cuda.synchronize()
    times: list[float] = []
    host: list[float] = []
    out = None
    while len(times) < 30 or (sum(times) < 250.0 and len(times) < 1000):
        del out
        batch_times, batch_host, out = _cuda_batch(fn, rotation, flush)
        times.extend(batch_times)
        host.append(batch_host)
    if on_last_output is not None:
        on_last_output(out)
    del out
    timing = _summarise("cuda", times, host, "CUDA events per call, fresh inputs at new addresses and an L2 "
                                             "flush before each call, calls queued back to back, warm-up 3, "
                                             "device synchronised per batch of 10, median of >=30 calls "
                                             "(up to 0.25 s)")
    timing.overhead_host_ms = overhead
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

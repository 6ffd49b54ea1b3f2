"""Timing a module the same way for the baseline and every candidate. Imports torch: workers only.

GPU method (docs/timing.md): warm-up; before each timed call the L2 is flushed (a buffer twice
the L2 size is overwritten) and a fresh input set at new addresses is used; CUDA events bracket
the call; calls are queued without host synchronisation in between (as in a real program, so
CPU overhead counts only where it exceeds GPU time); the whole device is synchronised (all
streams) per batch and the host time per call is kept for a cross-check; median and spread over
>= 30 calls and up to 0.25 s of timed work. A torch.profiler (CUPTI) pass then sums the kernels per call and names the top kernels.
CPU method: the wall clock around each call (after warm-up), median over >= 5 calls and up to
30 calls or 1 s; the profiler names the top aten ops.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Callable


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
    host_median_ms: float  # host wall time of the same windows (GPU: includes sync latency)
    method: str
    kernel_sum_ms: float | None = None  # profiler's per-call kernel (GPU) or op (CPU) time
    kernels: list[KernelShare] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def spread_pct(self) -> float:
        return 100.0 * self.iqr_ms / self.median_ms if self.median_ms else 0.0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _input_bytes(inputs: list) -> int:
    import torch

    return sum(x.numel() * x.element_size() for x in inputs if isinstance(x, torch.Tensor))


def _fresh_sets(inputs: list, device: str, wanted: int) -> list[list]:
    """Up to `wanted` clones of the inputs (new addresses), bounded to a quarter of free memory."""
    import torch

    from hiera_core.inputs import clone_inputs

    size = max(_input_bytes(inputs), 1)
    if device == "cuda":
        free, _ = torch.cuda.mem_get_info()
    else:
        free = available_host_memory()
    count = max(2, min(wanted, int(0.25 * free // size)))
    return [clone_inputs(inputs) for _ in range(count)]


def available_host_memory() -> int:
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 4 * 2**30


def time_module(fn: Callable, inputs: list, device: str, profile: bool = True) -> Timing:
    """Time `fn(*inputs)` (forward of a module under no_grad) by the method of this device."""
    import torch

    with torch.no_grad():
        if device == "cuda":
            return _time_cuda(fn, inputs, profile)
        return _time_cpu(fn, inputs, profile)


def _summarise(device: str, times: list[float], host: list[float], method: str) -> Timing:
    return Timing(device=device, median_ms=statistics.median(times), mean_ms=statistics.fmean(times),
                  min_ms=min(times), stdev_ms=statistics.pstdev(times),
                  iqr_ms=_percentile(times, 0.75) - _percentile(times, 0.25), iterations=len(times),
                  host_median_ms=statistics.median(host), method=method)


def _time_cpu(fn: Callable, inputs: list, profile: bool) -> Timing:
    sets = _fresh_sets(inputs, "cpu", 4)
    warm_start = time.perf_counter()
    for index in range(3):
        fn(*sets[index % len(sets)])
        if time.perf_counter() - warm_start > 2.0:
            break
    times: list[float] = []
    total = 0.0
    while len(times) < 5 or (len(times) < 30 and total < 1.0):
        args = sets[len(times) % len(sets)]
        start = time.perf_counter()
        fn(*args)
        elapsed = (time.perf_counter() - start) * 1000
        times.append(elapsed)
        total += elapsed / 1000
    timing = _summarise("cpu", times, times, "wall clock, warm-up 3, median of >=5 calls (up to 30 or 1 s)")
    if profile:
        timing.kernel_sum_ms, timing.kernels = _profile_ops(fn, sets, "cpu")
    return timing


def _time_cuda(fn: Callable, inputs: list, profile: bool) -> Timing:
    """Calls are queued back to back, each between its own pair of events and after an L2 flush,
    so the CPU runs ahead as it does in a real program: a call's CPU overhead only shows when it
    exceeds the GPU time (launch-bound work), as in triton's do_bench. The device is synchronised
    (all streams) once per batch before any event is read; the batch's host time is kept."""
    import torch

    properties = torch.cuda.get_device_properties(torch.cuda.current_device())
    l2_bytes = getattr(properties, "L2_cache_size", 50 * 2**20) or 50 * 2**20
    flush = torch.empty(2 * l2_bytes // 4, dtype=torch.float32, device="cuda")
    sets = _fresh_sets(inputs, "cuda", 64)
    for index in range(3):
        fn(*sets[index % len(sets)])
    torch.cuda.synchronize()
    times: list[float] = []
    host: list[float] = []
    while len(times) < 30 or (sum(times) < 250.0 and len(times) < 1000):
        batch = 10
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(batch)]
        host_start = time.perf_counter()
        for offset, (start_event, end_event) in enumerate(events):
            flush.zero_()
            start_event.record()
            fn(*sets[(len(times) + offset) % len(sets)])
            end_event.record()
        torch.cuda.synchronize()  # every stream of the device, so side-stream work is waited for
        host.append((time.perf_counter() - host_start) * 1000 / batch)
        times.extend(start_event.elapsed_time(end_event) for start_event, end_event in events)
    del flush
    timing = _summarise("cuda", times, host, "CUDA events per call, calls queued back to back after an L2 "
                                             "flush each with fresh inputs, warm-up 3, device synchronised per "
                                             "batch of 10, median of >=30 calls (up to 0.25 s)")
    if profile:
        timing.kernel_sum_ms, timing.kernels = _profile_ops(fn, sets, "cuda")
    return timing


def _profile_ops(fn: Callable, sets: list[list], device: str, calls: int = 5) -> tuple[float, list[KernelShare]]:
    """Per-call time summed over GPU kernels (CUPTI) or CPU aten ops, and the top entries."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    with profile(activities=activities) as prof:
        for index in range(calls):
            fn(*sets[index % len(sets)])
        if device == "cuda":
            torch.cuda.synchronize()
    totals: dict[str, float] = {}
    for event in prof.events():
        if device == "cuda":
            if event.device_type == torch.autograd.DeviceType.CUDA and not _is_memcpy(event.name):
                totals[event.name] = totals.get(event.name, 0.0) + event.time_range.elapsed_us() / 1000
        elif event.name.startswith("aten::"):
            totals[event.name] = totals.get(event.name, 0.0) + event.self_cpu_time_total / 1000
    total = sum(totals.values())
    ranked = sorted(totals.items(), key=lambda item: -item[1])[:8]
    shares = [KernelShare(_short(name), ms / calls, ms / total if total else 0.0) for name, ms in ranked]
    return total / calls, shares


def _is_memcpy(name: str) -> bool:
    return name.startswith(("Memcpy", "Memset"))


def _short(name: str, limit: int = 90) -> str:
    return name if len(name) <= limit else name[: limit - 3] + "..."

"""The figures of one timing (`Timing`, with the profiler's top kernels as `KernelShare`) and the
statistics that summarise its samples: median, spread, and a confidence interval of the median.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass, field


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
    # A candidate's evaluation on a GPU (verify.paired_timing.PairedTiming), for its streams check: the fastest
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

    @classmethod
    def from_dict(cls, data: dict) -> Timing:
        return cls(**{**data, "kernels": [KernelShare(**kernel) for kernel in data.get("kernels", [])]})

    @property
    def spread_pct(self) -> float:
        return 100.0 * self.iqr_ms / self.median_ms if self.median_ms else 0.0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _summarise(device: str, times: list[float], host: list[float], method: str) -> Timing:
    return Timing(device=device, median_ms=statistics.median(times), mean_ms=statistics.fmean(times),
                  min_ms=min(times), stdev_ms=statistics.pstdev(times),
                  iqr_ms=_percentile(times, 0.75) - _percentile(times, 0.25), iterations=len(times),
                  host_median_ms=statistics.median(host), method=method)


def median_interval(samples: list[float], z: float = 1.96) -> tuple[float, float]:
    """A distribution-free ~95% confidence interval of the median: the order statistics at
    n/2 -/+ z*sqrt(n)/2 (the binomial's normal approximation)."""
    ordered = sorted(samples)
    n = len(ordered)
    half = z * n ** 0.5 / 2
    low = max(0, int(n / 2 - half))
    high = min(n - 1, int(-(-(n / 2 + half) // 1)))
    return ordered[low], ordered[high]

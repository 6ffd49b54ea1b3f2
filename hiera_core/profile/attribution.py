"""The profiler pass of a timing: where a call's time goes, summed per GPU kernel (CUPTI, every
stream) or per CPU aten op, with the top entries named. The harness's own work is left out.
"""

from __future__ import annotations

from collections.abc import Callable

from hiera_core.profile.harness import InputRotation, L2Flush
from hiera_core.profile.stats import KernelShare

HARNESS_RANGE = "hiera::fresh_inputs_and_flush"  # profiler range of the harness's own work per call


def _profile_ops(fn: Callable, rotation: InputRotation, flush: L2Flush | None,
                 calls: int = 5) -> tuple[float, list[KernelShare], float | None]:
    """Per-call time summed over GPU kernels (CUPTI, every stream; the flush and input copies are
    Memcpy entries, left out) or over CPU aten ops, the top entries, and (GPU) kernels per call.
    Calls as timed: fresh inputs, and on the GPU an L2 flush before each."""
    import torch
    from torch.profiler import record_function

    from hiera_core.profile.harness import op_profiler, profiled_events

    device = "cpu" if flush is None else "cuda"
    with op_profiler(cuda=device == "cuda") as prof:
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
    for event in profiled_events(prof):
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

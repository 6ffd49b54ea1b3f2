"""GPU: for every example, the event-based median agrees with the profiler's kernel sum (CUPTI)
within 10% (plus 2 us: event resolution and the launch latency of the first kernel, and 1.5 us
per gap between two of the call's kernels, which events hold and the kernel sum does not); for
launch-bound examples, whose events also hold the CPU's launch gaps, the kernels fit inside the
events."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.py"))


@pytest.mark.gpu
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_event_time_agrees_with_the_kernel_sum(path):
    from hiera_core.contract import prepare
    from hiera_core.task import load_task
    from hiera_core.timing import HARNESS_RANGE, time_module

    prepared = prepare(load_task(str(path)), "cuda", measure=False)
    timing = time_module(prepared.model, prepared.inputs, "cuda", profile=True)
    summary = (f"events {timing.median_ms:.4g} ms, kernels {timing.kernel_sum_ms:.4g} ms "
               f"({timing.kernels_per_call:g} per call), {timing.kernels[:3]}")
    assert all(share.name != HARNESS_RANGE for share in timing.kernels), summary  # an annotation, not a kernel
    if prepared.spec.workload_class == "launch-bound":
        assert 0 < timing.kernel_sum_ms <= 1.1 * timing.median_ms, summary
    else:
        gaps = max(timing.kernels_per_call - 1, 0)
        assert abs(timing.kernel_sum_ms - timing.median_ms) <= 0.1 * timing.median_ms + 0.002 + 0.0015 * gaps, summary

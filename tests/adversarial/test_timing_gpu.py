"""GPU: for every example, the CUDA-event median (GPU time: the spin queued ahead of each call
hides the host's time) agrees with the profiler's kernel sum (CUPTI) within 10%, plus 2 us (event
resolution) and 1.5 us per gap between two of the call's kernels, which events hold and the
kernel sum does not. Launch-bound examples too: their host time is the separate host figure."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.py"))


@pytest.mark.gpu
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_event_time_agrees_with_the_kernel_sum(path):
    from hiera_core.profile.attribution import HARNESS_RANGE
    from hiera_core.profile.timing import time_module
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task

    prepared = prepare(load_task(str(path)), "cuda", measure=False)
    timing = time_module(prepared.model, prepared.inputs, "cuda", profile=True)
    summary = (f"events {timing.gpu_median_ms:.4g} ms, host {timing.host_median_ms:.4g} ms, "
               f"kernels {timing.kernel_sum_ms:.4g} ms ({timing.kernels_per_call:g} per call), {timing.kernels[:3]}")
    assert all(share.name != HARNESS_RANGE for share in timing.kernels), summary  # an annotation, not a kernel
    gaps = max(timing.kernels_per_call - 1, 0)
    allowance = 0.1 * timing.gpu_median_ms + 0.002 + 0.0015 * gaps
    assert abs(timing.kernel_sum_ms - timing.gpu_median_ms) <= allowance, summary
    assert timing.median_ms == (timing.host_median_ms if timing.bound == "host" else timing.gpu_median_ms), summary

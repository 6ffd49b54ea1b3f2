"""The paper's measures over task records, per level and overall. Pure maths, no I/O.

- validity: the share of tasks whose delivered module is correct (a proposal that passes the
  check, or the reference kept when nothing beat it); failed tasks count as invalid.
- fast_p against a baseline (eager, torch.compile's default mode, or the best torch.compile mode
  timed for the task): the share of all tasks that are valid and
  more than p times faster than the baseline (KernelBench's fast_p; fast_0 is the validity).
- geometric mean and median of the speedup over the valid tasks. A task whose torch.compile
  failed has no speedup against it: it counts in no fast_p numerator against compile.
- library_or_custom: the share of valid proposals implemented in the CUDA-library or custom-CUDA
  space (issue 23: HIERA's claim is selection across the three spaces, not torch.compile alone).
- median_wall_s: the median task's wall time, optimize and the bench's timing (issue 24).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence

from hiera_core.bench.record import TaskRecord

P_VALUES = (0.0, 1.0, 1.5, 2.0)
BEYOND_PYTORCH = ("cuda_libs", "custom_cuda")  # the spaces library_or_custom counts
BASELINES = ("eager", "compile", "best_compile")


def p_key(p: float) -> str:
    """'0', '1', '1.5', '2': how p names its entry in results.json and the report."""
    return f"{p:g}"


def geomean(values: Iterable[float]) -> float | None:
    values = list(values)
    if not values:
        return None
    if any(value <= 0 for value in values):
        raise ValueError("a geometric mean needs positive values")
    return math.exp(sum(math.log(value) for value in values) / len(values))


def median(values: Iterable[float]) -> float | None:
    values = list(values)
    return statistics.median(values) if values else None


def speedup(record: TaskRecord, baseline: str) -> float | None:
    """The record's speedup against a baseline of BASELINES, counted only when the task is valid."""
    if not record.valid:
        return None
    return {"eager": record.speedup_eager, "compile": record.speedup_compile,
            "best_compile": record.speedup_best_compile}[baseline]


def fast_p(records: Sequence[TaskRecord], p: float, baseline: str) -> float | None:
    if not records:
        return None
    hits = sum(1 for record in records if (value := speedup(record, baseline)) is not None and value > p)
    return hits / len(records)


def summarise_group(records: Sequence[TaskRecord]) -> dict:
    speedups = {baseline: [value for record in records if (value := speedup(record, baseline)) is not None]
                for baseline in BASELINES}
    return {
        "tasks": len(records),
        "errors": sum(1 for record in records if record.outcome == "error"),
        "proposals": sum(1 for record in records if record.outcome == "proposal"),
        "valid": sum(1 for record in records if record.valid),
        "validity": sum(1 for record in records if record.valid) / len(records) if records else None,
        "fast_p": {baseline: {p_key(p): fast_p(records, p, baseline) for p in P_VALUES} for baseline in BASELINES},
        "geomean": {baseline: geomean(values) for baseline, values in speedups.items()},
        "median": {baseline: median(values) for baseline, values in speedups.items()},
        "speedups_counted": {baseline: len(values) for baseline, values in speedups.items()},
        "library_or_custom": library_or_custom(records),
        "median_wall_s": median(record.wall_s for record in records if record.wall_s),  # 0: not recorded
        **({"model": model_efficiency(records)} if any(r.model_samples is not None for r in records) else {}),
    }


def library_or_custom(records: Sequence[TaskRecord]) -> float | None:
    """The share of the valid proposals whose space is a CUDA library or custom CUDA; None without any."""
    proposals = [record for record in records if record.outcome == "proposal" and record.valid]
    if not proposals:
        return None
    return sum(1 for record in proposals if record.space in BEYOND_PYTORCH) / len(proposals)


def model_efficiency(records: Sequence[TaskRecord]) -> dict:
    """The model's samples over the tasks a model ran on, apart from the offline candidates."""
    ran = [record for record in records if record.model_samples is not None]
    judged = sum(record.model_judged or 0 for record in ran)
    costs = [record.model_cost for record in ran]
    return {
        "tasks": len(ran),
        "samples": sum(record.model_samples for record in ran),
        "verified": sum(record.model_verified for record in ran),
        "transport_failures": sum(record.model_transport_failures or 0 for record in ran),
        # verified over judged answers, pooled over tasks
        "valid_rate": sum(record.model_verified for record in ran) / judged if judged else None,
        "tasks_with_a_valid_sample": sum(record.model_first_valid_sample is not None for record in ran),
        "median_first_valid_sample": median(r.model_first_valid_sample for r in ran if r.model_first_valid_sample),
        "median_tokens_to_first_valid": median(r.model_tokens_to_first_valid for r in ran
                                               if r.model_tokens_to_first_valid is not None),
        "median_tokens_to_best": median(r.model_tokens_to_best for r in ran if r.model_tokens_to_best is not None),
        "cost": sum(costs) if costs and None not in costs else None,
    }


def level_name(level: int | None) -> str:
    return f"level{level}" if level is not None else "other"


def summarise(records: Sequence[TaskRecord]) -> dict:
    """{"overall": group, "levels": {"level1": group, ...}} in level order ("other" last)."""
    levels = sorted({record.level for record in records}, key=lambda level: (level is None, level or 0))
    return {"overall": summarise_group(records),
            "levels": {level_name(level): summarise_group([r for r in records if r.level == level])
                       for level in levels}}

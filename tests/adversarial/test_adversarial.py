"""Every hack of the corpus is rejected by the check its header names; every control passes.

CPU: the entries that run anywhere, here and in CI. GPU (`-m gpu`, on the H200): every entry on
CUDA, including the GPU-only ones (side streams, custom kernels, compute-sanitizer findings).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus import ENTRIES, evaluate, evaluate_all

from hiera_core.worker.requests import EvaluateResult

CPU_ENTRIES = [e for e in ENTRIES if e.device == "any" and not e.sanitize]
HACKS = [e for e in ENTRIES if e.kind == "hack"]
CONTROLS = [e for e in ENTRIES if e.kind == "control"]
# Checks whose failures are about particular values: the report must say how to reproduce them.
VALUE_CHECKS = {"values", "nan", "trivial-output", "uninitialized-output", "state", "input-mutation", "revalidation"}


@pytest.fixture(scope="session")
def corpus_folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("corpus")


@pytest.fixture(scope="session")
def cpu_results(request, corpus_folder) -> dict[str, EvaluateResult]:
    """The CPU entries this session selected, evaluated two at a time (CPU checks do not depend on
    timings, so sharing the machine cannot change a verdict)."""
    selected = [item.callspec.params["entry"] for item in request.session.items
                if getattr(item, "originalname", "") == "test_on_cpu"]
    return evaluate_all(selected, "cpu", corpus_folder, workers=2)


def describe(result: EvaluateResult) -> str:
    return "\n".join(f"{'ok' if c.passed else 'FAILED'} {c.name}: {c.message} [{c.reproducer}]"
                     for c in result.verification.checks)


def judge(entry, result: EvaluateResult) -> None:
    checks = result.verification.checks
    failed = [check for check in checks if not check.passed]
    if entry.kind == "control":
        assert not failed and result.verification.passed, f"{entry.name} was rejected:\n{describe(result)}"
        assert result.candidate.median_ms > 0, "a passing candidate is timed"
        return
    if entry.expect == "no-speedup":  # verified, but no speedup may be claimed for it
        # On a machine busier than the judge's clock allows for, the timing-window check may refuse
        # the candidate's timing instead: no speedup counts either way. Any other check is a false rejection.
        refused_timing = [check.name for check in failed] == ["timing-window"]
        assert not failed or refused_timing, f"{entry.name} was rejected:\n{describe(result)}"
        if not refused_timing:
            assert not result.significant, f"{entry.name} counted as {result.speedup:.2f}x: {result.timing_verdict}"
        return
    assert failed, f"{entry.name} passed verification:\n{describe(result)}"
    expected = entry.expect.split("|")  # a|b: either check may catch it first (on another device)
    assert failed[0].name in expected, f"{entry.name}: expected {entry.expect}:\n{describe(result)}"
    if failed[0].name in VALUE_CHECKS:
        assert "seed" in failed[0].reproducer and "shapes" in failed[0].reproducer, failed[0]


def test_the_corpus_has_enough_distinct_tricks_each_explained():
    assert len(HACKS) >= 50 and len(CONTROLS) >= 30
    for entry in ENTRIES:
        assert entry.comment().startswith("Exploits:" if entry.kind == "hack" else "Legitimate"), entry.name
    assert {check for e in HACKS for check in e.expect.split("|")} >= {"uninitialized-output", "input-mutation", "state", "reference-fallback",
                                         "reference-ops", "try-except", "streams", "threads", "timer-patching",
                                         "tensor-subclass", "values", "nan", "trivial-output", "introspection",
                                         "revalidation"}


@pytest.mark.parametrize("entry", CPU_ENTRIES, ids=str)
def test_on_cpu(entry, cpu_results):
    judge(entry, cpu_results[entry.name])


@pytest.mark.gpu
@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_on_gpu(entry, corpus_folder):
    # One at a time: no evaluation's timing may share the GPU with another's.
    judge(entry, evaluate(entry, "cuda", corpus_folder))

"""Tasks too large to hold every verification set at once (KernelBench's 6 GiB softmax): the judge
goes lean, one set on the device at a time, and still runs every check and times the candidate."""

from __future__ import annotations

import pytest
import torch
from helpers.engine import write_task

import hiera_core.verify.judge as judge_module
from hiera_core.spec.contract import prepare
from hiera_core.task.load import load_task
from hiera_core.verify.footprint import Footprint
from hiera_core.verify.judge import evaluate

TASK = """
    import torch
    import torch.nn as nn


    class Model(nn.Module):
        def forward(self, x):
            return torch.softmax(x, dim=-1)


    def get_inputs():
        return [torch.randn(32, 64)]


    def get_init_inputs():
        return []
"""

CANDIDATE = """
    import torch
    import torch.nn as nn


    class ModelNew(nn.Module):
        def forward(self, x):
            {body}
"""


def test_a_footprint_bounds_the_calls_held_at_once():
    footprint = Footprint(call_bytes=6 << 30, budget_bytes=20 << 30)
    assert footprint.calls(10) == 1 and footprint.calls(10, copies=1) == 3
    assert not footprint.fits(15) and footprint.fits(3)
    assert Footprint(6 << 30, None).calls(10) == 10 and Footprint(6 << 30, None).fits(10**6)


@pytest.fixture
def lean(monkeypatch):
    """Every evaluation planned as if the device had room for two of the task's calls."""
    def small_budget(inputs, outputs, device):
        from hiera_core.spec.memory import tensor_bytes

        call = tensor_bytes(inputs) + tensor_bytes(outputs)
        return Footprint(call, 2 * call)

    monkeypatch.setattr(judge_module, "footprint_of", small_budget)


def _evaluate(tmp_path, body: str, timed: bool = False):
    task = load_task(str(write_task(tmp_path, "softmax.py", TASK)))
    spec = prepare(task, "cpu", measure=False).spec
    candidate = write_task(tmp_path, "candidate.py", CANDIDATE.format(body=body))
    return evaluate(task, spec, str(candidate), "pytorch", "cpu", timed=timed)


def test_lean_verification_checks_every_set_and_times_the_candidate(tmp_path, lean):
    result = _evaluate(tmp_path, "return torch.softmax(x, dim=-1)", timed=True)
    verification = result.verification
    assert verification.passed, verification.summary()
    memory = next(check for check in verification.checks if check.name == "memory")
    assert "one input set on the device at a time" in memory.message
    assert len(verification.sets_checked) == verification.input_sets == 5
    assert {"values", "determinism", "state", "output-reuse"} <= {check.name for check in verification.checks}
    assert result.candidate is not None and result.candidate.median_ms > 0


def test_lean_verification_still_fails_a_candidate_wrong_on_a_later_set(tmp_path, lean):
    """Right on the task's own values, wrong far from zero (the second set, values near 100): the
    sets drawn at their turn are judged as the held ones are."""
    verification = _evaluate(tmp_path, "return torch.softmax(x.clamp(-20, 20), dim=-1)").verification
    assert not verification.passed, verification.summary()
    assert "offset values" in verification.failure().reproducer


def test_without_a_memory_limit_nothing_changes(tmp_path):
    verification = _evaluate(tmp_path, "return torch.softmax(x, dim=-1)").verification
    assert verification.passed and not any(check.name == "memory" for check in verification.checks)


def test_lean_verification_still_fails_a_candidate_that_reuses_its_output_buffer(tmp_path, lean):
    """Lean, the earlier outputs compared against are kept in host memory: a candidate that writes
    every result into one buffer is still caught when an earlier output changes."""
    body = ("self.__dict__.setdefault('buffer', torch.empty_like(x)).copy_(torch.softmax(x, dim=-1))\n"
            "            return self.buffer")
    verification = _evaluate(tmp_path, body).verification
    assert not verification.passed
    assert verification.failure().name == "output-reuse", verification.summary()


def test_the_reference_keeps_a_copy_only_of_the_inputs_its_forward_mutates(tmp_path):
    """The judge's copy of what forward left in an input is a footprint of memory on a task that fills
    the GPU: one the forward left alone is the set's own tensor."""
    from hiera_core.verify.calls import CheckedCalls
    from hiera_core.verify.inputs import draw_set, set_recipes

    source = TASK.replace("return torch.softmax(x, dim=-1)", "y.add_(1.0)\n            return torch.softmax(x, dim=-1)")
    source = source.replace("def forward(self, x):", "def forward(self, x, y):").replace(
        "return [torch.randn(32, 64)]", "return [torch.randn(32, 64), torch.randn(4)]")
    task = load_task(str(write_task(tmp_path, "mutates.py", source)))
    spec = prepare(task, "cpu", measure=False).spec
    calls = CheckedCalls(task, spec, str(write_task(tmp_path, "candidate.py", "")), "pytorch", "cpu", seed=0)
    input_set = draw_set(task, "cpu", set_recipes(task, count=1, base_seed=0)[0])
    reference = calls.reference_call(calls.reference, input_set)
    assert reference.mutated == [1]
    assert reference.inputs_after[0] is input_set.inputs[0]
    assert reference.inputs_after[1] is not input_set.inputs[1]
    assert torch.equal(reference.inputs_after[1], input_set.inputs[1] + 1.0)

"""The exact rewrite of a sum over a linear map's outputs (pytorch.sum_through_linear): where it
applies, that the candidate computes the reference's values without the product matrix, and that
its kept summed weights follow every change to the weights."""

import ast

import pytest
import torch
from helpers.engine import write_task
from helpers.spaces import candidate_module, implement_context

from hiera_core.plan.planner import ExpertPlanner
from hiera_core.spaces import strategies
from hiera_core.spaces.algebra import rewrites_the_work

KEY = "pytorch.sum_through_linear"


def _task(tmp_path, init: str, forward: str, inputs: str = "torch.randn(64, 32)"):
    return write_task(tmp_path, "task.py", f"""
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                {init}

            def forward(self, x):
                {forward}

        def get_inputs():
            return [{inputs}]

        def get_init_inputs():
            return []
    """)


GEMM_SUM = ("self.weight = nn.Parameter(torch.randn(48, 32) / 6)",
            "return (torch.matmul(x, self.weight.t()) / 2).sum(dim=1, keepdim=True) * 1.5")


def _forward_calls(code: str) -> set[str]:
    tree = ast.parse(code)
    model_new = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew")
    calls = [n.func for n in ast.walk(model_new) if isinstance(n, ast.Call)]
    return {f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "") for f in calls}


def _candidate(path):
    task, prepared, ctx = implement_context(path)
    candidate = strategies()[KEY].generate(ctx)
    return task, prepared, ctx, candidate


def _assert_matches(model, reference, inputs):
    with torch.no_grad():
        torch.testing.assert_close(model(*inputs), reference(*inputs), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("init, forward, inputs", [
    GEMM_SUM + ("torch.randn(64, 32)",),
    ("self.fc = nn.Linear(32, 24)", "return self.fc(x).mean(-1) * 3.0", "torch.randn(4, 16, 32)"),
    ("self.w = nn.Parameter(torch.randn(24, 32)); self.b = nn.Parameter(torch.randn(24))",
     "return torch.sum(0.5 * F.linear(x, self.w, self.b), dim=-1)", "torch.randn(64, 32)"),
    ("self.p = nn.Parameter(torch.randn(32, 40))", "return (x @ self.p).sum(-1, keepdim=True) / 4", "torch.randn(8, 32)"),
])
def test_a_sum_over_a_linear_maps_outputs_becomes_a_matrix_vector_product(tmp_path, init, forward, inputs):
    path = _task(tmp_path, init, forward, inputs)
    task, prepared, ctx, candidate = _candidate(path)
    assert strategies()[KEY].applies(ctx.spec)
    assert candidate.space == "pytorch" and "_hiera_summed" in candidate.code
    # The product matrix is never formed: no linear, no transpose, no reduction left in forward.
    assert not _forward_calls(candidate.code) & {"linear", "fc", "t", "sum", "mean"}
    _assert_matches(candidate_module(task, prepared, candidate.code), prepared.model, prepared.inputs)


def test_constant_scalings_before_and_after_the_sum_fold_into_the_weights(tmp_path):
    task, prepared, ctx, candidate = _candidate(_task(tmp_path, *GEMM_SUM))
    forward = candidate.code.split("class ModelNew")[1]
    assert "_hiera_summed(weight_1, 0, 0.75)" in forward
    assert "1.5" not in forward and "/ 2" not in forward and ".t()" not in forward


@pytest.mark.parametrize("forward, why", [
    ("y = x @ self.weight.t()\n                return y.sum(-1), y", "the product is also returned"),
    ("return (x @ self.weight.t()).sum(0)", "summed over rows, not features"),
    ("return torch.relu(x @ self.weight.t()).sum(-1)", "a non-linear op in between"),
    ("return (x @ self.weight.t() * x[:, :1]).sum(-1)", "scaled by a tensor"),
    ("return (x @ self.weight.t() + 1.0).sum(-1)", "a shift is not a scaling"),
    ("return (x @ x.t()).sum(-1)", "no weight: both sides are inputs"),
])
def test_it_does_not_apply_where_the_product_is_needed_or_the_map_is_not_linear(tmp_path, forward, why):
    _, _, ctx = implement_context(_task(tmp_path, "self.weight = nn.Parameter(torch.randn(48, 32))", forward, "torch.randn(48, 32)"))
    assert strategies()[KEY].applies(ctx.spec) is None, why


def test_the_kept_summed_weights_follow_in_place_updates_loaded_weights_and_new_tensors(tmp_path):
    task, prepared, _, candidate = _candidate(_task(tmp_path, *GEMM_SUM))
    model = candidate_module(task, prepared, candidate.code)
    reference = prepared.model
    _assert_matches(model, reference, prepared.inputs)
    with torch.no_grad():  # an optimizer step: in place
        model.weight.mul_(-2.0)
        reference.weight.mul_(-2.0)
    _assert_matches(model, reference, prepared.inputs)
    reference.weight.data = torch.randn(48, 32)  # new storage, version counter from zero
    model.load_state_dict(reference.state_dict())
    _assert_matches(model, reference, prepared.inputs)
    model.weight.data = reference.weight.data.clone()
    _assert_matches(model, reference, prepared.inputs)


def test_gradients_reach_the_weights_under_autograd(tmp_path):
    task, prepared, _, candidate = _candidate(_task(tmp_path, *GEMM_SUM))
    model = candidate_module(task, prepared, candidate.code).train()
    reference = prepared.model.train()
    for _ in range(2):  # the second call must not reuse a summed weight from an earlier graph
        model.zero_grad()
        reference.zero_grad()
        model(*prepared.inputs).sum().backward()
        reference(*prepared.inputs).sum().backward()
        torch.testing.assert_close(model.weight.grad, reference.weight.grad, rtol=1e-4, atol=1e-4)


def test_the_planner_puts_the_rewrite_first_whatever_the_workload_class(tmp_path):
    _, _, ctx = implement_context(_task(tmp_path, *GEMM_SUM))
    for workload_class in ("compute-bound", "memory-bound", "launch-bound"):
        ctx.spec.workload_class = workload_class
        plan = ExpertPlanner().plan(ctx.spec)
        assert plan.entries[0].strategy == KEY, workload_class


def test_only_the_engines_rewrite_and_its_graph_replay_count_as_exact_rewrites():
    assert rewrites_the_work("pytorch", "sum_through_linear")
    assert rewrites_the_work("pytorch", "sum_through_linear+graph")
    assert not rewrites_the_work("pytorch", "llm: sum_through_linear")  # a model's candidate
    assert not rewrites_the_work("pytorch", "compile_default")

"""The exact rewrite of a product with a diagonal matrix as a scaling (pytorch.diagonal_as_scale,
KernelBench's `torch.diag(A) @ B`): where it applies, on either side and batched, that the candidate
computes the reference's values without the square matrix or the GEMM, and where it must not apply."""

import pytest
import torch
from helpers.engine import write_task
from helpers.spaces import candidate_module, implement_context

from hiera_core.plan.planner import ExpertPlanner
from hiera_core.spaces import strategies

KEY = "pytorch.diagonal_as_scale"


def _task(tmp_path, forward: str, shapes=("(16,)", "(16, 12)")):
    a, b = shapes
    return write_task(tmp_path, "task.py", f"""
        import torch
        import torch.nn as nn

        class Model(nn.Module):
            def forward(self, a, b):
                {forward}

        def get_inputs():
            return [torch.randn{a}, torch.randn{b}]

        def get_init_inputs():
            return []
    """)


@pytest.mark.parametrize("forward, shapes", [
    ("return torch.diag(a) @ b", ("(16,)", "(16, 12)")),
    ("return torch.matmul(b, torch.diag(a))", ("(16,)", "(12, 16)")),
    ("return torch.relu(torch.mm(torch.diag(a), b)) + 1.0", ("(16,)", "(16, 12)")),
    ("return torch.diag_embed(a) @ b", ("(3, 16)", "(3, 16, 12)")),
    ("return b @ torch.diag_embed(a)", ("(3, 16)", "(3, 12, 16)")),
], ids=["left", "right", "mm-in-a-chain", "batched-left", "batched-right"])
def test_a_product_with_a_diagonal_matrix_becomes_a_scaling(tmp_path, forward, shapes):
    task, prepared, ctx = implement_context(_task(tmp_path, forward, shapes))
    assert strategies()[KEY].applies(ctx.spec)
    candidate = strategies()[KEY].generate(ctx)
    forward_code = candidate.code[candidate.code.index("def forward"):]
    assert "diag" not in forward_code and "matmul" not in forward_code and "torch.mm" not in forward_code
    model = candidate_module(task, prepared, candidate.code)
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("forward, shapes", [
    # an off-diagonal band: not a scaling
    ("return torch.diag(a, 1) @ b", ("(15,)", "(16, 12)")),
    # the diagonal matrix is also returned: it must be formed
    ("d = torch.diag(a)\n                return d @ b, d", ("(16,)", "(16, 12)")),
    # diag of a matrix takes its diagonal (a vector): no diagonal matrix at all
    ("return torch.diag(b) * a", ("(16,)", "(16, 16)")),
    # a diagonal embedded along other dims
    ("return torch.diag_embed(a, dim1=0, dim2=2) @ b", ("(3, 4)", "(4, 4, 5)")),
], ids=["off-diagonal", "diagonal-returned", "diagonal-of-a-matrix", "other-dims"])
def test_it_does_not_apply_where_the_matrix_is_not_a_plain_diagonal_only_multiplied(tmp_path, forward, shapes):
    _, _, ctx = implement_context(_task(tmp_path, forward, shapes))
    assert strategies()[KEY].applies(ctx.spec) is None
    assert strategies()[KEY].generate(ctx) is None


def test_the_planner_puts_the_rewrite_first(tmp_path):
    _, _, ctx = implement_context(_task(tmp_path, "return torch.diag(a) @ b"))
    plan = ExpertPlanner().plan(ctx.spec)
    assert plan.entries[0].strategy == KEY

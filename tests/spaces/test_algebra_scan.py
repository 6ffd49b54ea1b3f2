"""The exact rewrite of a prefix sum of outer products read through a query (pytorch.scan_as_masked_matmul,
causal linear attention): where it applies, whatever the spelling, that the candidate computes the
reference's values without the (t, d, e) tensor, and where it must not apply."""

import pytest
import torch
from helpers.engine import write_task
from helpers.spaces import candidate_module, implement_context

from hiera_core.plan.planner import ExpertPlanner
from hiera_core.spaces import strategies
from hiera_core.spaces.algebra import rewrites_the_work

KEY = "pytorch.scan_as_masked_matmul"
SHAPES = "(2, 3, 16, 8)", "(2, 3, 16, 8)", "(2, 3, 16, 5)"


def _task(tmp_path, forward: str, shapes=SHAPES):
    q, k, v = shapes
    return write_task(tmp_path, "task.py", f"""
        import torch
        import torch.nn as nn

        class Model(nn.Module):
            def forward(self, q, k, v):
                {forward}

        def get_inputs():
            return [torch.rand{q}, torch.rand{k}, torch.randn{v}]

        def get_init_inputs():
            return []
    """)


PERFORMER = """k_cumsum = k.cumsum(dim=-2)
                D_inv = 1. / torch.einsum('...nd,...nd->...n', q, k_cumsum.type_as(q) + 1e-6)
                context = torch.einsum('...nd,...ne->...nde', k, v)
                context_cumsum = context.cumsum(dim=-3)
                return torch.einsum('...nde,...nd,...n->...ne', context_cumsum, q, D_inv)"""
NAMED_AXES = """state = torch.einsum('bhsd,bhse->bhsde', k, v).cumsum(2)
                return torch.einsum('bhsd,bhsde->bhse', q, state)"""
BROADCAST = """state = torch.cumsum(k.unsqueeze(-1) * v.unsqueeze(-2), dim=-3)
                return (state * q.unsqueeze(-1)).sum(dim=-2)"""


@pytest.mark.parametrize("forward", [PERFORMER, NAMED_AXES, BROADCAST], ids=["performer", "named-axes", "broadcast"])
def test_a_prefix_sum_of_outer_products_read_through_a_query_becomes_a_masked_product(tmp_path, forward):
    task, prepared, ctx = implement_context(_task(tmp_path, forward))
    assert strategies()[KEY].applies(ctx.spec)
    candidate = strategies()[KEY].generate(ctx)
    assert candidate.space == "pytorch" and "torch.tril" in candidate.code
    forward_code = candidate.code[candidate.code.index("def forward"):]
    assert "cumsum(dim = -3)" not in forward_code and "cumsum(2)" not in forward_code and "-> ...nde" not in forward_code
    model = candidate_module(task, prepared, candidate.code)
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("forward, shapes", [
    # the scanned tensor is itself an output: it must be formed
    ("state = torch.einsum('...nd,...ne->...nde', k, v).cumsum(dim=-3)\n"
     "                return torch.einsum('...nde,...nd->...ne', state, q), state", SHAPES),
    # scanned over d, not over the positions
    ("state = torch.einsum('...nd,...ne->...nde', k, v).cumsum(dim=-2)\n"
     "                return torch.einsum('...nde,...nd->...ne', state, q)", SHAPES),
    # read over e, the value's axis: not a product with the keys
    ("state = torch.einsum('...nd,...ne->...nde', k, v).cumsum(dim=-3)\n"
     "                return torch.einsum('...nde,...ne->...nd', state, v)", SHAPES),
    # 64 positions of 2 x 2 features: the (t, t) matrix would be larger than the tensor it replaces
    ("state = torch.einsum('...nd,...ne->...nde', k, v).cumsum(dim=-3)\n"
     "                return torch.einsum('...nde,...nd->...ne', state, q)", ("(1, 64, 2)", "(1, 64, 2)", "(1, 64, 2)")),
], ids=["scan-returned", "scan-over-features", "read-over-values", "long-and-narrow"])
def test_it_does_not_apply_where_the_identity_does_not_hold_or_does_not_pay(tmp_path, forward, shapes):
    _, _, ctx = implement_context(_task(tmp_path, forward, shapes))
    assert strategies()[KEY].applies(ctx.spec) is None
    assert strategies()[KEY].generate(ctx) is None


def test_the_planner_puts_the_rewrite_first_whatever_the_workload_class(tmp_path):
    _, _, ctx = implement_context(_task(tmp_path, PERFORMER))
    for workload_class in ("compute-bound", "memory-bound", "launch-bound"):
        ctx.spec.workload_class = workload_class
        assert ExpertPlanner().plan(ctx.spec).entries[0].strategy == KEY, workload_class
    assert rewrites_the_work("pytorch", "scan_as_masked_matmul+graph")  # held to the bytes it moves


def test_the_rewrite_compiled_by_inductor_computes_the_references_values(tmp_path, monkeypatch):
    """The profile's refinement for a rewrite behind inductor's kernels (compose.compiled_rewrite)."""
    from hiera_core.spaces.compose import compiled_rewrite

    # A cache of its own, not the machine's shared one: with the shared one this test failed twice on a
    # 2-core machine, a C++ kernel of inductor's not compiling ("at::vec has not been declared"),
    # while other test processes compiled beside it; what other processes leave there is not its part.
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))

    task, prepared, ctx = implement_context(_task(tmp_path, PERFORMER))
    composed = compiled_rewrite(strategies()[KEY].generate(ctx), dynamic=False)
    model = candidate_module(task, prepared, composed.code)
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-4, atol=1e-4)

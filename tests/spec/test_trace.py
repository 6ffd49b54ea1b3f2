"""The reference's graph where plain torch.fx symbolic tracing fails: real model code reads sizes in
Python (a mask built from a length, a slice of a rotary table, an assert on sizes, a loop over
chunks), and forward parameters the inputs leave at their defaults. The graph is then specialised to
the example's shapes (never with dynamic dims), and the strategies that rewrite it work on it."""

import pytest
import torch
from helpers.attention_tasks import SIZES_IN_PYTHON
from helpers.engine import write_task
from helpers.spaces import candidate_module, implement_context

from hiera_core.spaces import strategies
from hiera_core.spec.contract import trace_graph
from hiera_core.spec.model import render_text


def test_python_on_sizes_is_traced_specialised_and_its_attention_runs_as_causal_sdpa(tmp_path):
    task, prepared, ctx = implement_context(write_task(tmp_path, "decoder.py", SIZES_IN_PYTHON))
    assert ctx.spec.graph["traceable"] and ctx.spec.graph["traced"] == "specialised to the example's shapes"
    assert any(node["target"] == "torch.ones" for node in ctx.spec.graph["nodes"])  # the mask is built per call
    assert "(torch.fx: specialised to the example's shapes)" in render_text(ctx.spec)  # `hiera spec` says so
    candidate = strategies()["pytorch.sdpa"].generate(ctx)
    forward = candidate.code.split("class ModelNew")[1]
    assert "is_causal = True" in forward and "softmax" not in forward
    model = candidate_module(task, prepared, candidate.code)
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-5, atol=1e-5)


def test_dynamic_dims_are_never_specialised(tmp_path):
    source = SIZES_IN_PYTHON.replace("    class Model", "    # hiera: dynamic=x:1\n    class Model", 1)
    _, _, ctx = implement_context(write_task(tmp_path, "decoder.py", source))
    assert not ctx.spec.graph["traceable"]
    assert "graph: none (torch.fx cannot trace forward" in render_text(ctx.spec)


def test_a_parameter_left_at_its_default_is_traced_at_it():
    class Encoder(torch.nn.Module):
        def forward(self, x, attention_mask=None):
            scores = x @ x.transpose(-1, -2)
            if attention_mask is not None:
                scores = scores + attention_mask
            return scores.softmax(-1) @ x

    inputs = [torch.randn(2, 5, 4)]
    graph_module, graph = trace_graph(Encoder(), inputs)
    assert graph["traced"] == "symbolic"
    assert [node["target"] for node in graph["nodes"] if node["op"] == "call_function"] == [
        "operator.matmul", "operator.matmul"]
    torch.testing.assert_close(graph_module(*inputs), Encoder()(*inputs))


def test_a_default_and_sizes_in_python_together_trace_specialised():
    """torch.fx renames the placeholder of a parameter traced at its default (`mask` -> `mask_1`)."""

    class Masked(torch.nn.Module):
        def forward(self, x, mask=None):
            weights = torch.ones(x.shape[0], x.shape[0], device=x.device)
            if mask is not None:
                weights = weights + mask
            return x @ weights

    inputs = [torch.randn(4, 4)]
    graph_module, graph = trace_graph(Masked(), inputs)
    assert graph["traced"] == "specialised to the example's shapes"
    torch.testing.assert_close(graph_module(*inputs), Masked()(*inputs))


def test_tracing_leaves_a_module_that_stores_state_as_it_was():
    class Recurrent(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = torch.nn.Linear(3, 3)
            self.hidden = torch.zeros(2, 3)

        def forward(self, x):
            self.hidden = torch.tanh(self.cell(x) + self.hidden)
            return self.hidden

    model, inputs = Recurrent(), [torch.randn(2, 3)]
    graph_module, _ = trace_graph(model, inputs)
    assert torch.equal(model.hidden, torch.zeros(2, 3))
    expected = Recurrent.forward(model, *inputs)  # the first call's output, from the state before it
    torch.testing.assert_close(graph_module(*inputs), expected)


class BranchOnValues(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x


class ScaleByAValue(torch.nn.Module):
    def forward(self, x):
        ones = torch.ones(x.shape[0], 1, device=x.device)  # sizes in Python: only the specialised trace gets here
        return x * ones.squeeze(1) / x.abs().max().item()


class BranchOnEquality(torch.nn.Module):
    def forward(self, x):
        ones = torch.ones(x.shape[0], 1, device=x.device).squeeze(1)
        return x + ones if torch.equal(x, x.abs()) else x - ones


@pytest.mark.parametrize("model", [BranchOnValues(), ScaleByAValue(), BranchOnEquality()], ids=lambda m: type(m).__name__)
def test_python_on_a_tensors_values_is_not_specialised(model):
    """A graph fixed to the example's values would compute something else on other inputs."""
    graph_module, graph = trace_graph(model, [torch.randn(6)])
    assert graph_module is None and "cannot trace" in graph["reason"]

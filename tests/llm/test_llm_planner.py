"""Space selection by a model through the real client; unusable answers fall back, recorded."""

import json

import pytest
from helpers.chat_server import Answer, ChatServer, Status, plan_answer
from helpers.llm import config_for

from hiera_core.llm.client import ChatClient, ModelUnavailable
from hiera_core.loop.refine_planning import plan_with_model
from hiera_core.plan.planner import ExpertPlanner, render_plan


def plan_for(server, record, spec):
    client = ChatClient(config_for(server.url, max_retries=0), backoff_s=0.01)
    return plan_with_model(client, client.config, record, spec, "cpu: test machine", record.started + 60)


@pytest.mark.parametrize("fenced", [True, False])
def test_the_models_choice_is_used_bare_or_fenced(tiny_spec, record, fenced):
    with ChatServer([Answer(plan_answer("pytorch", "fold into one expression", fenced=fenced))]) as server:
        plan = plan_for(server, record, tiny_spec)
    assert plan.planner == "llm" and plan.spaces[0].space == "pytorch"
    assert plan.choice == {"space": "pytorch", "strategy": "fold into one expression", "reason": "scripted choice",
                           "source": "model", "problem": ""}
    assert "the model chose: pytorch / fold into one expression" in plan.summary
    assert "Chosen by the model: pytorch / fold into one expression" in render_plan(plan)
    # The prompt carried the spec, the offline ranking and the spaces open on this device.
    prompt = server.requests[0].last_user
    assert "Task tiny.py::Model" in prompt and render_plan(ExpertPlanner().plan(tiny_spec)) in prompt
    assert "- pytorch: PyTorch operators" in prompt and "- custom_cuda" not in prompt
    exchange = record.exchanges[0]
    assert (exchange.stage, exchange.status) == ("plan", "used")
    stored = json.loads((record.run.path / exchange.file).read_text())
    assert stored["messages"][1]["content"] == prompt and stored["answer"].count("scripted choice") == 1
    assert json.loads((record.run.path / "llm.json").read_text())["plan_choice"]["source"] == "model"


@pytest.mark.parametrize("answer, problem", [
    ("Custom CUDA, clearly.", 'no JSON object found (expected {"space": ..., "strategy": ..., "reason": ...})'),
    (plan_answer("triton"), "space 'triton' is not one of pytorch, cuda_libs, custom_cuda"),
    (plan_answer("custom_cuda"), "space 'custom_cuda' needs a CUDA device; this run is on cpu"),
    ('{"space": "pytorch", "strategy": "", "reason": "r"}', "strategy must be a short non-empty string"),
])
def test_an_unusable_answer_falls_back_to_the_offline_ranking(tiny_spec, record, answer, problem):
    with ChatServer([Answer(answer)]) as server:
        plan = plan_for(server, record, tiny_spec)
    offline = ExpertPlanner().plan(tiny_spec)
    assert plan.choice["source"] == "fallback" and plan.choice["problem"] == problem
    assert plan.choice["space"] == offline.spaces[0].space and plan.choice["strategy"] == offline.entries[0].strategy
    assert "offline ranking used" in plan.summary
    assert (record.exchanges[0].status, record.exchanges[0].reason) == ("invalid", problem)


def test_a_lost_request_falls_back_too(tiny_spec, record):
    with ChatServer([], then=Status(500, "down")) as server:
        plan = plan_for(server, record, tiny_spec)
    assert plan.choice["source"] == "fallback" and plan.choice["problem"].startswith("HTTP 500: down")
    assert record.exchanges[0].status == "error"


def test_an_unreachable_model_propagates(tiny_spec, record):
    with ChatServer([Status(401)]) as server:
        with pytest.raises(ModelUnavailable, match="rejected the API key"):
            plan_for(server, record, tiny_spec)
    assert record.exchanges[0].status == "error"

"""The refinement loop against a real scripted server and the real client; evaluations are a fake
that judges candidates by their code (the real ones run in tests/llm/test_llm_optimize_cli.py)."""

import threading
import time

import pytest
from helpers.chat_server import Answer, ChatServer, Hang, Status, python_answer
from helpers.engine import GOOD_MODULE, WRONG_MODULE
from helpers.llm import FIRST_LINE, FakeEvaluator, numbered, refiner_for, statuses

from hiera_core.plan.planner import ExpertPlanner


def test_feedback_reaches_the_model_and_the_fix_is_accepted(tiny_spec, record):
    evaluate = FakeEvaluator()
    with ChatServer([Answer(python_answer(WRONG_MODULE)), Answer(python_answer(GOOD_MODULE))]) as server:
        evaluated = refiner_for(server, tiny_spec, record, evaluate).run()
    first, second = server.requests
    assert [m["role"] for m in first.messages] == ["system", "user"]
    assert "Write a faster drop-in replacement for `Model`" in first.last_user
    assert "### " in first.last_user  # expert-knowledge entries for this workload
    # The refinement prompt: the first conversation, the wrong answer, then the failed check.
    assert second.messages[:2] == first.messages and second.messages[2]["content"] == python_answer(WRONG_MODULE)
    feedback = second.last_user
    assert "It was rejected: check 'values' failed: output 0: 8192 of 8192 values out of tolerance" in feedback
    assert "Reproducer: seed 1000, task values, shapes [[64, 128]]" in feedback
    assert "pytorch.compile_default (pytorch), 1.2x over eager." in feedback
    assert statuses(record) == [(1, "rejected"), (2, "verified")]
    assert [c["name"] for c, _ in evaluated] == ["pytorch.compile_default", "llm.s01", "llm.s02"]
    assert evaluated[2][0]["code"] == GOOD_MODULE + "\n" and evaluated[2][1].speedup == 1.5
    summary = record.summary()
    assert (summary["valid_rate"], summary["samples_to_first_valid"]) == (0.5, 2)
    assert summary["stop_reason"] == "sample budget spent (2 samples)"
    assert [p["best_speedup"] for p in summary["best_speedup_over_time"]] == [1.2, 1.2, 1.5]
    assert record.exchanges[1].refines == "llm.s01"


def test_malformed_answers_are_failed_samples_whose_reason_goes_back(tiny_spec, record):
    two_blocks = python_answer(GOOD_MODULE) + python_answer(GOOD_MODULE)
    script = [Answer("I would use torch.compile."), Answer(two_blocks),
              Answer(python_answer("class ModelNew(:\n    pass")), Answer(python_answer(GOOD_MODULE))]
    evaluate = FakeEvaluator()
    with ChatServer(script) as server:
        refiner_for(server, tiny_spec, record, evaluate, samples=4).run()
    assert statuses(record) == [(1, "invalid"), (2, "invalid"), (3, "invalid"), (4, "verified")]
    reasons = [e.reason for e in record.samples()[:3]]
    assert reasons == ["no fenced python code block in the answer",
                       "2 python code blocks: answer with exactly one complete module",
                       "the code does not parse: line 1 of your module: invalid syntax"]
    for request, reason in zip(server.requests[1:], reasons, strict=True):
        assert f"Your answer could not be used: {reason}." in request.last_user
    assert [c["name"] for c in evaluate.calls] == ["pytorch.compile_default", "llm.s04"]
    assert record.summary()["valid_rate"] == 0.25 and record.summary()["invalid"] == 3


def test_500s_forever_trip_the_circuit_breaker_which_says_so_once(tiny_spec, record):
    evaluate = FakeEvaluator()
    events = []
    with ChatServer([], then=Status(500, "internal error")) as server:
        evaluated = refiner_for(server, tiny_spec, record, evaluate, samples=20, max_retries=1,
                                emit=events.append).run()
    # Before: 20 samples x 2 attempts, valid rate 0. Now the endpoint is dropped after 3 lost requests.
    assert statuses(record) == [(1, "error"), (2, "error"), (3, "error")] and len(server.requests) == 6
    lost = "HTTP 500: internal error (gave up after 2 attempts)"
    assert [e.reason for e in record.samples()[:2]] == [lost, lost]
    summary = record.summary()
    assert summary["stop_reason"] == (f"model unavailable: dropped {server.url} after 3 requests lost in a row "
                                      f"(the last: {lost})")
    assert summary["valid_rate"] is None  # lost requests say nothing of the model's answers
    assert (summary["samples"], summary["judged"], summary["transport_failures"]) == (3, 0, 3)
    said = [event.message for event in events if "llm_error" in event.data]
    assert len(said) == 1 and said[0].startswith(f"dropped {server.url}")
    assert [c["name"] for c, _ in evaluated] == ["pytorch.compile_default"]  # the offline candidate still raced


def test_401_stops_the_model_and_the_offline_candidates_still_race(tiny_spec, record):
    evaluate = FakeEvaluator()
    with ChatServer([Status(401)], then=Answer(python_answer(GOOD_MODULE))) as server:
        evaluated = refiner_for(server, tiny_spec, record, evaluate, samples=4, concurrency=1).run()
    assert len(server.requests) == 1 and statuses(record) == [(1, "error")]
    assert record.error["kind"] == "llm-auth"
    assert record.summary()["stop_reason"].startswith("model unavailable: http://127.0.0.1:")
    assert [c["name"] for c, _ in evaluated] == ["pytorch.compile_default"]


def test_generation_overlaps_evaluation_and_evaluations_never_overlap(tiny_spec, record):
    evaluate = FakeEvaluator(seconds=0.6)
    script = [Answer(python_answer(numbered(GOOD_MODULE, n)), delay_s=0.3) for n in range(4)]
    with ChatServer(script) as server:
        refiner_for(server, tiny_spec, record, evaluate, samples=4, concurrency=2).run()
    arrivals = [request.time for request in server.requests]
    assert len(arrivals) == 4 and arrivals[1] - arrivals[0] < 0.2  # two chains: two requests in flight at once
    assert any(start < arrival < end for arrival in arrivals for start, end in evaluate.intervals)
    ordered = sorted(evaluate.intervals)
    assert all(a[1] <= b[0] for a, b in zip(ordered, ordered[1:], strict=False))  # one evaluation at a time
    assert evaluate.threads == {threading.current_thread().name}
    assert statuses(record) == [(1, "verified"), (2, "verified"), (3, "verified"), (4, "verified")]


def test_the_token_budget_stops_new_requests(tiny_spec, record):
    with ChatServer([], then=Answer(python_answer(WRONG_MODULE))) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(), samples=6, token_budget=8000,
                    max_answer_tokens=1024).run()
    summary = record.summary()
    assert 1 <= summary["samples"] < 6 and summary["stop_reason"].startswith("token budget spent")
    assert summary["tokens"]["total"] <= 8000


def test_the_time_budget_cuts_off_a_server_that_never_answers(tiny_spec, record):
    started = time.monotonic()
    with ChatServer([], then=Hang()) as server:
        evaluated = refiner_for(server, tiny_spec, record, FakeEvaluator(), samples=3, time_budget_s=2.0,
                                request_timeout_s=60.0).run()
    assert time.monotonic() - started < 10
    assert statuses(record) == [(1, "error")] and record.samples()[0].reason.startswith("no answer within")
    assert record.summary()["stop_reason"] == "time budget spent (2 s)"
    assert [c["name"] for c, _ in evaluated] == ["pytorch.compile_default"]


def test_context_too_long_retries_with_a_compact_prompt(tiny_spec, record):
    too_long = Status(400, "This model's maximum context length is 2048 tokens", code="context_length_exceeded")
    with ChatServer([too_long, Answer(python_answer(GOOD_MODULE))]) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(), samples=2).run()
    first, second = server.requests
    assert "### " in first.last_user and "### " not in second.last_user
    assert "(left out: the prompt has to fit the model's context window)" in second.last_user
    assert statuses(record) == [(1, "error"), (2, "verified")]


def test_load_errors_are_mapped_to_lines_of_the_module(tiny_spec, record):
    failure = {"check": "load", "message": "importing the candidate raised NameError (llm.s01.py, line "
                                           f"{FIRST_LINE + 10}): name 'clampp' is not defined", "reproducer": ""}
    with ChatServer([Answer(python_answer(GOOD_MODULE)), Answer(python_answer(GOOD_MODULE))]) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(failure=failure)).run()
    feedback = server.requests[1].last_user
    assert "check 'load' failed: importing the candidate raised NameError (line 11 of your module)" in feedback
    assert "    11 |         return torch.clamp(x, min=0) * self.scale + 1.0" in feedback


def test_a_worker_failure_comes_back_with_the_log(tiny_spec, record):
    failure = {"check": "timeout", "message": "evaluating llm.s01 did not finish within 60 s and was stopped",
               "reproducer": "step 1\nstep 2"}
    with ChatServer([Answer(python_answer(GOOD_MODULE)), Answer(python_answer(numbered(GOOD_MODULE, 2)))]) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(failure=failure, status="failed")).run()
    feedback = server.requests[1].last_user
    assert ("Its evaluation failed (timeout): evaluating llm.s01 did not finish within 60 s and was stopped\n"
            "Last lines of the worker's log:\nstep 1\nstep 2") in feedback
    assert statuses(record) == [(1, "failed"), (2, "failed")]


BROKEN_KERNEL = '''
import torch
import torch.nn as nn

SRC = r"""
extern "C" __global__ void affine(const float* x, float* y, float scale, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.f) * scale + 1.0f
}
"""


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        device = x.device.index
        _hiera_launch(_hiera_kernel(SRC, "affine", device), device, (n + 255) // 256, 256, 0, x, y,
                      float(self.scale), n)
        return y
'''
FIXED_KERNEL = BROKEN_KERNEL.replace("+ 1.0f\n", "+ 1.0f;\n")


def nvrtc_usable() -> bool:
    try:
        from hiera_core.cuda.nvrtc import compile_cuda

        return compile_cuda('extern "C" __global__ void k() {}', arch="sm_90").ok
    except Exception:
        return False


@pytest.mark.skipif(not nvrtc_usable(), reason="NVRTC (cuda-bindings) is not usable on this machine")
def test_custom_cuda_compile_errors_come_back_before_evaluation(tiny_spec, record):
    evaluate = FakeEvaluator()
    with ChatServer([Answer(python_answer(BROKEN_KERNEL)), Answer(python_answer(FIXED_KERNEL))]) as server:
        refiner_for(server, tiny_spec, record, evaluate, space="custom_cuda").run()
    assert statuses(record) == [(1, "rejected"), (2, "verified")]
    assert record.samples()[0].reason.startswith('compile: your module:8: error: expected a ";"')
    assert "def _hiera_launch(kernel, device, grid, block, shared_bytes, *args):" in server.requests[0].last_user
    feedback = server.requests[1].last_user
    assert "NVRTC rejected the kernels (line numbers are lines of your module):" in feedback
    assert [c["name"] for c in evaluate.calls] == ["pytorch.compile_default", "llm.s02"]  # s01 never ran
    code = evaluate.calls[1]["code"]
    # The launch helpers went in above the module, which follows verbatim.
    assert code.index("def _hiera_launch(") < code.index("class ModelNew")
    assert code.endswith(FIXED_KERNEL.strip() + "\n")
    assert evaluate.calls[1]["cuda_sources"][0].lstrip().startswith('extern "C" __global__ void affine')


def test_a_chain_remembers_its_earlier_attempts_and_what_became_of_them(tiny_spec, record):
    first, second = WRONG_MODULE, WRONG_MODULE.replace("+ 1.5", "+ 2.5")
    script = [Answer(python_answer(first)), Answer(python_answer(second)), Answer(python_answer(GOOD_MODULE))]
    with ChatServer(script) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(), samples=3).run()
    second_request, third_request = server.requests[1].last_user, server.requests[2].last_user
    assert "## Your earlier attempts in this conversation\nNone before the previous answer." in second_request
    # the third request: the previous answer as the conversation's last turn, the one before it in full
    assert server.requests[2].messages[2]["content"] == python_answer(second)
    history = third_request.split("## Your earlier attempts in this conversation\n", 1)[1]
    assert history.startswith("- sample 1 (llm.s01): It was rejected: check 'values' failed")
    assert first in history and "+ 2.5" not in history
    assert statuses(record) == [(1, "rejected"), (2, "rejected"), (3, "verified")]


def test_the_same_module_again_is_not_evaluated_twice(tiny_spec, record):
    evaluate = FakeEvaluator()
    reformatted = WRONG_MODULE.replace("return torch.clamp", "# the same, commented\n        return torch.clamp")
    script = [Answer(python_answer(WRONG_MODULE)), Answer(python_answer(reformatted)), Answer(python_answer(GOOD_MODULE))]
    with ChatServer(script) as server:
        refiner_for(server, tiny_spec, record, evaluate, samples=3).run()
    assert [c["name"] for c in evaluate.calls if c["reason"] != "offline"] == ["llm.s01", "llm.s03"]
    assert statuses(record) == [(1, "rejected"), (2, "duplicate"), (3, "verified")]
    assert "Your answer is the same module as llm.s01, already evaluated." in server.requests[2].last_user
    assert record.summary()["duplicates"] == 1


def test_chains_start_from_different_strategies(tiny_spec, record):
    with ChatServer([Answer(python_answer(numbered(GOOD_MODULE, n))) for n in range(2)]) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(), samples=2, concurrency=2).run()
    prompts = [request.messages[1]["content"] for request in server.requests]  # the chains' first requests
    chosen = [p for p in prompts if "fold the chain (space: PyTorch operators): scripted" in p]  # the model's choice
    planned = ExpertPlanner().plan(tiny_spec).entries[0]
    assert len(chosen) == 1 and f"{planned.strategy} (space: " in next(p for p in prompts if p not in chosen)


def test_the_record_says_what_the_first_valid_and_the_best_sample_cost(tiny_spec, record):
    script = [Answer(python_answer(WRONG_MODULE)), Answer(python_answer(GOOD_MODULE))]
    with ChatServer(script) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(), samples=2).run()
    summary = record.summary()
    spent = sum(e.prompt_tokens + e.completion_tokens for e in record.exchanges)
    assert summary["cost_to_first_valid"] == summary["cost_to_best"]
    cost = summary["cost_to_first_valid"]
    assert (cost["calls"], cost["sample"], cost["tokens"]) == (2, 2, spent) and cost["seconds"] > 0

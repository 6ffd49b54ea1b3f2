"""Reflection, temperature per chain, the answer cache and cost in money, against the scripted
server and the real client (evaluations faked as in test_llm_refine)."""

import pytest
from helpers.chat_server import Answer, ChatServer, Status, python_answer
from helpers.engine import GOOD_MODULE, WRONG_MODULE
from helpers.llm import FakeEvaluator, config_for, numbered, refiner_for, statuses

from hiera_core.errors import HieraError
from hiera_core.llm.cache import AnswerCache
from hiera_core.llm.client import ChatClient
from hiera_core.llm.config import Overrides, resolve
from hiera_core.llm.record import LLMRecord
from hiera_core.llm.resume import Replay
from hiera_core.store import Store

CRITIQUE = "Bottleneck: the offset is 1.5, not 1.0. Next change: add 1.0 as the reference does."


def test_a_failed_attempt_is_reviewed_by_the_plan_model_and_the_review_reaches_the_next_prompt(tiny_spec, record):
    script = [Answer(python_answer(WRONG_MODULE)), Answer(CRITIQUE), Answer(python_answer(GOOD_MODULE))]
    with ChatServer(script) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(), reflection=True, plan_model="planner").run()
    draft, review, refine = server.requests
    assert (draft.body["model"], review.body["model"], refine.body["model"]) == ("scripted", "planner", "scripted")
    assert [m["role"] for m in review.messages] == ["user"]
    assert "Review one attempt" in review.last_user and WRONG_MODULE in review.last_user
    assert "check 'values' failed: output 0: 8192 of 8192 values out of tolerance" in review.last_user
    assert "It failed (rejected: values:" in review.last_user
    assert f"## Review of it\n{CRITIQUE}\n" in refine.last_user
    # Not timed: the knowledge is retrieved for the reference's op mix, and says so.
    assert "## Techniques for its bottleneck\nBottleneck by the reference's op mix (it was not timed): pointwise" \
        in refine.last_user
    assert statuses(record) == [(1, "rejected"), (2, "verified")]
    assert [(e.stage, e.model, e.status) for e in record.exchanges] == [
        ("implement", "scripted", "rejected"), ("reflect", "planner", "used"), ("refine", "scripted", "verified")]
    summary = record.summary()
    assert summary["reflections"] == 1 and summary["samples"] == 2  # a review is no sample


def test_a_slower_attempt_is_reviewed_and_knowledge_follows_its_profile(tiny_spec, record):
    script = [Answer(python_answer(GOOD_MODULE)), Answer(python_answer(numbered(GOOD_MODULE, 2))), Answer(CRITIQUE),
              Answer(python_answer(numbered(GOOD_MODULE, 3)))]
    with ChatServer(script) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(), samples=3, reflection=True).run()
    # Sample 1 is the best so far (1.5x over the offline 1.2x): no review; sample 2 ties it: reviewed.
    assert [e.stage for e in record.exchanges] == ["implement", "refine", "reflect", "refine"]
    review, refine = server.requests[2], server.requests[3]
    assert "1.5x over eager, no faster than the best so far (llm.s01, 1.5x)" in review.last_user
    assert CRITIQUE in refine.last_user
    # Its profile's top op (aten::clamp, 60%) is pointwise: entries for that, those given before only named.
    assert "Bottleneck by its profile: pointwise 60%." in refine.last_user
    assert "None: the previous answer was not reviewed." in server.requests[1].last_user


def test_a_custom_kernels_bottleneck_is_read_from_the_ops_it_computes_not_its_name(tiny_spec):
    """A model's kernel named by its author (seen on the H100: 'relu_scale_add' taken as 'other 100%')
    gets the knowledge of the reference's op mix; a PyTorch candidate's kernels keep theirs."""
    from types import SimpleNamespace

    from hiera_core.loop.refine_feedback import knowledge_for

    chain = SimpleNamespace(knowledge_given=set())
    custom = SimpleNamespace(timing={"kernels": [{"name": "relu_scale_add", "ms": 0.14, "share": 1.0}]})
    text = knowledge_for(tiny_spec, chain, custom, "custom_cuda")
    assert text.startswith("Bottleneck by the reference's op mix (its profile's kernels are its own, whose names "
                           "tell no op): pointwise") and "other" not in text.splitlines()[0]
    compiled = SimpleNamespace(timing={"kernels": [{"name": "aten::clamp", "ms": 0.004, "share": 0.6}]})
    assert knowledge_for(tiny_spec, chain, compiled, "pytorch").startswith("Bottleneck by its profile: pointwise 60%.")


def test_without_reflection_there_is_no_review(tiny_spec, record):
    with ChatServer([Answer(python_answer(WRONG_MODULE)), Answer(python_answer(GOOD_MODULE))]) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(), reflection=False).run()
    assert [e.stage for e in record.exchanges] == ["implement", "refine"]


def test_each_chain_gets_its_temperature_and_the_record_keeps_it(tiny_spec, record):
    with ChatServer([Answer(python_answer(GOOD_MODULE)), Answer(python_answer(numbered(GOOD_MODULE, 2)))]) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(), concurrency=2, temperature=(0.2, 0.8)).run()
    sent = {request.body["temperature"] for request in server.requests}
    assert sent == {0.2, 0.8}
    assert sorted((e.chain, e.temperature) for e in record.exchanges) == [(1, 0.2), (2, 0.8)]
    assert [e["temperature"] for e in record.summary()["exchanges"]] == [e.temperature for e in record.exchanges]


def test_no_temperature_configured_sends_none(tiny_spec, record):
    with ChatServer([Answer(python_answer(GOOD_MODULE))]) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(), samples=1).run()
    assert "temperature" not in server.requests[0].body


def cached_refiner(server, spec, record, store, replay=None):
    from helpers.llm import OFFLINE

    from hiera_core.loop.refine import Refiner
    from hiera_core.plan.planner import ExpertPlanner, SpaceChoice, chosen_plan

    config = config_for(server.url)
    client = ChatClient(config, backoff_s=0.01, cache=AnswerCache(store, record.run.id, config.endpoint(),
                                                                  config.max_answer_tokens))
    plan = chosen_plan(ExpertPlanner().plan(spec), SpaceChoice("pytorch", "fold the chain", "scripted", "model"))
    return Refiner(client=client, config=config, record=record, spec=spec, plan=plan,
                   reference_source="import torch\nclass Model: ...\n", class_name="Model", device_text="cpu: test",
                   offline=OFFLINE, evaluate=FakeEvaluator(), emit=lambda event: None, replay=replay)


def test_a_second_run_replays_the_answers_from_the_cache_without_a_model_call(tiny_spec, tmp_path):
    store = Store(tmp_path)
    first = LLMRecord(store.new_run("optimize"), {"model": "scripted"})
    # One server for both runs: the endpoint is part of the key.
    with ChatServer([Answer(python_answer(WRONG_MODULE)), Answer(python_answer(GOOD_MODULE))],
                    then=Status(500, "a model call the cache should have saved")) as server:
        cached_refiner(server, tiny_spec, first, store).run()
        assert first.summary()["cache_hits"] == 0 and len(server.requests) == 2
        second = LLMRecord(store.new_run("optimize"), {"model": "scripted"})
        # As --resume does: the first run's order is kept, so the prompts come out the same.
        replay = Replay([point["candidate"] for point in first.best_over_time],
                        {e.sample: e.evaluated_before for e in first.samples()})
        cached_refiner(server, tiny_spec, second, store, replay).run()
    assert len(server.requests) == 2
    summary = second.summary()
    assert statuses(second) == [(1, "rejected"), (2, "verified")]
    assert (summary["cache_hits"], summary["requests"]["calls"], summary["tokens"]["total"]) == (2, 0, 0)
    assert summary["cost_to_first_valid"]["calls"] == 0


def test_an_answer_is_not_served_again_within_the_run_that_got_it(tmp_path):
    store = Store(tmp_path)
    cache = AnswerCache(store, "run-1", "http://127.0.0.1:1/v1", 8192)
    key = cache.key("m", [{"role": "user", "content": "hi"}], 0.7)
    cache.put(key, "m", type("Reply", (), {"text": "answer", "finish_reason": "stop", "prompt_tokens": 1,
                                           "completion_tokens": 1, "note": ""})())
    assert cache.get(key) is None
    assert AnswerCache(store, "run-2", "http://127.0.0.1:1/v1", 8192).get(key)["answer"] == "answer"
    # Another temperature, endpoint or max-answer-tokens is another prompt.
    other = AnswerCache(store, "run-2", "http://127.0.0.1:2/v1", 8192)
    assert other.key("m", [{"role": "user", "content": "hi"}], 0.7) != key
    assert cache.key("m", [{"role": "user", "content": "hi"}], 0.2) != key


def test_cost_in_money_from_the_price_table_and_no_cost_for_an_unpriced_model(record):
    record.config = {"model": "m", "prices": {"m": {"input": 2.0, "output": 10.0}}}
    exchange = record.open("implement", "m", [{"role": "user", "content": "x"}], sample=1)
    exchange.prompt_tokens, exchange.completion_tokens = 1000, 500
    record.close(exchange, "verified", speedup=1.5)
    summary = record.summary()
    assert summary["cost"] == pytest.approx(0.007) and summary["cost_note"] == ""
    assert summary["cost_to_best"]["cost"] == pytest.approx(0.007)
    plan = record.open("reflect", "planner", [{"role": "user", "content": "y"}])
    plan.prompt_tokens, plan.completion_tokens = 10, 10
    summary = record.summary()
    assert summary["cost"] is None and summary["cost_note"].startswith("no cost: no price for planner in "
                                                                       "[tool.hiera.prices]")


def write_pyproject(folder, body):
    (folder / "pyproject.toml").write_text(f"[tool.hiera]\nmodel = 'm'\nbase-url = 'http://127.0.0.1:1/v1'\n{body}\n")
    return folder


def test_temperature_one_or_one_per_chain_from_flags_or_pyproject(tmp_path):
    assert resolve(Overrides(), write_pyproject(tmp_path, "temperature = [0.2, 0.8]"), {}).temperature == (0.2, 0.8)
    config = resolve(Overrides(temperature="0.3,1.1"), tmp_path, {})
    assert config.temperature == (0.3, 1.1) and config.sources["temperature"] == "CLI flags"
    assert [config.temperature_for(chain) for chain in (1, 2, 3)] == [0.3, 1.1, 0.3]
    assert resolve(Overrides(temperature="0"), tmp_path, {}).temperature == (0.0,)
    for bad in ("hot", "2.5", "0.2,"):
        with pytest.raises(HieraError, match="CLI flags: temperature must be a number from 0 to 2"):
            resolve(Overrides(temperature=bad), tmp_path, {})


def test_prices_come_from_their_table_and_a_bad_entry_is_named(tmp_path):
    folder = write_pyproject(tmp_path, '[tool.hiera.prices]\n"gpt-5" = { input = 1.25, output = 10 }')
    config = resolve(Overrides(), folder, {})
    assert config.prices == {"gpt-5": {"input": 1.25, "output": 10.0}} and config.warnings == []
    assert config.public()["prices"] == config.prices
    write_pyproject(tmp_path, '[tool.hiera.prices]\n"gpt-5" = { input = 1.25 }')
    with pytest.raises(HieraError, match=r"\[tool.hiera.prices\] 'gpt-5' must be \{ input = N, output = N \}"):
        resolve(Overrides(), tmp_path, {})


@pytest.mark.parametrize(("cost", "note", "shown"), [
    (0.0123, "", "2 answers from the cache, cost 0.0123; stopped"),
    (None, "no cost: no price for m in [tool.hiera.prices]", "2 answers from the cache, no cost: no price for m in"),
])
def test_the_cli_summary_says_cache_hits_and_cost_or_why_there_is_none(capsys, cost, note, shown):
    from hiera_core.cli.printing import print_optimize
    from hiera_core.loop.run_result import OptimizeResult

    llm = {"model": "m", "samples": 3, "verified": 1, "valid_rate": 1 / 3, "samples_to_first_valid": 2,
           "tokens": {"total": 1200}, "cache_hits": 2, "cost": cost, "cost_note": note,
           "stop_reason": "sample budget spent (3 samples)"}
    print_optimize(OptimizeResult(address="tiny.py::Model", device="cpu", device_name="x86_64", llm=llm,
                                  status="no_improvement", message="no improvement found"))
    assert shown in " ".join(capsys.readouterr().out.split())

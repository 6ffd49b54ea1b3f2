"""Region-level requests: with two chains, one asks the model to rewrite the region with the largest
share of the reference's time in the composed custom-CUDA candidate, and keeps its other regions;
against the scripted server and the real client (evaluations faked as in test_llm_refine).

The plan is the real one for the tiny task (relu, mul, add: one region) as a GPU run makes it,
and the starting point is the real custom-CUDA candidate rendered from its lowering."""

import dataclasses

import pytest
from helpers.chat_server import Answer, ChatServer, python_answer
from helpers.engine import GOOD_MODULE, WRONG_MODULE
from helpers.llm import FakeEvaluator, config_for, numbered, statuses

from hiera_core.errors import HieraError
from hiera_core.llm.client import ChatClient
from hiera_core.llm.config import Overrides, resolve
from hiera_core.loop.refine import Refiner
from hiera_core.loop.refine_regions import region_lines, region_targets
from hiera_core.plan.planner import ExpertPlanner, SpaceChoice, chosen_plan
from hiera_core.plan.regions import Region, RegionChoice
from hiera_core.propose import proposal_file as proposal
from hiera_core.spaces.custom_cuda import lower_spec
from hiera_core.spaces.custom_cuda.codegen import render

REGION_PROMPT = "Make one region of `Model` faster."
COMPILE = {"name": "pytorch.compile_default", "space": "pytorch", "strategy": "pytorch.compile_default",
           "code": "class ModelNew(Model):\n    pass\n", "reason": "offline"}


@pytest.fixture(scope="module")
def gpu_spec(tiny_spec):
    """The tiny task's spec as a CUDA run has it (the region plan offers custom CUDA only there)."""
    return dataclasses.replace(tiny_spec, device="cuda")


@pytest.fixture(scope="module")
def composed(gpu_spec) -> dict:
    """The offline custom-CUDA candidate for the tiny task: its lowering rendered as a module."""
    lowering = lower_spec(gpu_spec)
    rendered = render(lowering, "Model", "fused pointwise chain", [lowering.describe()])
    return {"name": "custom_cuda.pointwise_chain", "space": "custom_cuda", "strategy": "pointwise_chain",
            "code": rendered.code, "reason": "offline", "requires_cuda": True, "cuda_sources": rendered.sources}


def planned(spec, regions=None):
    """The offline plan of `spec` (its regions planned for its device), or with `regions` instead."""
    plan = chosen_plan(ExpertPlanner().plan(spec), SpaceChoice("pytorch", "fold the chain", "scripted", "model"))
    if regions is not None:
        plan.regions = regions
    return plan


def by_prompt(request_body):
    """The region chain gets a module that verifies, the whole-module chain one that is rejected."""
    region = REGION_PROMPT in request_body["messages"][1]["content"]
    return Answer(python_answer(numbered(GOOD_MODULE if region else WRONG_MODULE, len(request_body["messages"]))))


def run_refiner(server, spec, record, offline, regions=None, **config):
    client = ChatClient(config_for(server.url, **{"samples": 2, "concurrency": 2, **config}), backoff_s=0.01)
    evaluate = FakeEvaluator()
    refiner = Refiner(client=client, config=client.config, record=record, spec=spec, plan=planned(spec, regions),
                      reference_source="import torch\nclass Model: ...\n", class_name="Model",
                      device_text="cuda: test GPU", offline=offline, evaluate=evaluate, emit=lambda event: None)
    return refiner.run(), evaluate


def test_one_chain_asks_for_the_region_with_its_contract_slice_and_the_composed_start(gpu_spec, composed, record):
    with ChatServer([by_prompt, by_prompt]) as server:
        evaluated, _ = run_refiner(server, gpu_spec, record, [composed, COMPILE])
    prompts = {request.body["messages"][1]["content"].startswith(REGION_PROMPT): request.last_user
               for request in server.requests}
    assert set(prompts) == {True, False}  # one region request, one whole-module request
    whole, region = prompts[False], prompts[True]
    assert whole.startswith("Write a faster drop-in replacement for `Model`")
    # The region's slice of the contract: its nodes, tensors, bound, share and ranked choices.
    assert "Region 1 of 1: pointwise; FX nodes (graph order): `relu`, `mul`, `add`" in region
    assert "Entering it: `x` float32 [64, 128]" in region and "Leaving it: `add` float32 [64, 128]" in region
    assert "Share of the reference's time: 100% (measured)" in region
    assert "roofline bound" in region and "% of its bound" in region
    assert "1. custom_cuda / generated pointwise kernel: " in region
    # The starting point verbatim, and the lines of its forward that compute the region.
    assert composed["code"].rstrip() in region
    assert "## Starting point: custom_cuda.pointwise_chain" in region
    assert "        # pointwise kernel: relu, mul, add" in region.split("## Where the starting point")[1]
    assert "v_add, = _hiera_pointwise(_HIERA_SRC_0" in region.split("## Where the starting point")[1]
    # The region chain's answer is a candidate like any other: evaluated, recorded with its region.
    exchange = next(e for e in record.samples() if e.region is not None)
    assert (exchange.region, exchange.region_start, exchange.status) == (1, "custom_cuda.pointwise_chain", "verified")
    candidate = next(c for c, _ in evaluated if c["name"] == exchange.candidate)
    assert candidate["space"] == "custom_cuda" and candidate["strategy"] == "llm: region 1: generated pointwise kernel"
    assert record.summary()["best_llm"]["region"] == 1
    assert sorted(status for _, status in statuses(record)) == ["rejected", "verified"]


def test_the_winning_region_candidate_names_its_region_in_the_proposal_header(gpu_spec, composed, record):
    with ChatServer([by_prompt, by_prompt]) as server:
        run_refiner(server, gpu_spec, record, [composed, COMPILE])
    winner = record.summary()["best_llm"]["candidate"]
    target = record.region_target(winner)
    assert target == (f"region 1 (see the region lines), rewritten by scripted (sample "
                      f"{record.summary()['best_llm']['sample']}) in custom_cuda.pointwise_chain, whose other "
                      "regions it keeps")
    text = proposal.render(proposal.ProposalHeader("tiny.py", "Model", "0" * 64, target_region=target), "body\n")
    assert f"# target-region: {target}\n" in text and proposal.parse_header(text).target_region == target
    whole = next(e.candidate for e in record.samples() if e.region is None)
    assert record.region_target(whole) == ""  # a whole-module sample names no region


def test_no_qualifying_region_means_no_region_request(tiny_spec, gpu_spec, composed, record):
    # CPU: every region is planned in PyTorch, so none qualifies, though a composed candidate exists.
    with ChatServer([Answer(python_answer(numbered(GOOD_MODULE, n))) for n in range(2)]) as server:
        run_refiner(server, tiny_spec, record, [composed, COMPILE])
    assert len(server.requests) == 2
    assert not any(REGION_PROMPT in request.last_user for request in server.requests)
    assert [e.region for e in record.samples()] == [None, None]


def test_region_chains_0_turns_region_requests_off(gpu_spec, composed, record):
    with ChatServer([Answer(python_answer(numbered(GOOD_MODULE, n))) for n in range(2)]) as server:
        run_refiner(server, gpu_spec, record, [composed, COMPILE], region_chains=0)
    assert not any(REGION_PROMPT in request.last_user for request in server.requests)


def test_without_a_composed_candidate_to_start_from_no_chain_works_on_a_region(gpu_spec, record):
    with ChatServer([Answer(python_answer(numbered(GOOD_MODULE, n))) for n in range(2)]) as server:
        run_refiner(server, gpu_spec, record, [COMPILE])
    assert not any(REGION_PROMPT in request.last_user for request in server.requests)


def region(index, share, space, bound_ms=0.001, nodes=("relu",)):
    return Region(index, "pointwise", None, list(nodes), [[64, 128]], [[64, 128]], 8192.0, 65536.0, bound_ms,
                  "memory-bound", share, "measured", [RegionChoice(space, "an approach", "a reason")])


def test_two_region_chains_take_the_two_largest_regions_and_one_chain_stays_whole_module(gpu_spec, composed, record):
    regions = [region(1, 0.3, "custom_cuda", nodes=("relu",)), region(2, 0.7, "custom_cuda", nodes=("mul", "add"))]
    with ChatServer([Answer(python_answer(numbered(GOOD_MODULE, n))) for n in range(3)]) as server:
        run_refiner(server, gpu_spec, record, [composed, COMPILE], regions, samples=3, concurrency=3,
                    region_chains=2)
    assert sorted((e.chain, e.region) for e in record.samples()) == [(1, None), (2, 2), (3, 1)]
    prompts = [request.last_user for request in server.requests]
    assert sum(prompt.startswith("Write a faster drop-in replacement") for prompt in prompts) == 1
    region_1 = next(prompt for prompt in prompts if "Region 1 of 2" in prompt)
    region_2 = next(prompt for prompt in prompts if "Region 2 of 2" in prompt)
    assert "FX nodes (graph order): `mul`, `add`" in region_2 and "Share of the reference's time: 70%" in region_2
    assert "FX nodes (graph order): `relu`\n" in region_1 and "Share of the reference's time: 30%" in region_1


def test_the_region_worked_on_is_the_largest_share_not_at_its_bound_whose_best_choice_is_a_library_or_kernel(
        gpu_spec):
    spec = dataclasses.replace(gpu_spec, reference_ms=0.1)
    plan = planned(spec, [region(1, 0.1, "custom_cuda"), region(2, 0.3, "cuda_libs"),
                          region(3, 0.4, "custom_cuda", bound_ms=0.038),  # 0.038 of its 0.04 ms: at its bound
                          region(4, 0.2, "pytorch")])
    assert [r.index for r in region_targets(plan, spec)] == [2, 1]


def test_region_lines_are_the_kernel_call_the_library_call_and_the_kernel_source():
    code = ('_HIERA_SRC_0 = r"""\nkernel one\n"""\n_HIERA_SRC_1 = r"""\nkernel two\n"""\n\n\n'
            "class ModelNew(Model):\n    def forward(self, x):\n"
            "        v_linear = torch.nn.functional.linear(x, self.fc.weight, self.fc.bias)\n"
            "        # pointwise kernel: relu, mul\n"
            "        v_mul, = _hiera_pointwise(_HIERA_SRC_0, 'hiera_pointwise0', (v_linear,), (True,), 1)\n"
            "        # rows kernel: softmax\n"
            "        v_softmax, = _hiera_rows(_HIERA_SRC_1, 'hiera_rows1', (v_mul,), (True,), ('softmax',), False)\n"
            "        return v_softmax\n")
    assert region_lines(code, ["linear", "relu", "mul"]) == [1, 11, 12, 13]
    assert region_lines(code, ["softmax"]) == [4, 14, 15]


def test_region_chains_is_read_from_pyproject_and_checked(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.hiera]\nmodel = 'm'\nbase-url = 'http://127.0.0.1:1/v1'\n"
                                             "region-chains = 0\n")
    assert resolve(Overrides(), tmp_path, env={}).region_chains == 0
    (tmp_path / "pyproject.toml").write_text("[tool.hiera]\nregion-chains = -1\n")
    with pytest.raises(HieraError, match="region_chains must be an integer >= 0"):
        resolve(Overrides(), tmp_path, env={})

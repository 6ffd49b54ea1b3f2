"""The records that cross a process boundary survive JSON: each worker request, each op's result and
the worker's reply (request.json, result.json), each message between the judge and the candidate's
runner, the CLI's events the language server reads, and the error record both carry. A request an op
does not take, or a result's key it does not have, is refused by name, never defaulted or dropped; a
runner's reply the protocol does not allow is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import MISSING, fields

import pytest

from hiera_core.errors import HieraError
from hiera_core.events import Event
from hiera_core.plan.planner import Plan, PlanEntry, SpaceRank
from hiera_core.plan.regions import Region, RegionChoice
from hiera_core.profile.ncu_report import KernelCounters, NcuReport
from hiera_core.profile.stats import KernelShare, Timing
from hiera_core.spaces.strategy import Candidate
from hiera_core.spec.model import OpShare, ParamInfo, Roofline, ScalarInfo, Spec, TensorInfo, Tolerance, ValueStats
from hiera_core.verify.repro import FailingInputs
from hiera_core.verify.verdicts import Check, Verification
from hiera_core.worker.channel import BadMessage
from hiera_core.worker.messages import (
    FIGURES,
    RUNNER_REQUESTS,
    Argument,
    AuditRequest,
    AuditResult,
    CallRequest,
    CallResult,
    LoadRequest,
    LoadResult,
    LoadStateRequest,
    LoadStateResult,
    ReleaseRequest,
    ReleaseResult,
    ResendRequest,
    ResendResult,
    RunnerReply,
    RunnerRequest,
    StartRequest,
    StartResult,
    TimedOutputsRequest,
    TimedOutputsResult,
    TimeRequest,
    TimeResult,
    TimingSetsRequest,
    TimingSetsResult,
)
from hiera_core.worker.requests import (
    REQUESTS,
    BenchTimeRequest,
    BenchTimeResult,
    EvaluateRequest,
    EvaluateResult,
    KernelBenchCheck,
    NcuRequest,
    PrepareRequest,
    PrepareResult,
    ProfileRequest,
    ProfileResult,
    ProposalTiming,
    WorkerReply,
    WorkerRequest,
)

# One request per op, every field off its default, so a field the JSON loses is seen.
EXAMPLES = [
    PrepareRequest(address="m.py::Model", device="cuda", cache_root="/c", gpu="h200", meta=True, measure=False,
                   implement=True, plan={"entries": [{"strategy": "compile_default"}]}, budget=7),
    EvaluateRequest(address="m.py", device="cpu", cache_root="/c", spec={"inputs": [{"shape": [2, 3]}]},
                    candidate_path="/r/c.py", candidate_source="class ModelNew: ...", first_line=12, space="custom_cuda",
                    stages_path="/r/s.jsonl", sets=2, seed=4242, profiler=False, time=False, profile=False,
                    exact_rewrite=True, cpu_threads=1, device_lock="/r/device.lock", alone=True),
    ProfileRequest(address="m.py", device="cuda", cache_root="/c", gpu="a100"),
    BenchTimeRequest(address="m.py", device="cuda", cache_root="/c", proposal_paths=["/p/a.py", "/p/b.py"],
                     compile_modes=["default", "reduce-overhead"], time_reference=False, device_lock="/r/device.lock",
                     gate="/r/loop-done", gated_modes=["max-autotune-no-cudagraphs"],
                     partial_path="/r/baselines-so-far.json"),
    NcuRequest(address="m.py", device="cuda", cache_root="/c", ncu="/usr/bin/ncu", candidate_path="/r/c.py", kernels_per_call=3.5,
               ncu_timeout_s=90.0),
]


def spec() -> Spec:
    """A spec with every kind of nested record: a tensor input with value statistics, a scalar input."""
    return Spec(file="m.py", class_name="Model", task_format="kernelbench", source_sha256="ab12", device="cuda",
                inputs=[TensorInfo("x", [2, 3], "float32", [3, 1], True, "cuda", ValueStats(-1.0, 1.0, 0.0, 0.5, 0.25,
                                                                                           False, True)),
                        ScalarInfo("alpha", "float", "0.5")],
                outputs=[TensorInfo("out0", [2, 3], "float32", [3, 1], True, "cuda")],
                init_args=["3"], parameters=[ParamInfo("weight", [3, 3], "float32", "parameter")], precision="fp32",
                dynamic_dims=[["x", 0]], tolerance={"out0": Tolerance(1e-4, 1e-5, 1e-6, "fp32 matmul")},
                flops=36.0, bytes_min=96.0, intensity=0.375,
                roofline=Roofline("h200", "NVIDIA H200", 6.7e13, 4.8e12, 1e-6, 2e-5, 2e-5, "memory"),
                ops=[OpShare("aten::mm", "matmul", 1, 36.0, 96.0, 1.0)], op_kinds=["matmul"], kernel_launches=1,
                workload_class="launch-bound", graph={"traceable": True, "reason": "", "nodes": ["mm"]},
                mutated_inputs=["x"], deterministic=True, reference_ms=0.01, reference_gpu_ms=0.004,
                reference_bound="host", reference_precision_notes=["tf32 off"], measured=False,
                not_measured=["stats: meta"], environment={"torch": "2.9.0"})


def timing(ms: float) -> Timing:
    return Timing(device="cuda", median_ms=ms, mean_ms=ms * 1.1, min_ms=ms * 0.9, stdev_ms=0.01, iqr_ms=0.02,
                  iterations=30, host_median_ms=ms * 2, method="events", kernel_sum_ms=ms * 0.8,
                  kernels=[KernelShare("gemm", ms * 0.8, 1.0)], gpu_median_ms=ms, host_queue_ms=0.003,
                  host_min_ms=ms * 1.5, unwaited_ms=0.0001, bound="host", kernels_per_call=2.0,
                  median_low_ms=ms * 0.95, median_high_ms=ms * 1.05)


# One result per op, every field off its default (nested records' too), so a field the JSON loses is seen.
WORKER_RESULT_EXAMPLES = [
    PrepareResult(spec=spec(), meta_only=True,
                  plan=Plan(planner="expert", workload_class="launch-bound", summary="launch-bound: graph it",
                            spaces=[SpaceRank("pytorch", "PyTorch operators", 0.9, "few launches")],
                            entries=[PlanEntry("pytorch.cuda_graph", "pytorch", "CUDA graph", 0.9, "host-bound")],
                            skipped=[{"strategy": "custom_cuda.gemm", "reason": "no GEMM"}], choice={"space": "pytorch"},
                            regions=[Region(0, "other", "mm", ["mm"], [[2, 3]], [[2, 3]], 36.0, 96.0, 2e-5,
                                            "launch-bound", 1.0, "measured",
                                            [RegionChoice("cuda_libs", "cuBLAS GEMM", "a GEMM")])]),
                  candidates=[Candidate("pytorch.cuda_graph", "pytorch", "cuda_graph", "class ModelNew: ...",
                                        "host-bound", requires_cuda=True, cuda_sources=["__global__ void k() {}"])],
                  rejected=[{"strategy": "pytorch.compile_default", "reason": "generator failed: boom"}],
                  seconds={"load": 0.1, "reference_time": 1.5}),
    EvaluateResult(verification=Verification(False, [Check("static", True, "static checks"),
                                                     Check("values", False, "3 values differ", "run seed 7: set 1",
                                                           0.5, FailingInputs(8, "offset", False, 17, 9,
                                                                              [[1e-4, 1e-5]]))],
                                             input_sets=5, max_abs_error=0.5, max_rel_error=3.0,
                                             sets_checked=["run seed 7: set 1"]),
                   seed=7, baseline=timing(1.0), candidate=timing(0.5), speedup=2.0, speedup_interval=[1.8, None],
                   significant=True, timing_verdict="faster", unreliable=["reference"], seconds={"evaluate": 1.5}),
    ProfileResult(spec=spec(), timing=timing(1.0)),
    BenchTimeResult(environment={"torch": "2.9.0"}, eager=timing(1.0),
                    compile={"default": timing(0.7), "reduce-overhead": None},
                    compile_errors={"reduce-overhead": "RuntimeError: no graphs"},
                    proposals=[ProposalTiming("/p/a.py", KernelBenchCheck(True, "5 trials within 0.01", 1e-6, 5),
                                              hiera=timing(0.5), eager=timing(1.0)),
                               ProposalTiming("/p/b.py", KernelBenchCheck(False, "trial 0: values differ", 0.5, None,
                                                                          failed_in="trials"))],
                    seconds={"load": 0.5, "time_eager": 1.0}),
    NcuReport([KernelCounters("gemm", 2, 1500.0, 80.0, 60.0, 55.0, 90.0, 40.0, 50.0, 128.0)],
              "(the first 40 of about 60 kernel launches of the call were profiled)"),
]


# The judge's requests to the candidate's runner, one per runner op, every field off its default.
RUNNER_EXAMPLES = [
    StartRequest(device="cuda", path="/r/c.py", address="m.py::Model", threads=2),
    AuditRequest(),
    LoadRequest(slot="perturbed", largest_output_bytes=4096, reimport=False, seed=3),
    LoadStateRequest(slot="main", names=["weight", "bn.running_var"]),
    CallRequest(slot="main", call_id="r2", inputs=[Argument(tensor=0), Argument(value=[2, 3]), Argument(value=None)],
                profile=True, into="r1"),
    ResendRequest(call_id="v0"),
    ReleaseRequest(call_ids=["v0", "v1"]),
    TimingSetsRequest(slot="perturbed", sets=[[Argument(tensor=0), Argument(value=0.5)], [Argument(tensor=1),
                                                                                         Argument(value=2)]]),
    TimeRequest(step="event_batch", calls=[(0, 17), (1, 4)], head_start_ms=0.25),
    TimedOutputsRequest(indices=[3, 0]),
]
# Each op's result, every field off its default; every timing figure once.
RESULT_EXAMPLES = [
    StartResult(),
    AuditResult(changes=["the kernels of aten::add.Tensor were changed"]),
    LoadResult(),
    LoadStateResult(unexpected=["extra.weight"]),
    CallResult(outputs=2, mutated=[1], aliases=[None, "input 0"], devices=["cuda", "cuda"], ops={"aten::mm": 2}),
    ResendResult(outputs=2),
    ReleaseResult(),
    TimingSetsResult(),
    TimeResult(figures={"ms": 1.5, "done_ms": 1.0, "queued_ms": 0.25, "harness_ms": 0.125, "times": [1.0, 2.0],
                        "tails": [0.0, 0.5], "kernel_sum_ms": 0.75, "kernels_per_call": 3.0,
                        "kernels": [{"name": "gemm", "ms": 0.5, "share": 0.75}]}),
    TimedOutputsResult(per_call=2),
]
# Every field of the envelope off its default, in a success and in a failure.
REPLY_EXAMPLES = [
    *(RunnerReply(ok=True, result=result, state_changes=["grad mode: False -> True"], threads=["warm-up"])
      for result in RESULT_EXAMPLES),
    RunnerReply(ok=False, check="runs", message="RuntimeError: boom (c.py, line 3, in forward)",
                traceback="Traceback (most recent call last): ...", state_changes=["intra-op threads: 2 -> 1"],
                threads=["prefetch"]),
]


def through_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


def assert_every_field_off_its_default(record) -> None:
    for item in fields(record):
        if item.default is not MISSING:
            assert getattr(record, item.name) != item.default, (type(record).__name__, item.name)
        elif item.default_factory is not MISSING:
            assert getattr(record, item.name) != item.default_factory(), (type(record).__name__, item.name)


def test_every_op_has_an_example_with_every_field_off_its_default():
    assert sorted(type(request).op for request in EXAMPLES) == sorted(REQUESTS)
    for request in EXAMPLES:
        assert_every_field_off_its_default(request)


@pytest.mark.parametrize("request_record", EXAMPLES, ids=lambda request: request.op)
def test_a_worker_request_round_trips_through_json(request_record):
    assert WorkerRequest.from_dict(through_json(request_record.to_dict())) == request_record


def test_every_op_has_a_result_example_with_every_field_off_its_default():
    assert sorted(type(result).__name__ for result in WORKER_RESULT_EXAMPLES) == sorted(
        kind.result_type.__name__ for kind in REQUESTS.values())
    for result in WORKER_RESULT_EXAMPLES:
        assert_every_field_off_its_default(result)


@pytest.mark.parametrize("result", WORKER_RESULT_EXAMPLES, ids=lambda result: type(result).__name__)
def test_a_worker_result_round_trips_through_json(result):
    assert type(result).from_dict(through_json(result.to_dict())) == result
    # The way it comes back: in the worker's reply, rebuilt as its request's result type.
    reply = WorkerReply.from_dict(through_json(WorkerReply(ok=True, result=result.to_dict()).to_dict()))
    assert next(kind for kind in REQUESTS.values() if isinstance(result, kind.result_type)).result_type.from_dict(
        reply.result) == result


@pytest.mark.parametrize("result", WORKER_RESULT_EXAMPLES, ids=lambda result: type(result).__name__)
def test_a_worker_result_with_a_key_it_does_not_have_is_refused_by_name(result):
    # What a worker from another version of HIERA would send.
    with pytest.raises(HieraError, match=r"has no kernels_per_run, speedup_ratio") as refused:
        type(result).from_dict({**result.to_dict(), "speedup_ratio": 2.0, "kernels_per_run": 3})
    assert refused.value.kind == "internal" and "different versions" in refused.value.hint


def test_a_request_with_an_argument_its_op_does_not_take_is_refused_by_name():
    stale = {**ProfileRequest(address="m.py", device="cpu").to_dict(), "budget": 3}
    with pytest.raises(HieraError, match="worker op 'profile' does not take budget"):
        WorkerRequest.from_dict(stale)
    with pytest.raises(HieraError, match="unknown worker op 'compile'"):
        WorkerRequest.from_dict({"op": "compile", "address": "m.py", "device": "cpu"})


def test_the_worker_answers_a_stale_request_with_an_error_reply(tmp_path):
    request, result = tmp_path / "request.json", tmp_path / "result.json"
    request.write_text(json.dumps({**ProfileRequest(address="m.py", device="cpu").to_dict(), "sets": 3}))
    subprocess.run([sys.executable, "-m", "hiera_core.worker.ops", str(request), str(result)], check=True,
                   timeout=120)
    reply = WorkerReply.from_dict(json.loads(result.read_text()))
    assert not reply.ok and "does not take sets" in HieraError.from_dict(reply.error).message


def test_the_reply_and_the_error_it_carries_round_trip_through_json():
    done = WorkerReply(ok=True, result={"spec": {"flops": 12.0}, "meta_only": False})
    assert WorkerReply.from_dict(through_json(done.to_dict())) == done
    error = HieraError("the forward hangs", file="m.py", line=7, kind="timeout", hint="fix the loop",
                       details={"log": "tail"})
    failed = WorkerReply(ok=False, error=error.to_dict())
    back = WorkerReply.from_dict(through_json(failed.to_dict()))
    assert back == failed and HieraError.from_dict(back.error).to_dict() == error.to_dict()


def test_an_event_round_trips_through_an_events_line():
    event = Event("stage", stage="verify", message="verifying compile_default (1/3)", progress=0.5,
                  data={"candidate": "compile_default", "index": 0}, time=1764700000.5)
    assert Event.from_json(event.to_json()) == event


@pytest.mark.parametrize("line", ["compiling kernel...", "[1, 2]", '{"message": "no kind"}', '{"event": 3}'])
def test_a_line_that_is_not_an_event_is_said_to_be_none(line):
    with pytest.raises(ValueError):
        Event.from_json(line)


def test_an_event_with_fields_of_the_wrong_type_keeps_what_it_can():
    event = Event.from_json('{"event": "stage", "stage": "spec", "progress": "half", "data": [1], "message": 5}')
    assert (event.event, event.stage, event.progress, event.data, event.message) == ("stage", "spec", None, {}, "5")


# ---- the judge and the candidate's runner ------------------------------------------------------------


def test_every_runner_op_has_a_request_and_a_result_example_with_every_field_off_its_default():
    assert [type(request).op for request in RUNNER_EXAMPLES] == list(RUNNER_REQUESTS)
    assert [type(result) for result in RESULT_EXAMPLES] == [kind.result_type for kind in RUNNER_REQUESTS.values()]
    assert set(RESULT_EXAMPLES[-2].figures) == set(FIGURES)
    for record in [*RUNNER_EXAMPLES, *RESULT_EXAMPLES]:
        assert_every_field_off_its_default(record)
    for field_name in ("check", "message", "traceback", "state_changes", "threads"):
        assert any(getattr(reply, field_name) for reply in REPLY_EXAMPLES), field_name


def test_every_result_reads_each_of_its_fields_and_nothing_else():
    for result in RESULT_EXAMPLES:
        assert set(type(result).readers) == {item.name for item in fields(result)}, type(result).__name__


@pytest.mark.parametrize("request_record", RUNNER_EXAMPLES, ids=lambda request: request.op)
def test_a_runner_request_round_trips_through_json(request_record):
    assert RunnerRequest.from_dict(through_json(request_record.to_dict())) == request_record


@pytest.mark.parametrize("reply", REPLY_EXAMPLES, ids=lambda reply: reply.result.op if reply.result else "failed")
def test_a_runner_reply_round_trips_through_json(reply):
    result_type = type(reply.result) if reply.result else CallResult
    assert RunnerReply.from_dict(through_json(reply.to_dict()), result_type) == reply


@pytest.mark.parametrize("message, refusal", [
    ({"op": "exec", "code": "print(1)"}, "unknown runner op 'exec'"),
    ({**LoadRequest(slot="main", largest_output_bytes=8).to_dict(), "seeds": [1]}, "runner op 'load' does not take seeds"),
    ({"op": "call", "slot": "main"}, "runner op 'call' needs call_id, inputs"),
    ({"op": "call", "slot": "main", "call_id": "v0", "inputs": [{"tensor": 0, "value": 1}]}, "an argument is"),
])
def test_a_request_a_runner_op_does_not_take_is_refused_by_name(message, refusal):
    with pytest.raises(BadMessage, match=refusal):
        RunnerRequest.from_dict(message)


def _call_reply(**result) -> dict:
    return RunnerReply(ok=True, result=CallResult(**{"outputs": 1, "mutated": [], "aliases": [None],
                                                     "devices": ["cpu"], **result})).to_dict()


DROP = object()


def _edited(data: dict, path: tuple, value) -> dict:
    """`data` (through JSON) with the key at `path` set to `value`, or removed where `value` is DROP."""
    data = through_json(data)
    *parents, last = path
    holder = data
    for key in parents:
        holder = holder[key]
    if value is DROP:
        del holder[last]
    else:
        holder[last] = value
    return data


# A runner runs candidate code: what it sends is checked, as strictly as the judge's checks need.
MALFORMED_CALL_REPLIES = [
    ((), ["ok"], "not an object"),
    (("ok",), "yes", "ok is 'yes', not true or false"),
    (("result", "outputs"), "1", "outputs is '1', not a count"),
    (("result", "outputs"), -1, "outputs is -1, not a count"),
    (("result", "outputs"), True, "outputs is True, not a count"),
    (("result", "mutated"), [0.5], "an entry of .*mutated is 0.5, not a count"),
    (("result", "devices"), "cpu", "devices is 'cpu', not a list"),
    (("result", "aliases"), [3], "an entry of .*aliases is 3, not a string"),
    (("result", "ops"), {"aten::mm": 1.5}, "ops's 'aten::mm' is 1.5, not a count"),
    (("threads",), [7], "an entry of .*threads is 7, not a string"),
    (("state_changes",), None, "state_changes is None, not a list"),
    (("result", "devices"), DROP, "the result of 'call' lacks devices"),
    (("traceback",), DROP, "the reply to 'call' lacks traceback"),
    (("verdict",), "pass", "the reply to 'call' has unknown verdict"),
    (("result", "speedup"), 100.0, "the result of 'call' has unknown speedup"),
    (("result", "aliases"), [None, None], "counts 1 output.* but describes 2 alias"),
    (("check",), "values", "says ok with a failed check"),
    (("result",), None, "says ok without a result"),
]


@pytest.mark.parametrize("path, value, refusal", MALFORMED_CALL_REPLIES,
                         ids=lambda item: ".".join(item) if isinstance(item, tuple) else None)
def test_a_malformed_runner_reply_is_refused(path, value, refusal):
    request = CallRequest(slot="main", call_id="v0", inputs=[Argument(tensor=0)])
    data = value if not path else _edited(_call_reply(), path, value)
    with pytest.raises(BadMessage, match=refusal):
        request.reply_from(data)


def test_a_failed_reply_names_its_check_and_carries_no_result():
    failed = RunnerReply(ok=False, check="runs", message="boom").to_dict()
    request = ResendRequest(call_id="v0")
    with pytest.raises(BadMessage, match="says it failed without the check"):
        request.reply_from({**failed, "check": ""})
    with pytest.raises(BadMessage, match="says it failed with a result"):
        request.reply_from({**failed, "result": {"outputs": 1}})


def test_ops_come_with_a_profiled_call_and_only_with_one():
    profiled = CallRequest(slot="main", call_id="v0", inputs=[], profile=True)
    with pytest.raises(BadMessage, match="lacks the ops a profiled call ran"):
        profiled.reply_from(_call_reply())
    with pytest.raises(BadMessage, match="counts ops of a call that was not profiled"):
        CallRequest(slot="main", call_id="v0", inputs=[]).reply_from(_call_reply(ops={"aten::mm": 1}))
    assert profiled.reply_from(_call_reply(ops={"aten::mm": 1})).result.ops == {"aten::mm": 1}


@pytest.mark.parametrize("step, figures, refusal", [
    ("cpu_batch", {"harness_ms": 0.1}, "the figures of a cpu_batch step are harness_ms, not harness_ms, times"),
    ("cpu_batch", {"harness_ms": 0.1, "times": [1.0, float("nan")]}, "an entry of .*times is nan, not a finite number"),
    ("cpu_batch", {"harness_ms": -5.0, "times": [1.0]}, "harness_ms is -5.0, a negative time"),
    ("warm_up", {"harness_ms": 0.1, "ms": 1.0, "speedup": 9.0}, "figures has unknown speedup"),
    ("profile", {"harness_ms": 0.1, "kernel_sum_ms": 1.0, "kernels_per_call": None,
                 "kernels": [{"name": "gemm", "ms": 1.0, "share": 1.0, "note": "fast"}]}, "has unknown note"),
    ("warm_up", "fast", "figures is 'fast', not an object"),
])
def test_timing_figures_are_those_of_the_step_and_finite_times(step, figures, refusal):
    reply = RunnerReply(ok=True, result=TimeResult(figures={})).to_dict()
    with pytest.raises(BadMessage, match=refusal):
        TimeRequest(step=step, calls=[(0, 1)]).reply_from({**reply, "result": {"figures": figures}})

"""The records that cross a process boundary survive JSON: each worker request and the worker's
reply (request.json, result.json), the CLI's events the language server reads, and the error
record both carry. A request the worker's op does not take is refused by name, never defaulted."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import MISSING, fields

import pytest

from hiera_core.errors import HieraError
from hiera_core.events import Event
from hiera_core.worker.requests import (
    REQUESTS,
    BenchTimeRequest,
    EvaluateRequest,
    NcuRequest,
    PrepareRequest,
    ProfileRequest,
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
                    exact_rewrite=True, cpu_threads=1, device_lock="/r/device.lock"),
    ProfileRequest(address="m.py", device="cuda", cache_root="/c", gpu="a100"),
    BenchTimeRequest(address="m.py", device="cuda", cache_root="/c", proposal_paths=["/p/a.py", "/p/b.py"],
                     compile_modes=["default", "reduce-overhead"], time_reference=False),
    NcuRequest(address="m.py", device="cuda", cache_root="/c", ncu="/usr/bin/ncu", candidate_path="/r/c.py", kernels_per_call=3.5,
               ncu_timeout_s=90.0),
]


def through_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


def test_every_op_has_an_example_with_every_field_off_its_default():
    assert sorted(type(request).op for request in EXAMPLES) == sorted(REQUESTS)
    for request in EXAMPLES:
        for item in fields(request):
            if item.default is not MISSING:
                assert getattr(request, item.name) != item.default, (request.op, item.name)
            elif item.default_factory is not MISSING:
                assert getattr(request, item.name) != item.default_factory(), (request.op, item.name)


@pytest.mark.parametrize("request_record", EXAMPLES, ids=lambda request: request.op)
def test_a_worker_request_round_trips_through_json(request_record):
    assert WorkerRequest.from_dict(through_json(request_record.to_dict())) == request_record


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

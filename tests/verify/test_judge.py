"""The judge's parts on their own: the channel's wire format, fresh timed values, perturbed
parameters, the significance rule and the wall-clock check on a runner's reported times.
The whole judge against attacks and controls: tests/adversarial."""

from __future__ import annotations

import os
import threading
import time
from types import SimpleNamespace

import pytest
import torch

from hiera_core.profile.stats import median_interval
from hiera_core.profile.steps import FreshValues
from hiera_core.verify.paired_timing import WINDOW_ATTEMPTS, PairedTiming, significance
from hiera_core.verify.perturb import perturbed_state
from hiera_core.verify.runner_process import Rejected, RunnerProcess
from hiera_core.worker.channel import BadMessage, Channel
from hiera_core.worker.messages import CallRequest, CallResult, ReleaseRequest, ReleaseResult, RunnerReply
from hiera_core.worker.runner import Runner


def connected(tmp_path) -> tuple[Channel, Channel]:
    """Two ends of a channel in one process, as the judge and its runner hold them."""
    a_to_b, b_to_a = os.pipe(), os.pipe()
    files = [tmp_path / "a.bin", tmp_path / "b.bin"]
    for path in files:
        path.write_bytes(b"")
    a = Channel(b_to_a[0], a_to_b[1], send_path=str(files[0]), receive_path=str(files[1]))
    b = Channel(a_to_b[0], b_to_a[1], send_path=str(files[1]), receive_path=str(files[0]))
    return a, b


@pytest.fixture
def channel_pair(tmp_path):
    a, b = connected(tmp_path)
    yield a, b
    a.close()
    b.close()


def test_tensors_cross_the_channel_with_their_values_dtypes_and_layouts(channel_pair):
    a, b = channel_pair
    transposed = torch.randn(33, 17).t()
    sent = [transposed, torch.tensor([True, False]), torch.randn(5, dtype=torch.bfloat16), torch.zeros(0, 3),
            torch.tensor(2.5)]
    a.send({"op": "call", "note": "x[batch, seq]"}, sent)
    message, received = b.receive(timeout_s=5)
    assert message == {"op": "call", "note": "x[batch, seq]"}
    for before, after in zip(sent, received):
        assert after.dtype == before.dtype and after.shape == before.shape and torch.equal(after, before)
    assert received[0].stride() == transposed.stride()  # the task's layout kept
    assert received[0].data_ptr() != transposed.data_ptr()  # a fresh allocation


def test_a_message_the_protocol_does_not_allow_is_refused(channel_pair):
    a, b = channel_pair
    os.write(a.write_fd, (8).to_bytes(8, "little") + b"not-json")
    with pytest.raises(BadMessage, match="not JSON"):
        b.receive(timeout_s=5)
    a.send({"tensors_forged": True})
    body = b'{"tensors": [{"dtype": "float32", "shape": [4], "stride": [1], "offset": 4096, "nbytes": 16}]}'
    os.write(a.write_fd, len(body).to_bytes(8, "little") + body)
    b.receive(timeout_s=5)
    with pytest.raises(BadMessage, match="bytes described up to"):
        b.receive(timeout_s=5)


class _RunnerWithoutProcess(RunnerProcess):
    """The judge's end of a runner with no process behind it: the test answers for the runner."""

    def __init__(self, channel: Channel):
        self.device, self.channel = "cpu", channel
        self.process = SimpleNamespace(pid=2**22 + 1, poll=lambda: 0, wait=lambda timeout=None: 0)  # no such pid
        self.started = 2**62  # no process of this one started since
        self.judge_scheduling = None


def test_a_reply_the_protocol_does_not_allow_rejects_the_candidate_as_runner_exit(channel_pair):
    judge_end, runner_end = channel_pair
    forged = RunnerReply(ok=True, result=CallResult(outputs=1, mutated=[], aliases=[None], devices=["cpu"]))
    runner_end.send({**forged.to_dict(), "verdict": "pass"}, [torch.ones(2)])
    with pytest.raises(Rejected) as rejected:
        _RunnerWithoutProcess(judge_end).request(CallRequest(slot="main", call_id="v0", inputs=[]), timeout_s=5,
                                                 doing="calling forward")
    assert rejected.value.check.name == "runner-exit"
    assert "answered calling forward with what the protocol does not allow (the reply to 'call' has unknown " \
           "verdict)" in rejected.value.check.message


def test_the_runner_refuses_a_request_its_op_does_not_take_by_name_and_runs_nothing(tmp_path):
    judge_end, runner_end = connected(tmp_path)
    serving = threading.Thread(target=Runner(runner_end).serve, daemon=True)
    serving.start()
    judge_end.send({**ReleaseRequest(call_ids=["v0"]).to_dict(), "everything": True})
    message, _ = judge_end.receive(timeout_s=30)
    judge_end.close()  # the runner's end reads the end of the pipe and stops serving
    serving.join(timeout=30)
    runner_end.close()
    reply = RunnerReply.from_dict(message, ReleaseResult)
    assert (reply.ok, reply.check) == (False, "protocol") and "does not take everything" in reply.message


def test_on_a_gpu_the_runner_answers_once_the_device_has_done_what_the_candidate_queued(tmp_path, monkeypatch):
    """A finalizer of an output the judge releases can queue GPU work; answered before it ends, it would
    run beside the reference the judge times next."""
    order = []
    monkeypatch.setattr(torch.cuda, "synchronize", lambda device=None: order.append("synchronized"))
    judge_end, runner_end = connected(tmp_path)
    runner = Runner(runner_end)
    runner.device = "cuda"
    runner.kept["v0"] = [torch.ones(2)]
    serving = threading.Thread(target=runner.serve, daemon=True)
    serving.start()
    judge_end.send(ReleaseRequest(call_ids=["v0"]).to_dict())
    message, _ = judge_end.receive(timeout_s=30)
    order.append("answered")
    judge_end.close()
    serving.join(timeout=30)
    runner_end.close()
    assert RunnerReply.from_dict(message, ReleaseResult).ok and order == ["synchronized", "answered"]


def test_every_timed_call_gets_values_no_other_call_saw_in_the_tasks_layout():
    base = torch.randn(64, 32).t()
    indices = torch.arange(10)
    values = FreshValues([[base, indices, 3]])
    seen = set()
    for roll in range(1, 40):
        fresh, same_indices, scalar = values.make(0, roll)
        assert fresh.stride() == base.stride() and scalar == 3
        assert torch.equal(same_indices, indices)  # integer inputs (indices, lengths) keep their meaning
        assert torch.equal(torch.sort(fresh.flatten()).values, torch.sort(base.flatten()).values)  # same values
        key = tuple(fresh.flatten()[:4].tolist())
        assert key not in seen and not torch.equal(fresh, base)
        seen.add(key)
    assert torch.equal(values.make(0, 0)[0], base)


def test_perturbed_parameters_move_zero_gates_and_tiny_scales_and_keep_variances_positive():
    state = {"gate": torch.zeros(8), "layer_scale": torch.full((8,), 1e-5), "running_var": torch.ones(8),
             "weight": torch.randn(8, 8), "num_batches_tracked": torch.tensor(3)}
    moved = perturbed_state(state, seed=7)
    assert float(moved["gate"].abs().min()) > 0
    assert bool((moved["layer_scale"] > 0).all()) and float(moved["layer_scale"].mean()) > 1e-2  # a tiny scale grows
    assert bool((moved["running_var"] > 0).all()) and not torch.equal(moved["running_var"], state["running_var"])
    assert 0.1 < float((moved["weight"] - state["weight"]).std() / state["weight"].std()) < 1.0  # its own scale
    assert torch.equal(moved["num_batches_tracked"], state["num_batches_tracked"])
    assert torch.equal(perturbed_state(state, seed=7)["weight"], moved["weight"])  # reproducible from the seed


def _timing(samples):
    low, high = median_interval(samples)
    ordered = sorted(samples)
    return SimpleNamespace(median_ms=ordered[len(ordered) // 2], median_low_ms=low, median_high_ms=high,
                           iqr_ms=ordered[3 * len(ordered) // 4] - ordered[len(ordered) // 4])


def test_a_speedup_counts_only_beyond_the_measured_spread_and_never_for_the_references_own_ops():
    reference = _timing([1.0 + 0.01 * (i % 7) for i in range(30)])
    faster = _timing([0.5 + 0.01 * (i % 5) for i in range(30)])
    noisy = _timing([0.6 + 0.8 * (i % 2) for i in range(30)])
    slower = _timing([2.0 + 0.01 * (i % 3) for i in range(30)])
    assert significance(reference, faster, same_ops=False).significant
    judged = significance(reference, noisy, same_ops=False)
    assert not judged.significant and judged.timing_verdict.startswith("within the measured spread")
    assert "candidate" in judged.unreliable
    assert significance(reference, slower, same_ops=False).timing_verdict == "slower"
    same = significance(reference, faster, same_ops=True)
    assert not same.significant and same.timing_verdict.startswith("no change")


class _Side:
    """A timing side whose calls sleep `call_ms`; it reports `reported` of that time as the calls'
    and `as_making` of it as time spent making their values."""

    def __init__(self, name, call_ms, reported=1.0, as_making=0.0, busy_steps=0):
        self.name, self.call_ms, self.reported, self.as_making = name, call_ms, reported, as_making
        self.busy_steps = busy_steps  # timed steps first delayed by a busy machine (time no call reports)

    def step(self, step, calls, head_start_ms=0.0):
        started = time.perf_counter()
        if not step.startswith("noop") and step != "warm_up":
            time.sleep(self.call_ms * len(calls) / 1000)
            if self.busy_steps:
                self.busy_steps -= 1
                time.sleep(2 * self.call_ms * len(calls) / 1000)
        wall = (time.perf_counter() - started) * 1000
        making = 0.0 if step.startswith("noop") else self.call_ms * self.as_making * len(calls)
        return {"times": [self.call_ms * self.reported] * len(calls), "ms": self.call_ms, "harness_ms": making}, wall

    def outputs(self, indices):
        return [[torch.zeros(1)] for _ in indices]


def test_reported_times_the_judges_clock_does_not_bear_out_are_rejected():
    def always_right(call, outs):
        return None

    honest = PairedTiming(_Side("reference", 3.0), _Side("candidate", 3.0), "cpu", True, always_right)
    honest.run()
    assert all(check.passed for check in honest.checks), honest.checks
    forged = PairedTiming(_Side("reference", 3.0), _Side("candidate", 3.0, reported=0.01), "cpu", True, always_right)
    forged.run()
    failed = [check for check in forged.checks if not check.passed]
    assert failed and failed[0].name == "timing-window"
    # The time reported as spent making the calls' values instead: more than the same work costs the reference.
    shifted = PairedTiming(_Side("reference", 3.0), _Side("candidate", 3.0, reported=0.01, as_making=0.99), "cpu",
                           True, always_right)
    shifted.run()
    failed = [check for check in shifted.checks if not check.passed]
    assert failed and failed[0].name == "timing-window" and "making the fresh values" in failed[0].message


def test_a_timing_a_busy_machine_delayed_throughout_is_taken_again_and_a_forged_one_never_passes():
    def always_right(call, outs):
        return None

    # Every step of the first timing (5 calls of 3 ms: 4 steps) waits for the machine, the next does not.
    delayed = PairedTiming(_Side("reference", 3.0), _Side("candidate", 3.0, busy_steps=4), "cpu", True, always_right)
    reference, candidate = delayed.run()
    assert all(check.passed for check in delayed.checks), delayed.checks
    assert candidate is not None and candidate.median_ms == pytest.approx(3.0)
    forged = PairedTiming(_Side("reference", 3.0), _Side("candidate", 3.0, reported=0.01, busy_steps=4), "cpu", True,
                          always_right)
    assert forged.run() == (None, None)
    failed = [check for check in forged.checks if not check.passed]
    assert [check.name for check in failed] == ["timing-window"]
    assert failed[0].message.endswith(f"(in each of {WINDOW_ATTEMPTS} timings taken afresh)")


def test_a_wrong_timed_output_is_found_whichever_call_it_was():
    def wrong(call, outs):
        from hiera_core.verify.verdicts import Check

        return Check("revalidation", False, "a timed call's output is wrong")

    timing = PairedTiming(_Side("reference", 0.5), _Side("candidate", 0.5), "cpu", True, wrong)
    timing.run()
    assert [c.name for c in timing.checks if not c.passed][:1] == ["revalidation"]
    assert issubclass(Rejected, Exception)

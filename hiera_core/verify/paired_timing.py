"""The paired timing: the reference timed in the judge's process and the candidate by its runner,
in alternating steps of one method (docs/timing.md), the runner's reported times held to the
judge's wall clock, and what is decided from the figures (roofline and streams checks, the
speedup's significance).
"""

from __future__ import annotations

import secrets
import statistics
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hiera_core.events import add_seconds
from hiera_core.task.load import outputs_as_list
from hiera_core.verify.runner_process import Rejected
from hiera_core.verify.verdicts import Check, roofline_check, streams_check
from hiera_core.worker.messages import TimedOutputsRequest, TimeRequest

if TYPE_CHECKING:
    from hiera_core.profile.stats import Timing
    from hiera_core.verify.calls import CheckedCalls


@dataclass
class TimedPair:
    """The judge's paired timing: the reference's and the candidate's figures (both None when a check
    failed while timing) and the checks that ran while they were taken."""

    baseline: Timing | None
    candidate: Timing | None
    checks: list[Check] = field(default_factory=list)


@dataclass
class Significance:
    """Whether a candidate's speedup counts (`significance`)."""

    speedup: float | None
    speedup_interval: list[float | None]  # [low, high]; None: no interval
    significant: bool
    timing_verdict: str
    unreliable: list[str]  # whose timing is too noisy: "reference", "candidate"

TIMING_SETS = 2  # base sets of timed calls (each call rolls one of them anew)
# Timing steps whose wall time per call (seen here) exceeds the runner's reported time per call (its
# calls and the making of their fresh values) plus the channel's overhead (measured on empty steps)
# by more than this share of the wall time and more than the device's noise, in every step: time
# spent outside what it reports. Its reported making of values may exceed the reference's (the same
# work on the same data) by MAKE_RATIO and the noise at most.
WINDOW_SHARE = 0.3
WINDOW_SLACK_MS = {"cpu": 0.5, "cuda": 0.02}
MAKE_RATIO = 3.0
MIN_TIMED_CHECKS = 3
# A timing whose window check fails is taken afresh, up to this many times in all, and only the
# figures of a timing that passes count: a busy machine can delay every step of one timing (seen: an
# honest CPU control's, while two evaluations shared two cores), while time a candidate leaves out of
# its reports shows in every timing. Each timing is held to the same rule as the first.
WINDOW_ATTEMPTS = 3
TAIL_CALLS = 11  # calls, each alone on an idle device, that measure the work left after the end event
TAIL_ROUNDS = 3  # rounds of them (see unwaited_ms)


def unwaited_ms(side, calls, head_start_ms: float) -> float:
    """How long the device stays busy after a call's end event on the timed stream, less an empty
    call's: per round, the median of TAIL_CALLS calls less that of as many empty ones, taken back to
    back; the lowest of TAIL_ROUNDS rounds. Another process's load on the host only lengthens some
    rounds (its synchronisations), work the call leaves on other streams every one. (A CUDA-graphed
    max-autotune MLP read 0.0225 ms in one round, over the 0.02 ms slack, while the loop compiled
    beside it, H100, 2026-12-06: not measured again, so load or not is unknown.)"""
    rounds = []
    for _ in range(TAIL_ROUNDS):
        # Each call starts on a busy device, as in the event batches: no call can tell these apart.
        tails = side.step("tail", calls(TAIL_CALLS), head_start_ms)[0]["tails"]
        empty = side.step("noop_tail", calls(TAIL_CALLS), head_start_ms)[0]["tails"]
        rounds.append(max(0.0, statistics.median(map(float, tails)) - statistics.median(map(float, empty))))
    return min(rounds)


class LocalSide:
    """The reference, timed in this process."""

    name = "reference"

    def __init__(self, timer):
        self.timer = timer

    def step(self, step: str, calls: list, head_start_ms: float = 0.0) -> tuple[dict, float]:
        started = time.perf_counter()
        figures = self.timer.run(step, calls, head_start_ms)
        return figures, (time.perf_counter() - started) * 1000

    def outputs(self, indices: list[int]) -> list[list]:
        return [outputs_as_list(self.timer.outputs[i]) for i in indices]


class RemoteSide:
    """The candidate, timed by its runner; this process measures the wall time of each step."""

    name = "candidate"

    def __init__(self, judge: CheckedCalls):
        self.judge = judge

    def step(self, step: str, calls: list, head_start_ms: float = 0.0) -> tuple[dict, float]:
        # The figures are those of the step (TimeRequest.reply_from), or the runner is rejected as runner-exit.
        reply = self.judge.ask(TimeRequest(step=step, calls=calls, head_start_ms=head_start_ms),
                               doing=f"timing ({step.replace('_', ' ')})",
                               timeout_s=self.judge._limit(first=step == "warm_up", calls=len(calls)))
        return reply.answer.result.figures, reply.wall_ms

    def outputs(self, indices: list[int]) -> list[list]:
        reply = self.judge.ask(TimedOutputsRequest(indices=indices), doing="sending timed outputs")
        per_call = reply.answer.result.per_call
        if per_call * len(indices) != len(reply.tensors):
            raise Rejected(Check("revalidation", False, "the candidate's process sent timed outputs that do not "
                                                        "match the calls asked for"))
        return [reply.tensors[i * per_call:(i + 1) * per_call] for i in range(len(indices))]


class PairedTiming:
    """The reference and the candidate timed by alternating steps of one method (docs/timing.md):
    CPU, wall clock per call; GPU, back-to-back host batches and CUDA-event batches behind a
    head start, as hiera_core.profile.timing.time_module. Every call gets fresh values the judge chose;
    after each candidate step one of its calls, picked afterwards, may be checked against the
    reference's output on the same values; each candidate step's wall time, measured here, must
    be explained by the times it reports plus the step's measured overhead."""

    def __init__(self, reference: LocalSide, candidate: RemoteSide, device: str, rolls: bool, check_output,
                 seconds: dict | None = None, sets: int = TIMING_SETS, most_calls: int | None = None):
        self.sides = (reference, candidate)
        self.sets = sets  # base sets each side holds
        self.most_calls = most_calls  # calls a step at most: their outputs live until the side's next step
        self.seconds = seconds if seconds is not None else {}  # wall seconds of its parts (events.stopwatch)
        self.device = device
        self.rolls = rolls
        self.check_output = check_output
        self.checks: list[Check] = []
        self.random = secrets.SystemRandom()
        self.checked = 0
        self.excess: list[float] = []  # candidate steps, per call: wall - reported - overhead
        self.walls: list[float] = []  # candidate steps, per call
        self.make_ms: dict[str, list[float]] = {"reference": [], "candidate": []}  # harness ms per call, per step

    def next_call(self) -> tuple[int, int]:
        return (self.random.randrange(self.sets), self.random.randrange(1, 1 << 30) if self.rolls else 0)

    def capped(self, count: int) -> int:
        return min(count, self.most_calls or count)

    def calls(self, count: int) -> list[tuple[int, int]]:
        return [self.next_call() for _ in range(self.capped(count))]

    def run(self):
        """(reference timing, candidate timing), or (None, None) when a check failed while timing."""
        self._since = time.monotonic()
        for side in self.sides:
            side.step("warm_up", self.calls(3))
        self._lap("time_warm_up")
        for attempt in range(1, WINDOW_ATTEMPTS + 1):
            self.excess, self.walls = [], []
            self.make_ms = {"reference": [], "candidate": []}
            try:
                timings = self._run_cuda() if self.device == "cuda" else self._run_cpu()
            except Rejected as rejected:  # a timed output was wrong: no figures to summarise
                self.checks.append(rejected.check)
                return None, None
            window = self._window_check()
            if window is None or window.passed or attempt == WINDOW_ATTEMPTS:
                break
        if window is not None:
            if not window.passed and WINDOW_ATTEMPTS > 1:
                window.message += f" (in each of {WINDOW_ATTEMPTS} timings taken afresh)"
            self.checks.append(window)
        return timings if all(check.passed for check in self.checks) else (None, None)

    def _lap(self, part: str) -> None:
        """Adds the wall seconds since the last lap to seconds[part]: where the timing's time went."""
        now = time.monotonic()
        add_seconds(self.seconds, part, now - self._since)
        self._since = now

    def _candidate_step(self, calls: list, reported_ms: float, wall_ms: float, overhead_ms: float) -> None:
        """A candidate step whose wall time counts for the window check (`reported_ms`: its calls and
        the making of their values); its outputs may be checked."""
        self.excess.append((wall_ms - reported_ms - overhead_ms) / len(calls))
        self.walls.append(wall_ms / len(calls))
        self._maybe_check(calls)

    def _maybe_check(self, calls: list, final: bool = False) -> None:
        """One of the step's calls, picked now that the step is over, checked against the reference
        (always while fewer than MIN_TIMED_CHECKS were, else at even odds); `final`: the last call of
        the candidate's last step, always (a candidate that turns after so many calls has turned by then)."""
        if not (final or self.checked < MIN_TIMED_CHECKS or self.random.random() < 0.5):
            return
        index = len(calls) - 1 if final else self.random.randrange(len(calls))
        outs = self.sides[1].outputs([index])[0]
        problem = self.check_output(calls[index], outs)
        self.checked += 1
        if problem:
            raise Rejected(problem)

    def _overhead(self, step: str, calls: int) -> float:
        """The channel's overhead per step: the wall time of an empty step of the candidate's (values
        made, no calls) less the making it reports; the least of 3, after one that settles."""
        steps = [self.sides[1].step(step, self.calls(calls)) for _ in range(4)][1:]
        return max(0.0, min(wall - float(figures.get("harness_ms", 0.0)) for figures, wall in steps))

    def _window_check(self) -> Check | None:
        """The least excess over the candidate's steps: on a busy machine some steps wait for the
        scheduler, but time left out of every report shows in every step, the cleanest included."""
        if not self.excess:
            return None
        makes = {name: statistics.median(values) for name, values in self.make_ms.items() if values}
        if len(makes) == 2 and makes["candidate"] > MAKE_RATIO * makes["reference"] + WINDOW_SLACK_MS[self.device]:
            return Check("timing-window", False, f"the candidate's process reports {makes['candidate']:.4g} ms per "
                                                 f"call of the harness's own work (making the fresh values of its "
                                                 f"timed calls, releasing outputs), the reference's "
                                                 f"{makes['reference']:.4g} ms for the same work: time moved out of "
                                                 f"the calls it reports")
        clean = min(range(len(self.excess)), key=self.excess.__getitem__)
        excess, wall = self.excess[clean], self.walls[clean]
        if excess > WINDOW_SHARE * wall and excess > WINDOW_SLACK_MS[self.device]:
            return Check("timing-window", False, f"every timing step of the candidate took longer by the judge's "
                                                 f"clock than its process reports: at best {wall:.4g} ms per call, "
                                                 f"{excess:.4g} ms more than the reported times and the steps' own "
                                                 f"overhead explain; the reported times leave out work, or were not "
                                                 f"measured as reported")
        return Check("timing-window", True, f"the candidate's reported times explain the judge's wall clock within "
                                            f"{max(excess, 0):.3g} ms per call")

    def _run_cpu(self):
        from hiera_core.profile.stats import _summarise, median_interval

        samples: dict[str, list[float]] = {"reference": [], "candidate": []}
        overhead = self._overhead("noop_cpu_batch", 5)
        last_calls: list = []
        while any(len(s) < 5 or (len(s) < 20 and sum(s) < 500.0) for s in samples.values()):
            for side in self.sides:
                calls = self.calls(5)
                figures, wall = side.step("cpu_batch", calls)
                times = [float(t) for t in figures["times"]]
                samples[side.name].extend(times)
                make = float(figures.get("harness_ms", 0.0))
                self.make_ms[side.name].append(make / len(calls))
                if side.name == "candidate":
                    self._candidate_step(calls, sum(times) + make, wall, overhead)
                    last_calls = calls
        self._maybe_check(last_calls, final=True)
        self._lap("time_cpu_batches")
        method = ("wall clock, fresh values at new addresses per call, warm-up 3, median of >=5 calls (up to 20 or "
                  "0.5 s), alternating with the other module in steps of 5")
        timings = []
        for side in self.sides:
            times = samples[side.name]
            timing = _summarise("cpu", times, times, method)
            timing.median_low_ms, timing.median_high_ms = median_interval(times)
            timings.append(timing)
        return timings

    def _run_cuda(self):
        from hiera_core.profile.stats import _summarise, median_interval
        from hiera_core.profile.timing import HEAD_START_MARGIN, HOST_BOUND_RATIO, HOST_BOUND_SLACK_MS

        host: dict[str, list[float]] = {"reference": [], "candidate": []}
        queued: dict[str, list[float]] = {"reference": [], "candidate": []}
        events: dict[str, list[float]] = {"reference": [], "candidate": []}
        batch_calls: dict[str, int] = {}
        for side in self.sides:
            figures, _ = side.step("warm_up", self.calls(1))
            batch_calls[side.name] = self.capped(max(2, min(20, int(10.0 / max(float(figures["ms"]), 1e-3)))))
        overhead = self._overhead("noop_host_batch", batch_calls["candidate"])
        while any(len(h) < 5 or (sum(h) * batch_calls[n] < 250.0 and len(h) < 15) for n, h in host.items()):
            for side in self.sides:
                calls = self.calls(batch_calls[side.name])
                figures, wall = side.step("host_batch", calls)
                host[side.name].append(float(figures["done_ms"]))
                queued[side.name].append(float(figures["queued_ms"]))
                make = float(figures.get("harness_ms", 0.0))
                self.make_ms[side.name].append(make / len(calls))
                if side.name == "candidate":
                    self._candidate_step(calls, len(calls) * float(figures["done_ms"]) + make, wall, overhead)
        self._lap("time_host_batches")
        head_start, last_calls, unwaited = {}, [], {}
        for side in self.sides:
            loop_queue = statistics.median(float(side.step("noop_event_batch", self.calls(10))[0]["queued_ms"])
                                           for _ in range(3))
            head_start[side.name] = HEAD_START_MARGIN * (loop_queue + statistics.median(queued[side.name]))
            unwaited[side.name] = unwaited_ms(side, self.calls, head_start[side.name])
        self._lap("time_tails")
        while any(len(e) < 30 or (sum(e) < 250.0 and len(e) < 1000) for e in events.values()):
            for side in self.sides:
                calls = self.calls(10)
                figures, _ = side.step("event_batch", calls, head_start[side.name])
                events[side.name].extend(float(t) for t in figures["times"])
                if side.name == "candidate":
                    self._maybe_check(calls)
                    last_calls = calls
        self._maybe_check(last_calls, final=True)
        self._lap("time_event_batches")
        timings = []
        for side in self.sides:
            times, host_times = events[side.name], host[side.name]
            gpu_median = statistics.median(times)
            host_bound = statistics.median(host_times) > HOST_BOUND_RATIO * gpu_median + HOST_BOUND_SLACK_MS
            headline = host_times if host_bound else times
            timing = _summarise("cuda", headline, host_times,
                                "GPU time: CUDA events per call, fresh values at new addresses, L2 flushed and a spin "
                                "kernel queued before each call, >=30 calls (up to 0.25 s); or host time where "
                                "clearly larger: back-to-back calls on fresh values, whole device synchronised per "
                                f"batch of {batch_calls.get(side.name, 0)}; the reference and the candidate in "
                                f"alternating steps, in separate processes")
            timing.iterations = len(times) + batch_calls.get(side.name, 0) * len(host_times)
            timing.gpu_median_ms = gpu_median
            timing.host_queue_ms = statistics.median(queued[side.name]) if queued[side.name] else None
            timing.host_min_ms = min(host_times)
            timing.unwaited_ms = unwaited[side.name]
            timing.bound = "host" if host_bound else "gpu"
            timing.median_low_ms, timing.median_high_ms = median_interval(headline)
            timings.append(timing)
        return timings


def timing_checks(judge: CheckedCalls, timed, baseline, exact_rewrite: bool) -> list[Check]:
    """All streams waited for (GPU), and no faster than the roofline bound (on every device, where the
    bound is for this device; for an engine's exact rewrite, the bytes any implementation moves)."""
    import torch

    from hiera_core.spec import gpus

    if judge.device == "cuda":
        here = gpus.match_name(torch.cuda.get_device_name())
        device_key = here.key if here else None
        checks = [streams_check(timed, "")]
    else:
        device_key, checks = "cpu", []
    roofline = roofline_check(judge.spec, timed, baseline, device_key, "", exact_rewrite)
    if roofline is not None:
        checks.append(roofline)
    return checks


def significance(baseline: Timing, candidate: Timing, same_ops: bool) -> Significance:
    """The speedup, its interval from the medians' confidence intervals, and whether it counts: only
    when those intervals do not overlap, and never for a candidate that runs the reference's ops."""
    speedup = baseline.median_ms / candidate.median_ms if candidate.median_ms else None
    low = baseline.median_low_ms / candidate.median_high_ms if candidate.median_high_ms else None
    high = baseline.median_high_ms / candidate.median_low_ms if candidate.median_low_ms else None
    if same_ops:
        verdict = "no change: the candidate runs exactly the reference's torch ops"
    elif low is not None and low > 1.0:
        verdict = "faster"
    elif high is not None and high < 1.0:
        verdict = "slower"
    else:
        verdict = "within the measured spread of the reference"
    noisy = [name for name, t in (("reference", baseline), ("candidate", candidate)) if t.iqr_ms > 0.5 * t.median_ms]
    return Significance(speedup, [low, high], verdict == "faster", verdict, noisy)

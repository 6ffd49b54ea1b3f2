"""The LLM part of a run: space selection by a model, then refinement chains that write candidates,
get structured feedback from verification and profiling, and improve on it within budgets.

Planning (`Planning`) is one request in a background thread with its own deadline
(`planning_deadline`): the offline candidates are evaluated while it is out, and a server that
never answers costs the run nothing but that deadline (then the offline ranking is used).

Shape of the loop (all bookkeeping in the calling thread; only HTTP requests run elsewhere):
- `concurrency` refinement chains; each has at most one request in flight (a daemon thread, so a
  cancelled run never waits for a slow server). Several chains = several samples in flight,
  without relying on the server supporting `n`.
- A chain's next prompt carries the feedback on its own previous candidate, so it waits for that
  candidate's evaluation; meanwhile the other chains' requests are generating: compile and
  verification of one sample overlap generation of the next.
- Evaluations run one at a time in the calling thread (`evaluate` starts a worker process):
  timings taken concurrently on one GPU, or on the CPU's wall clock, would disturb each other.
  Waiting candidates from the model go first (their chains are blocked on them); offline
  candidates fill the gaps while requests are out, and all of them are always evaluated, so a
  model can only add to the race.
- Budgets, all hard: samples (implementation requests), tokens (prompt + completion, planning
  included; in-flight requests reserve theirs, and an answer is counted at most at the
  max-answer-tokens it was granted), wall time (no new request or model-candidate evaluation after
  it; requests still out at it are abandoned, and a model candidate's evaluation is stopped at it).
- A failing endpoint is dropped by the client's circuit breaker (ModelUnavailable): said once.
- Reflection: after an evaluated attempt that failed, or verified no faster than the best so far, the
  planning model is asked for a short critique (bottleneck, next change) before the chain's next
  sample; the critique and knowledge re-retrieved for the bottleneck its profile shows go into the
  refinement prompt.
- Region work: with several chains, the last `region_chains` of them (never all) ask for one region
  of the plan (`region_targets`: a library or custom-kernel region not at its bound, largest share
  first) to be rewritten in the best composed offline candidate, keeping its other regions; the
  answer is a whole module, evaluated like every candidate, and its exchange records the region.
- Replay (`hiera optimize --resume`): `replay` holds the resumed run's order (candidates by
  evaluation; what was evaluated before each sample was sent). Before a sample is sent again, or a
  model candidate evaluated again, the offline candidates that preceded it are evaluated (from the
  records, instantly), and none ahead of that order, so the prompts come out the same and their
  answers replay from the answer cache.
"""

from __future__ import annotations

import ast
import queue
import re
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

from hiera_core import knowledge, prompts
from hiera_core.cuda.proposal import EXTENSION_RUNTIME_FILE, NVRTC_RUNTIME_FILE
from hiera_core.events import Emit, Event
from hiera_core.llm.answers import BadAnswer, cuda_strings, extract_module
from hiera_core.llm.client import ChatClient, ContextTooLong, ModelUnavailable, Reply, RequestFailed, estimate_tokens
from hiera_core.llm.config import LLMConfig
from hiera_core.llm.record import Exchange, LLMRecord
from hiera_core.llm.resume import Replay
from hiera_core.plan.planner import (SPACE_MEANINGS, ExpertPlanner, LLMPlanner, Plan, chosen_plan, fallback_choice,
                             open_spaces)
from hiera_core.plan.regions import Region, node_refs
from hiera_core.spaces import SPACES
from hiera_core.spec.model import Spec, render_text

MIN_ANSWER_TOKENS = 512  # below this a candidate module cannot be written: the token budget is spent
MEMORY_TOKENS = 6000  # earlier attempts of a chain in full in its refinement prompt, newest first, up to this
PLAN_ANSWER_TOKENS = 1024
REFLECT_ANSWER_TOKENS = 400  # a critique is a few sentences
REFLECTION_CHARS = 2000  # what of a critique goes into the refinement prompt
KNOWLEDGE_PER_ROUND = 3  # entries re-retrieved for a refinement prompt
PLAN_DEADLINE_S = 120.0  # planning's own deadline (at most half the time budget)
MAX_QUOTED_LINES = 12
# HIERA's runtime helpers answers may call without defining them: the NVRTC launch helpers
# (hiera_core/cuda/proposal_runtime.py) and the extension builder (hiera_core/cuda/extension_runtime.py).
RUNTIME_HELPERS = ("_hiera_kernel", "_hiera_launch")
EXTENSION_HELPERS = ("_hiera_extension",)
# Region-level work: a region whose best choice is one of these, measured below this share of its
# roofline bound (as optimize.AT_LIMIT_SHARE for the whole module), can gain from a rewrite of its own.
REGION_SPACES = ("cuda_libs", "custom_cuda")
REGION_AT_BOUND_SHARE = 0.9


@dataclass
class Budget:
    samples: int
    tokens: int
    wall_s: float


@dataclass
class Attempt:
    """One answer of a chain and what became of it: the chain's memory across rounds."""

    sample: int
    candidate: str | None  # None: the answer could not be used
    code: str | None  # the module as the model wrote it
    result: str  # one line: the failed check, or the speedup it verified at


@dataclass
class RegionWork:
    """What a region chain works on: one region of the plan, rewritten in the best composed offline
    candidate (custom CUDA, which computes every region), whose other regions its answers keep."""

    region: Region
    start: dict  # that offline candidate


@dataclass
class Chain:
    index: int
    strategy: dict  # where this chain starts: {"space", "strategy", "reason"} (chains start apart)
    region: RegionWork | None = None  # None: the chain asks for the whole module
    compact: bool = False  # after a context-too-long answer: prompts without the knowledge entries
    base: list[dict] = field(default_factory=list)  # system + implementation messages of this chain
    last_answer: str | None = None
    last_candidate: str | None = None
    feedback: dict | None = None  # outcome, profile, task (critique, knowledge) for the refinement prompt
    attempts: list[Attempt] = field(default_factory=list)  # oldest first; the last is last_answer's
    knowledge_given: set[str] = field(default_factory=set)  # entries its first prompt carried in full


@dataclass
class Pending:
    """A model candidate waiting for its evaluation."""

    chain: Chain
    exchange: Exchange
    candidate: dict
    code: str  # the module as the model wrote it
    prefix_lines: int  # lines HIERA put above it (the CUDA runtime helpers)
    resources: str  # ptxas report of its kernels ("" when none or not compiled here)


# ---- planning ---------------------------------------------------------------------------------
def planning_deadline(config: LLMConfig, started: float) -> float:
    """When planning gives up on the model (time.monotonic()): PLAN_DEADLINE_S after `started`, at
    most half the time budget, so that implementation keeps the rest."""
    return started + min(PLAN_DEADLINE_S, config.time_budget_s / 2)


class Planning:
    """Space selection by the model, asked in a daemon thread so the caller can evaluate the offline
    candidates meanwhile; the exchange is recorded from the calling thread, in `plan()`."""

    def __init__(self, client: ChatClient, config: LLMConfig, record: LLMRecord, spec: Spec, device_text: str,
                 deadline: float):
        self.record = record
        self.spec = spec
        self.deadline = deadline
        self.planner = LLMPlanner(self._answer, device_text)
        model = config.planning_model
        messages = self.planner.messages(spec, self.planner.fallback.plan(spec))
        self.exchange = record.open("plan", model, messages)
        self._outcome: queue.Queue = queue.Queue(maxsize=1)
        max_tokens = min(PLAN_ANSWER_TOKENS, config.token_budget)
        temperature = self.exchange.temperature = config.temperature_for(1)

        def request() -> None:
            try:
                outcome: Reply | Exception = client.complete(model, messages, max_tokens, deadline=deadline,
                                                             temperature=temperature)
            except (RequestFailed, ModelUnavailable) as error:
                outcome = error
            except Exception as error:  # noqa: BLE001 - planning must end in a plan whatever happens
                outcome = RequestFailed(f"internal error: {type(error).__name__}: {error}"[:300], 1)
            self._outcome.put((outcome, time.monotonic()))

        threading.Thread(target=request, name="hiera-llm-plan", daemon=True).start()

    def done(self) -> bool:
        return not self._outcome.empty()

    def plan(self) -> Plan:
        """The model's plan, or the offline ranking's with why not (an unusable answer, a lost request,
        no answer by the deadline); raises ModelUnavailable when the endpoint cannot serve the run."""
        plan = self.planner.plan(self.spec)
        self.record.plan_choice = plan.choice
        if self.exchange.status == "answered":
            used = plan.choice["source"] == "model"
            self.record.close(self.exchange, "used" if used else "invalid", "" if used else plan.choice["problem"])
        self.record.save()
        return plan

    def _answer(self, messages: list[dict]) -> str:
        """The planner's `ask`: the answer that came, or why none did."""
        try:
            outcome, arrived = self._outcome.get(timeout=max(0.0, self.deadline - time.monotonic()))
        except queue.Empty:
            waited = self.deadline - self.record.started
            outcome, arrived = RequestFailed(f"no answer by planning's deadline ({waited:.3g} s into the run): "
                                             "abandoned", 1), self.deadline
        if not isinstance(outcome, Reply):  # when it ended, not when the caller got round to reading it
            self.exchange.done_s = arrived - self.record.started
        if isinstance(outcome, ModelUnavailable):
            self.record.close(self.exchange, "error", outcome.message)
            raise outcome
        if isinstance(outcome, RequestFailed):
            self.record.close(self.exchange, "error", outcome.reason, attempts=outcome.attempts,
                              retries=outcome.retries)
            raise outcome
        self.record.answered(self.exchange, outcome)
        return outcome.text


def plan_with_model(client: ChatClient, config: LLMConfig, record: LLMRecord, spec: Spec, device_text: str,
                    deadline: float) -> Plan:
    """The LLM planner's plan, waited for until `deadline`; the exchange is recorded, and so is a
    fallback to the offline ranking."""
    return Planning(client, config, record, spec, device_text, deadline).plan()


def describe_device(spec: Spec) -> str:
    """The device as the prompts name it: kind, name, torch (and CUDA) version."""
    env = spec.environment
    return (f"{spec.device}: {env.get('device_name')}, torch {env.get('torch')}"
            + (f", CUDA {env.get('cuda')}" if spec.device == "cuda" else ""))


def plan_only(config: LLMConfig, record: LLMRecord, spec: Spec) -> tuple[Plan, ModelUnavailable | None]:
    """Space selection by the model and nothing else (`hiera plan`), recorded in `record`.

    Always a plan: the model's choice, or the offline ranking's best with why the model's was not
    used (an unusable answer, a lost request, or an endpoint that cannot serve the run, which is
    also returned so the caller can say it in one line).
    """
    client = ChatClient(config)
    try:
        return plan_with_model(client, config, record, spec, describe_device(spec),
                               planning_deadline(config, record.started)), None
    except ModelUnavailable as error:
        record.unavailable(error)
        offline = ExpertPlanner().plan(spec)
        plan = chosen_plan(offline, fallback_choice(offline, open_spaces(spec.device), error.message))
        record.plan_choice = plan.choice
        record.save()
        return plan, error
    finally:
        client.close()


# ---- refinement -------------------------------------------------------------------------------
class Refiner:
    def __init__(self, *, client: ChatClient, config: LLMConfig, record: LLMRecord, spec: Spec, plan: Plan,
                 reference_source: str, class_name: str, device_text: str, offline: list[dict],
                 evaluate: Callable[..., tuple[object, int]], emit: Emit,
                 evaluated: list[tuple[dict, object]] | None = None, replay: Replay | None = None,
                 counters: Callable[[dict, object, float], str] | None = None):
        """`evaluate(candidate, deadline=None)` verifies and times one candidate in a worker, stopping
        at `deadline` (time.monotonic()) when given, and returns (CandidateOutcome, line where the
        candidate's code starts in the evaluated file). `evaluated`: offline candidates already
        evaluated (while the model planned), as (candidate, outcome). `replay`: the resumed run's order
        (see the module's docstring). `counters(candidate, outcome, deadline)`: the hardware counters
        of a verified candidate as text for its profile (Nsight Compute), "" where there are none."""
        self.client = client
        self.config = config
        self.record = record
        self.spec = spec
        self.choice = plan.choice
        self.reference_source = reference_source
        self.class_name = class_name
        self.device_text = device_text
        self.offline = list(offline)
        self.evaluate = evaluate
        self.emit = emit
        self.budget = Budget(config.samples, config.token_budget, config.time_budget_s)
        self.results: queue.Queue = queue.Queue()
        self.waiting: list[Pending] = []
        self.in_flight = 0
        self.reserved_tokens = 0
        self.sent = 0
        self.stopped = ""  # why no more requests go out
        self.best: tuple[str, float, str, str | None] | None = None  # name, speedup, space, model code
        self.evaluated: list[tuple[dict, object]] = list(evaluated or [])
        for _, outcome in self.evaluated:
            self._note_best(outcome, None)
        self.out: dict[int, Exchange] = {}  # requests in flight, by exchange id
        self.closed_unevaluated = 0  # samples that ended without an evaluation (for progress)
        self._arch: str | None = None
        self.plan = plan
        self.seen_code: dict[str, str] = {}  # normalised module -> the candidate it was evaluated as
        self.replay = replay or Replay()
        self.counters = counters

    # ---- the loop -----------------------------------------------------------------------------
    def run(self) -> list[tuple[dict, object]]:
        """Evaluate the offline candidates and the model's; returns (candidate, outcome) in order."""
        self.deadline = self.record.started + self.budget.wall_s  # planning counts against the wall budget
        self.total_work = len(self.offline) + len(self.evaluated) + self.budget.samples
        chains = min(self.config.concurrency, self.budget.samples)
        # A resumed run first takes what the run had evaluated by its first sample: the region work
        # starts from the same candidate, so the region prompt comes out the same.
        self._catch_up(self.replay.before_sample.get(1, []))
        region_work = self._region_work(chains)
        for index in range(chains):
            work = region_work.get(index)
            self._dispatch(Chain(index + 1, self._region_strategy(work) if work else self._starting_point(index),
                                 region=work))
        while True:
            self._collect(block=False)
            if self.out and time.monotonic() >= self.deadline:
                self._abandon_requests()
            if self.waiting:
                self._evaluate_pending(self.waiting.pop(0))
            elif self.offline and not (self.in_flight and self._replaying()):
                candidate = self.offline.pop(0)
                self.evaluated.append((candidate, self._evaluate_offline(candidate)))
            elif self.in_flight:
                self._collect(block=True)
            else:
                break
        self.record.stop_reason = self.record.stop_reason or self.stopped or "every chain finished"
        self.record.save()
        return self.evaluated

    def _collect(self, block: bool) -> None:
        while True:
            try:
                chain, exchange, reply, reserved = self.results.get(block=block, timeout=0.5 if block else None)
            except queue.Empty:
                return
            block = False
            if self.out.pop(exchange.id, None) is None:  # abandoned at the deadline: already closed
                continue
            self.in_flight -= 1
            self.reserved_tokens -= reserved
            self._handle(chain, exchange, reply)

    def _replaying(self) -> bool:
        """Whether samples of the resumed run are still being sent again (its order is kept)."""
        return bool(self.replay) and self.sent < self.replay.samples

    def _catch_up(self, names: list[str]) -> None:
        """Evaluate the offline candidates among `names` (what the resumed run had evaluated by then)."""
        done = {candidate["name"] for candidate, _ in self.evaluated}
        for name in names:
            match = next((c for c in self.offline if c["name"] == name), None)
            if match is not None and name not in done:
                self.offline.remove(match)
                self.evaluated.append((match, self._evaluate_offline(match)))

    def _abandon_requests(self) -> None:
        """The time budget is spent: requests still out are closed now, not waited for."""
        self.stopped = self.stopped or f"time budget spent ({self.budget.wall_s:g} s)"
        for exchange in self.out.values():
            self._close_unevaluated(exchange, "error", f"{self.stopped}: abandoned while the request was out")
        self.out.clear()
        self.in_flight = 0
        self.reserved_tokens = 0

    # ---- requests -----------------------------------------------------------------------------
    def _dispatch(self, chain: Chain) -> None:
        """Send the chain's next request, if the budgets allow."""
        problem = self._budget_problem()
        if problem:
            self.stopped = self.stopped or problem
            return
        self._catch_up(self.replay.before_sample.get(self.sent + 1, []))
        messages = self._messages(chain)
        prompt_tokens = estimate_tokens("".join(m["content"] for m in messages))
        room = self.budget.tokens - self._tokens_used() - self.reserved_tokens - prompt_tokens
        max_tokens = min(self.config.max_answer_tokens, room)
        if max_tokens < MIN_ANSWER_TOKENS:
            self.stopped = self.stopped or f"token budget spent ({self._tokens_used()} of {self.budget.tokens} used)"
            return
        self.sent += 1
        stage = "refine" if chain.feedback else "implement"
        temperature = self.config.temperature_for(chain.index)
        work = chain.region
        exchange = self.record.open(stage, self.config.model, messages, sample=self.sent, chain=chain.index,
                                    refines=chain.last_candidate if chain.feedback else None, temperature=temperature,
                                    evaluated_before=[candidate["name"] for candidate, _ in self.evaluated],
                                    region=work.region.index if work else None,
                                    region_start=work.start["name"] if work else None)
        what = f"refining {chain.last_candidate or 'its last answer'}" if chain.feedback else \
            f"region {work.region.index} in {work.start['name']}" if work else "first draft"
        self._stage(f"asking {self.config.model} for sample {self.sent}/{self.budget.samples} "
                    f"(chain {chain.index}, {what})")
        self._send(chain, exchange, self.config.model, messages, max_tokens, prompt_tokens, temperature)

    def _send(self, chain: Chain, exchange: Exchange, model: str, messages: list[dict], max_tokens: int,
              prompt_tokens: int, temperature: float | None) -> None:
        """The request in a daemon thread; its outcome comes back through `results`."""
        reserved = prompt_tokens + max_tokens
        self.reserved_tokens += reserved
        self.in_flight += 1
        self.out[exchange.id] = exchange

        def request() -> None:
            try:
                outcome: Reply | Exception = self.client.complete(model, messages, max_tokens, deadline=self.deadline,
                                                                  temperature=temperature)
            except (RequestFailed, ModelUnavailable) as error:
                outcome = error
            except Exception as error:  # noqa: BLE001 - a result that never arrives would stall the loop
                outcome = RequestFailed(f"internal error: {type(error).__name__}: {error}"[:300], 1)
            self.results.put((chain, exchange, outcome, reserved))

        threading.Thread(target=request, name=f"hiera-llm-{exchange.id}", daemon=True).start()

    def _reflect(self, chain: Chain, pending: Pending, verdict: str) -> bool:
        """Ask the planning model to review the chain's last attempt; True when the request is out
        (the chain's next sample waits for the critique). No critique when no sample can follow."""
        if not self.config.reflection or self._budget_problem():
            return False
        feedback = chain.feedback
        messages = [{"role": "user", "content": prompts.load("reflect").render(
            spec=render_text(self.spec), code=pending.code.rstrip(), outcome=feedback["outcome"],
            profile=feedback["profile"], verdict=verdict)}]
        prompt_tokens = estimate_tokens(messages[0]["content"])
        room = self.budget.tokens - self._tokens_used() - self.reserved_tokens - prompt_tokens
        # what the next sample needs stays free: a critique that would leave no room for it is not asked
        max_tokens = min(REFLECT_ANSWER_TOKENS, room - MIN_ANSWER_TOKENS - prompt_tokens)
        if max_tokens < REFLECT_ANSWER_TOKENS // 2:
            return False
        model = self.config.planning_model
        temperature = self.config.temperature_for(chain.index)
        exchange = self.record.open("reflect", model, messages, chain=chain.index, refines=pending.candidate["name"],
                                    temperature=temperature)
        self._stage(f"asking {model} to review {pending.candidate['name']} (chain {chain.index})")
        self._send(chain, exchange, model, messages, max_tokens, prompt_tokens, temperature)
        return True

    def _reflected(self, chain: Chain, exchange: Exchange, reply: Reply | Exception) -> None:
        """The critique came (or not): into the chain's feedback, then its next sample."""
        if isinstance(reply, Reply):
            self.record.answered(exchange, reply)
            self.record.close(exchange, "used")
            chain.feedback["critique"] = reply.text.strip()[:REFLECTION_CHARS]
        else:
            reason = reply.message if isinstance(reply, ModelUnavailable) else reply.reason
            self.record.close(exchange, "error", reason)
            self._log(f"the review of {exchange.refines} failed: {reason}")
            if isinstance(reply, ModelUnavailable) and not self.record.error:
                self.record.error = reply.to_dict()
                self.stopped = f"model unavailable: {reply.message}"
        self._dispatch(chain)

    def _budget_problem(self) -> str:
        if self.stopped:
            return self.stopped
        if self.sent >= self.budget.samples:
            return f"sample budget spent ({self.budget.samples} samples)"
        if time.monotonic() >= self.deadline:
            return f"time budget spent ({self.budget.wall_s:g} s)"
        return ""

    def _tokens_used(self) -> int:
        return sum(e.prompt_tokens + e.completion_tokens for e in self.record.exchanges)

    # ---- answers ------------------------------------------------------------------------------
    def _handle(self, chain: Chain, exchange: Exchange, reply: Reply | Exception) -> None:
        if exchange.stage == "reflect":
            self._reflected(chain, exchange, reply)
            return
        if isinstance(reply, ModelUnavailable):
            self._close_unevaluated(exchange, "error", reply.message)
            if not self.record.error:
                self.record.error = reply.to_dict()
                self.stopped = f"model unavailable: {reply.message}"
                self.emit(Event("log", stage="implement", message=f"{reply.message}; going on with the offline "
                                "candidates", progress=self._progress(), data={"llm_error": reply.to_dict()}))
            return
        if isinstance(reply, RequestFailed):
            self._close_unevaluated(exchange, "error", reply.reason, attempts=reply.attempts, retries=reply.retries)
            self._log(f"sample {exchange.sample}: request failed: {reply.reason}")
            if isinstance(reply, ContextTooLong):
                if chain.compact:
                    self.stopped = f"the prompts do not fit {self.config.model}'s context window, even compact"
                    return
                chain.compact = True
                chain.base = []
            self._dispatch(chain)
            return
        self.record.answered(exchange, reply)
        chain.last_answer = reply.text
        try:
            code = extract_module(reply.text, self.class_name, reply.finish_reason)
        except BadAnswer as error:
            self._close_unevaluated(exchange, "invalid", str(error))
            self._log(f"sample {exchange.sample}: unusable answer: {error}")
            chain.last_candidate = None
            chain.attempts.append(Attempt(exchange.sample, None, None, f"could not be used: {error}"))
            chain.feedback = {"outcome": f"Your answer could not be used: {error}.", "profile": "not timed",
                              "task": "Answer again with exactly one ```python block holding the complete module."}
            self._dispatch(chain)
            return
        name = f"llm.s{exchange.sample:02d}"
        # A module that calls HIERA's kernel or extension helpers is a custom-kernel candidate whatever
        # the planned space (a C++ extension on a CPU run, say): it faces that space's checks.
        space = "custom_cuda" if runtime_helpers_called(code) else chain.strategy["space"]
        prefix = self._runtime_prefix(code) if space == "custom_cuda" else ""
        prefix_lines = prefix.count("\n")
        earlier = self.seen_code.get(normalised(code))
        if earlier is not None:  # the same module again: its verdict stands, no second evaluation
            self._close_unevaluated(exchange, "duplicate", f"the same module as {earlier}")
            self._log(f"sample {exchange.sample}: the same module as {earlier}, not evaluated again")
            chain.attempts.append(Attempt(exchange.sample, None, code, f"the same module as {earlier}"))
            chain.last_candidate = None
            chain.feedback = {"outcome": f"Your answer is the same module as {earlier}, already evaluated.",
                              "profile": "not timed",
                              "task": "Change something: a different approach, or a fix of what failed."}
            self._dispatch(chain)
            return
        where = f", region {exchange.region} in {exchange.region_start}" if chain.region else ""
        candidate = {"name": name, "space": space, "strategy": f"llm: {chain.strategy['strategy']}"[:100],
                     "code": prefix + code, "reason": f"written by {self.config.model} (sample {exchange.sample}"
                     + where + (f", refining {chain.last_candidate})" if exchange.refines else ")"),
                     "requires_cuda": space != "pytorch", "cuda_sources": [k.source for k in nvrtc_kernels(code)]}
        exchange.candidate = name
        chain.last_candidate = name
        self.seen_code[normalised(code)] = name
        errors, resources = self._compile(code) if space == "custom_cuda" else ("", "")
        if errors:
            self._close_unevaluated(exchange, "rejected", "compile: " + errors.splitlines()[0], candidate=name)
            self._log(f"sample {exchange.sample}: {name} does not compile")
            chain.attempts.append(Attempt(exchange.sample, name, code, "did not compile: " + errors.splitlines()[0]))
            chain.feedback = {"outcome": "NVRTC rejected the kernels (line numbers are lines of your module):\n"
                                         + errors, "profile": "not timed",
                              "task": "Fix the compile errors; keep the rest of the module."}
            self._dispatch(chain)
            return
        self.waiting.append(Pending(chain, exchange, candidate, code, prefix_lines, resources))

    # ---- evaluations --------------------------------------------------------------------------
    def _evaluate_pending(self, pending: Pending) -> None:
        exchange, chain = pending.exchange, pending.chain
        self._catch_up(self.replay.before(pending.candidate["name"]))
        if time.monotonic() >= self.deadline:
            self.stopped = self.stopped or f"time budget spent ({self.budget.wall_s:g} s)"
            self._close_unevaluated(exchange, "not evaluated", self.stopped)
            return
        outcome, first_line = self.evaluate(pending.candidate, deadline=self.deadline)
        self.evaluated.append((pending.candidate, outcome))
        self.record.candidate_done(outcome.name, "llm", outcome.status, outcome.speedup)
        if outcome.status == "failed" and time.monotonic() >= self.deadline:  # stopped by the budget
            self.stopped = self.stopped or f"time budget spent ({self.budget.wall_s:g} s)"
            self.record.close(exchange, "not evaluated", f"{self.stopped} during its evaluation",
                              candidate=outcome.name)
            return
        self.record.close(exchange, outcome.status,
                          outcome.verification if outcome.status == "verified" else outcome.reason,
                          candidate=outcome.name, speedup=outcome.speedup)
        previous_best = self.best
        self._note_best(outcome, pending.code)
        counters = self.counters(pending.candidate, outcome, self.deadline) \
            if self.counters and outcome.status == "verified" else ""
        chain.feedback = self._feedback(outcome, pending, first_line + pending.prefix_lines, previous_best, counters)
        chain.feedback["knowledge"] = self._knowledge_for(chain, outcome, pending.candidate["space"])
        result = (f"verified, {outcome.speedup:.3g}x over eager" if outcome.status == "verified" and outcome.speedup
                  else chain.feedback["outcome"].splitlines()[0])
        chain.attempts.append(Attempt(exchange.sample, outcome.name, pending.code, result))
        verdict = review_verdict(outcome, previous_best)
        if verdict and self._reflect(chain, pending, verdict):
            return
        self._dispatch(chain)

    def _evaluate_offline(self, candidate: dict):
        outcome, _ = self.evaluate(candidate)
        self.record.candidate_done(outcome.name, "offline", outcome.status, outcome.speedup)
        self._note_best(outcome, None)
        return outcome

    def _note_best(self, outcome, code: str | None) -> None:
        if outcome.status == "verified" and outcome.speedup and (self.best is None or outcome.speedup > self.best[1]):
            self.best = (outcome.name, outcome.speedup, outcome.space, code)

    # ---- prompts ------------------------------------------------------------------------------
    def _starting_point(self, index: int) -> dict:
        """Chain 1 starts from the chosen strategy; the others from the next ones of the offline
        ranking in a space open here, so the chains do not all try the same thing first."""
        if index == 0:
            return dict(self.choice)
        others = [e for e in self.plan.entries if e.space in open_spaces(self.spec.device)
                  and e.strategy != self.choice["strategy"]]
        if not others:
            return dict(self.choice)
        entry = others[(index - 1) % len(others)]
        return {"space": entry.space, "strategy": entry.strategy, "reason": entry.reason}

    def _region_work(self, chains: int) -> dict[int, RegionWork]:
        """Chain position (0-based) -> the region it works on: the last `region_chains` chains (at most
        all but one, so one chain always asks for the whole module), each the next region that
        qualifies, largest share first; none without a composed offline candidate to start from."""
        count = min(self.config.region_chains, chains - 1)
        start = self._composed_start() if count > 0 else None
        targets = region_targets(self.plan, self.spec) if start else []
        if not targets:
            return {}
        self.seen_code.setdefault(normalised(start["code"]), start["name"])  # an answer that sends it back as is
        first = chains - count
        return {first + k: RegionWork(targets[k % len(targets)], start) for k in range(count)}

    def _composed_start(self) -> dict | None:
        """The best composed offline candidate: of the custom-CUDA ones (they compute every region),
        the fastest verified, else the first not evaluated yet; None when there is none (or every one
        failed: no base to keep the other regions from)."""
        verified = [(outcome.speedup or 0.0, candidate) for candidate, outcome in self.evaluated
                    if candidate["space"] == "custom_cuda" and outcome.status == "verified"]
        if verified:
            return max(verified, key=lambda pair: pair[0])[1]
        return next((candidate for candidate in self.offline if candidate["space"] == "custom_cuda"), None)

    def _region_strategy(self, work: RegionWork) -> dict:
        """A region chain's strategy: the region's best choice, in the space of its starting point
        (its answers keep that candidate's other regions, so they are checked as that space)."""
        best = work.region.choices[0]
        return {"space": work.start["space"], "strategy": f"region {work.region.index}: {best.approach}",
                "reason": best.reason}

    def _region_prompt(self, chain: Chain) -> str:
        spec, work = self.spec, chain.region
        region, start = work.region, work.start
        kinds = {node["name"]: node.get("kind") or "other" for node in spec.graph.get("nodes", [])}
        shares = {kinds.get(name, "other"): 1.0 for name in region.nodes}
        entries = knowledge.select(region.workload_class, shares, start["space"], spec.device)
        chain.knowledge_given = set() if chain.compact else {entry.key for entry in entries}
        return prompts.load("region").render(
            spec=render_text(spec), reference=self.reference_source.rstrip("\n"), class_name=self.class_name,
            region=region_text(spec, region, len(self.plan.regions)), start_name=start["name"],
            start=start["code"].rstrip(), lines=region_lines_text(start["code"], region.nodes),
            space_rules=self._space_rules(start["space"]),
            knowledge=("(left out: the prompt has to fit the model's context window)" if chain.compact
                       else knowledge.render(entries)),
            to_beat=self._to_beat())

    def _messages(self, chain: Chain) -> list[dict]:
        if not chain.base:
            first = self._region_prompt(chain) if chain.region else self._implement_prompt(chain)
            chain.base = [{"role": "system", "content": prompts.load("system").render(device=self.device_text)},
                          {"role": "user", "content": first}]
        if not chain.feedback:
            return list(chain.base)
        feedback = chain.feedback
        return [*chain.base, {"role": "assistant", "content": chain.last_answer or ""},
                {"role": "user", "content": prompts.load("refine").render(
                    outcome=feedback["outcome"], profile=feedback["profile"],
                    best=self._best_text(chain.last_candidate), task=feedback["task"],
                    critique=feedback.get("critique") or "None: the previous answer was not reviewed.",
                    knowledge=("(left out: the prompt has to fit the model's context window)" if chain.compact
                               else feedback.get("knowledge") or "None beyond those given above."),
                    history=history_text(chain.attempts[:-1], MEMORY_TOKENS))}]

    def _knowledge_for(self, chain: Chain, outcome, space: str) -> str:
        """Entries for the bottleneck the candidate's profile shows (its top kernels or ops), else the
        reference's op mix; those the chain's first prompt carried are named, not repeated."""
        spec = self.spec
        kernels = (getattr(outcome, "timing", None) or {}).get("kernels") or []
        shares = knowledge.op_shares_of_kernels(kernels) if kernels else knowledge.op_shares_of(spec.ops)
        where = "its profile" if kernels else "the reference's op mix (it was not timed)"
        mix = ", ".join(f"{kind} {share:.0%}" for kind, share in sorted(shares.items(), key=lambda kv: -kv[1])[:4])
        entries = knowledge.select(spec.workload_class, shares, space, spec.device, limit=KNOWLEDGE_PER_ROUND)
        fresh = [entry for entry in entries if entry.key not in chain.knowledge_given]
        given = [entry.technique for entry in entries if entry.key in chain.knowledge_given]
        lines = [f"Bottleneck by {where}: {mix or 'no op breakdown'}."]
        if given:
            lines.append("Given in the first prompt and still relevant: " + "; ".join(given) + ".")
        if fresh:
            lines.append(knowledge.render(fresh))
        return "\n".join(lines)

    def _implement_prompt(self, chain: Chain) -> str:
        spec = self.spec
        space = chain.strategy["space"]
        entries = knowledge.select(spec.workload_class, knowledge.op_shares_of(spec.ops), space, spec.device)
        chain.knowledge_given = set() if chain.compact else {entry.key for entry in entries}
        return prompts.load("implement").render(
            spec=render_text(spec), reference=self.reference_source.rstrip("\n"), class_name=self.class_name,
            space_rules=self._space_rules(space),
            strategy=f"{chain.strategy['strategy']} (space: {SPACES[space]}): {chain.strategy['reason']}",
            knowledge=("(left out: the prompt has to fit the model's context window)" if chain.compact
                       else knowledge.render(entries)),
            to_beat=self._to_beat())

    def _space_rules(self, space: str) -> str:
        template = prompts.load(f"space_{space}")
        if space == "pytorch":
            return template.render(device=self.device_text)
        if space == "cuda_libs":
            return template.render(precision=self.spec.precision)
        return template.render(runtime=runtime_note())

    def _to_beat(self) -> str:
        if self.best:
            name, speedup, space, _ = self.best
            return f"{name} ({SPACE_MEANINGS[space].split(':')[0]}) is verified at {speedup:.3g}x over eager."
        pending = [c["name"] for c in self.offline]
        return ("No candidate has verified yet" + (f"; offline candidates in the race: {', '.join(pending)}."
                                                   if pending else "."))

    def _best_text(self, previous: str | None) -> str:
        if not self.best:
            return "No candidate has verified yet."
        name, speedup, space, code = self.best
        text = f"{name} ({space}), {speedup:.3g}x over eager."
        if code and name != previous:
            text += f"\n```python\n{code.rstrip()}\n```"
        return text

    def _feedback(self, outcome, pending: Pending, code_first_line: int, previous_best, counters: str = "") -> dict:
        code_lines = pending.code.splitlines()
        if outcome.status == "verified":
            result = f"It verified ({outcome.verification})."
            profile = self._profile_text(outcome, pending.resources, counters)
            best_speedup = previous_best[1] if previous_best else None
            if best_speedup is None or (outcome.speedup or 0.0) > best_speedup:
                task = ("It is the best so far. Make it faster: attack the largest remaining cost shown in the "
                        "profile, and stay exact.")
            else:
                task = (f"It is slower than the best so far ({previous_best[0]}, {best_speedup:.2f}x). Improve on "
                        "the best, or try a different approach.")
            return {"outcome": result, "profile": profile, "task": task}
        check = outcome.failed_check or {"check": outcome.status, "message": outcome.reason, "reproducer": ""}
        message = map_lines(check["message"], code_first_line, code_lines)
        detail = map_lines(str(check.get("reproducer") or "")[-1500:], code_first_line, code_lines)
        if outcome.status == "rejected":  # a verification check failed
            lines = [f"It was rejected: check '{check['check']}' failed: {message}"]
            lines += [f"Reproducer: {detail}"] if detail else []
            lines += [block] if (block := script_block(check.get("script") or "")) else []
        else:  # the worker itself failed: a timeout, a crash, a CUDA fault
            lines = [f"Its evaluation failed ({check['check']}): {message}"]
            lines += [f"Last lines of the worker's log:\n{detail}"] if detail else []
        return {"outcome": "\n".join(lines), "profile": "not timed",
                "task": "Fix the failure; keep what already works."}

    def _profile_text(self, outcome, resources: str, counters: str = "") -> str:
        spec = self.spec
        bound = spec.roofline.bound_ms
        if not outcome.ms or outcome.speedup is None:
            return "\n".join(["timed, but too fast to measure reliably", *([counters] if counters else [])])
        lines = [f"{outcome.ms:.4g} ms per call vs {outcome.baseline_ms:.4g} ms for the reference: "
                 f"{outcome.speedup:.2f}x; roofline bound {bound * 1000:.3g} us on {spec.roofline.device_name} "
                 f"= {100 * bound / outcome.ms:.3g}% of roofline ({spec.workload_class}, "
                 f"{spec.roofline.limiter}-limited)"]
        kernels = (getattr(outcome, "timing", None) or {}).get("kernels") or []
        if kernels:
            what = "kernels" if spec.device == "cuda" else "ops"
            lines.append(f"Top {what}: " + "; ".join(f"{k['name']} {k['ms']:.4g} ms ({k['share'] * 100:.0f}%)"
                                                    for k in kernels[:5]))
        if resources:
            lines.append("Kernel resources (ptxas):\n" + resources)
        if counters:
            lines.append(counters)
        return "\n".join(lines)

    # ---- custom CUDA --------------------------------------------------------------------------
    def _runtime_prefix(self, code: str) -> str:
        """HIERA's runtime helpers (NVRTC kernels, extensions) the module calls without defining them,
        with the helpers and imports those need and nothing else (an extension needs no cuda.core)."""
        called = runtime_helpers_called(code)
        if not called:
            return ""
        from hiera_core.cuda.proposal import runtime_source

        return runtime_source(called) + "\n\n"

    def _compile(self, code: str) -> tuple[str, str]:
        """(errors, resource report) of the module's kernel strings, compiled here with NVRTC (no GPU
        needed, sub-second): compile errors come back before a worker is started. ("", "") when the
        NVRTC bindings are not installed; the evaluation then reports what fails."""
        try:
            from hiera_core.cuda.nvrtc import SourceOrigin, detect_arch
            from hiera_core.cuda.resources import kernel_resources
        except ImportError:
            return "", ""
        errors, resources = [], []
        for kernel in nvrtc_kernels(code):
            try:
                self._arch = self._arch or detect_arch()
                report = kernel_resources(kernel.source, arch=self._arch,
                                          origin=SourceOrigin("your module", kernel.line))
            except (ImportError, OSError, RuntimeError) as error:  # NVRTC library missing or unusable here
                self.record.notes.append(f"kernels not compiled before evaluation: {error}")
                return "", ""
            if report.ok:
                resources += [k.summary() for k in report.kernels]
            else:
                errors.append(report.errors)
        return "\n".join(errors), "\n".join(resources)

    # ---- events -------------------------------------------------------------------------------
    def _progress(self) -> float:
        done = len(self.evaluated) + self.closed_unevaluated
        return 0.4 + 0.55 * min(done / max(self.total_work, 1), 1.0)

    def _close_unevaluated(self, exchange: Exchange, status: str, reason: str, **details) -> None:
        self.closed_unevaluated += 1
        self.record.close(exchange, status, reason, **details)

    def _stage(self, message: str) -> None:
        self.emit(Event("stage", stage="implement", message=message, progress=self._progress()))

    def _log(self, message: str) -> None:
        self.emit(Event("log", stage="implement", message=message, progress=self._progress()))


def region_targets(plan: Plan, spec: Spec) -> list[Region]:
    """The regions a chain may work on, largest share of the reference's time first: those whose
    best choice is a library call or a custom kernel, unless measured at REGION_AT_BOUND_SHARE of
    their roofline bound already (their share of the reference's measured time)."""
    def at_bound(region: Region) -> bool:
        spent_ms = region.share * (spec.reference_ms or 0.0)
        return (spec.measured and region.share_source == "measured" and spent_ms > 0
                and region.bound_ms >= REGION_AT_BOUND_SHARE * spent_ms)

    qualifying = [region for region in plan.regions
                  if region.choices and region.choices[0].space in REGION_SPACES and not at_bound(region)]
    return sorted(qualifying, key=lambda region: -region.share)


def region_text(spec: Spec, region: Region, regions: int) -> str:
    """A region's slice of the contract for its prompt: nodes, tensors in and out, work, bound,
    share of the reference's time, and its ranked choices with their reasons."""
    nodes = {node["name"]: node for node in spec.graph.get("nodes", [])}
    inside = set(region.nodes)
    entering = sorted({ref for name in region.nodes for ref in node_refs(nodes.get(name, {})) if ref not in inside})
    leaving = [name for name in region.nodes
               if any(name in node_refs(node) for node in nodes.values() if node["name"] not in inside)]

    def tensors(names: list[str]) -> str:
        return "; ".join(f"`{name}` {nodes[name].get('dtype') or '?'} {nodes[name].get('shape')}"
                         for name in names if name in nodes) or "none"

    anchor = f", anchored at `{region.anchor}`" if region.anchor else ""
    lines = [f"Region {region.index} of {regions}: {region.kind}{anchor}; FX nodes (graph order): "
             + ", ".join(f"`{name}`" for name in region.nodes),
             f"Entering it: {tensors(entering)}",
             f"Leaving it: {tensors(leaving)}",
             (f"Work: {region.flops:.4g} FLOPs, {region.bytes:.4g} bytes; roofline bound "
              f"{1000 * region.bound_ms:.3g} us on {spec.roofline.device_name} ({region.workload_class})")]
    share = f"Share of the reference's time: {100 * region.share:.0f}% ({region.share_source})"
    if spec.reference_ms and region.share_source == "measured":
        spent_ms = region.share * spec.reference_ms
        share += (f", about {1000 * spent_ms:.3g} us of its {1000 * spec.reference_ms:.3g} us: at "
                  f"{100 * region.bound_ms / spent_ms:.0f}% of its bound" if spent_ms > 0 else "")
    lines.append(share)
    lines.append("Ranked choices for it (best first):")
    lines += [f"  {rank}. {choice.space} / {choice.approach}: {choice.reason}"
              for rank, choice in enumerate(region.choices, start=1)]
    return "\n".join(lines)


_KERNEL_COMMENT = re.compile(r"\s*# \w+ kernel: (.*)$")  # hiera_core/spaces/custom_cuda/codegen.py
_ASSIGNED = re.compile(r"\s*(v_\w+(?:\s*,\s*v_\w+)*)\s*,?\s*=[^=]")
_SOURCE_CONSTANT = re.compile(r"\b_HIERA_SRC_\d+\b")


def region_lines(code: str, nodes: list[str]) -> list[int]:
    """Lines (1-based) of a custom-CUDA candidate that compute `nodes`: a kernel's call under its
    `# <family> kernel: <nodes>` comment, a library call assigned to `v_<node>`, and the
    definitions of the kernel sources those calls launch."""
    wanted = set(nodes)
    variables = {"v_" + "".join(c if c.isalnum() else "_" for c in name) for name in nodes}
    lines = code.splitlines()
    marked: list[int] = []
    for number, line in enumerate(lines, start=1):
        comment = _KERNEL_COMMENT.match(line)
        if comment and wanted & {name.strip() for name in comment[1].split(",")}:
            marked += [number, number + 1] if number < len(lines) else [number]
        elif (assigned := _ASSIGNED.match(line)) and variables & {v.strip() for v in assigned[1].split(",")}:
            marked.append(number)
    constants = {name for number in marked for name in _SOURCE_CONSTANT.findall(lines[number - 1])}
    marked += [number for number, line in enumerate(lines, start=1)
               if any(line.startswith(f"{name} = ") for name in constants)]
    return sorted(set(marked))


def region_lines_text(code: str, nodes: list[str]) -> str:
    """The lines of the starting point that compute the region, quoted with their numbers."""
    numbers = region_lines(code, nodes)
    if not numbers:
        return ("No line of the starting point is marked with these nodes: find where its forward computes "
                + ", ".join(f"`{name}`" for name in nodes) + ".")
    lines = code.splitlines()
    return (f"Lines {', '.join(map(str, numbers))} of the starting point compute "
            + ", ".join(f"`{name}`" for name in nodes) + ":\n"
            + "\n".join(f"  {number:4d} | {lines[number - 1]}" for number in numbers))


def script_block(path: str) -> str:
    """The runnable reproducer of a mismatch (hiera_core.verify.repro) with its text; "" when there is none."""
    try:
        text = Path(path).read_text(encoding="utf-8") if path else ""
    except OSError:
        return ""
    return (f"This script rebuilds the failing inputs and shows the mismatch (`python {path}`; exit 1 while it "
            f"persists):\n```python\n{text.rstrip()}\n```") if text else ""


def review_verdict(outcome, previous_best) -> str:
    """Why an evaluated attempt gets a review ("" when it is the best so far): it failed, or it
    verified no faster than the best."""
    if outcome.status != "verified":
        return f"It failed ({outcome.status}: {str(outcome.reason).splitlines()[0] if outcome.reason else ''})."
    if previous_best is not None and (outcome.speedup or 0.0) <= previous_best[1]:
        return (f"It verified at {outcome.speedup or 0.0:.3g}x over eager, no faster than the best so far "
                f"({previous_best[0]}, {previous_best[1]:.3g}x).")
    return ""


def normalised(code: str) -> str:
    """The module without its formatting and comments (its AST), so a re-sent answer is known as one."""
    try:
        return ast.dump(ast.parse(code))
    except SyntaxError:
        return code.strip()


def history_text(attempts: list[Attempt], token_budget: int) -> str:
    """The attempts before the previous answer, newest first: in full (code and result) while they
    fit `token_budget`, then one line each."""
    if not attempts:
        return "None before the previous answer."
    lines: list[str] = []
    room = token_budget
    for attempt in reversed(attempts):
        head = f"- sample {attempt.sample} ({attempt.candidate or 'not evaluated'}): {attempt.result}"
        full = f"{head}\n```python\n{attempt.code.rstrip()}\n```" if attempt.code else head
        cost = estimate_tokens(full)
        if attempt.code and cost <= room:
            lines.append(full)
            room -= cost
        else:
            lines.append(head)
            room -= estimate_tokens(head)
    return "\n".join(lines)


def runtime_helpers_called(code: str) -> list[str]:
    """HIERA's runtime helpers (NVRTC kernels, extensions) that a module calls and does not define."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    called = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return [name for name in RUNTIME_HELPERS + EXTENSION_HELPERS if name in called and name not in defined]


def nvrtc_kernels(code: str) -> list:
    """The module's CUDA kernel strings for NVRTC: not those it builds as torch extensions
    (`_hiera_extension`, load_inline), which torch's compilers build with torch's headers."""
    from hiera_core.cuda.extensions import extension_strings

    built_by_torch = extension_strings(code)
    return [kernel for kernel in cuda_strings(code) if kernel.source not in built_by_torch]


def _helper_listing(path: Path, names: tuple[str, ...]) -> tuple[str, list[ast.FunctionDef]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    helpers = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in names]
    return "\n\n".join(f"def {node.name}({ast.unparse(node.args)}):\n    \"\"\""
                        + ast.get_docstring(node).replace("\n", "\n    ") + "\"\"\"" for node in helpers), helpers


@lru_cache(maxsize=1)
def runtime_note() -> str:
    """How custom-CUDA answers compile and launch kernels: the helpers' signatures and docstrings,
    read from the runtime itself so the prompt always matches the code that will run."""
    listing, helpers = _helper_listing(NVRTC_RUNTIME_FILE, RUNTIME_HELPERS)
    extension, _ = _helper_listing(EXTENSION_RUNTIME_FILE, EXTENSION_HELPERS)
    device = any(arg.arg == "device" for node in helpers for arg in node.args.args)
    return ("How kernels are compiled and launched: HIERA's helpers. Call them without defining them; HIERA puts "
            "the definitions of those you call above your module.\n\n"
            "NVRTC kernels, the first choice (a kernel compiles in well under a second):\n```python\n" + listing
            + "\n```\nDeclare kernels `extern \"C\" __global__ void name(...)`; grid and block are ints or tuples"
            + ("; `device` is the CUDA device index of your tensors (`x.device.index`)" if device else "")
            + ". Keep kernel sources as plain string literals (not f-strings): HIERA compiles them before running "
            "your module and reports errors by line.\n\n"
            "A torch C++/CUDA extension, when the code needs torch's C++ API: ATen calls or at::Tensor on the host "
            "side, a cuBLAS handle (`at::cuda::getCurrentCUDABlasHandle()`), CUDA headers, or several kernels "
            "behind one C++ entry point:\n```python\n" + extension + "\n```\n"
            "Its first build takes about 30 s or more (later ones load it from HIERA's build cache in "
            "milliseconds), so prefer NVRTC kernels when they do the job. Build it once, at module level "
            "(`_ext = _hiera_extension(\"fused\", CPP_SRC, CUDA_SRC, functions=[\"fused_forward\"])`), and call "
            "`_ext.fused_forward(...)` in forward. Pass its sources and flags as string literals or module-level "
            "string constants: HIERA then builds it before running your module and reports compile errors by line. "
            "In CUDA sources launch on torch's current stream: `c10::cuda::getCurrentCUDAStream()`, from "
            "<c10/cuda/CUDAStream.h> (<ATen/cuda/CUDAContext.h> has it too, but also needs the cuBLAS and cuSPARSE "
            "headers). Do not call torch.utils.cpp_extension.load_inline yourself (its cache is keyed by the name "
            "alone).")


_FILE_LINE = re.compile(r"(?:[\w./<>-]+\.py\"?(?:, line |:)|\bline )(\d+)")


def map_lines(text: str, first_line: int, code_lines: list[str]) -> str:
    """Rewrite line numbers of the evaluated file into lines of the model's module, quoting them.

    `first_line` is the file line holding the module's line 1; references outside the module
    (the reference source above it, the runtime helpers) are left as they are.
    """
    quoted: dict[int, str] = {}

    def replace(match: re.Match) -> str:
        line = int(match[1]) - first_line + 1
        if not 1 <= line <= len(code_lines):
            return match[0]
        if len(quoted) < MAX_QUOTED_LINES:
            quoted[line] = code_lines[line - 1]
        return f"line {line} of your module"

    mapped = _FILE_LINE.sub(replace, text)
    if quoted:
        mapped += "\n" + "\n".join(f"  {line:4d} | {source}" for line, source in sorted(quoted.items()))
    return mapped

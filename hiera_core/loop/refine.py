"""The refinement chains of a run's LLM part: they write candidates, get structured feedback from
verification and profiling, and improve on it within budgets (planning, the request before them,
is hiera_core.loop.refine_planning).

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

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from hiera_core.events import Emit, Event
from hiera_core.llm.client import ChatClient, ContextTooLong, ModelUnavailable, Reply, RequestFailed, estimate_tokens
from hiera_core.llm.config import LLMConfig
from hiera_core.llm.record import Exchange, LLMRecord
from hiera_core.llm.resume import Replay
from hiera_core.loop.refine_answers import AnswerReader
from hiera_core.loop.refine_chains import Attempt, Chain, Pending, starting_point
from hiera_core.loop.refine_feedback import feedback, knowledge_for, review_verdict
from hiera_core.loop.refine_prompts import Best, Prompts
from hiera_core.loop.refine_regions import region_strategy, region_work
from hiera_core.plan.planner import Plan
from hiera_core.spec.model import Spec

MIN_ANSWER_TOKENS = 512  # below this a candidate module cannot be written: the token budget is spent
REFLECT_ANSWER_TOKENS = 400  # a critique is a few sentences
REFLECTION_CHARS = 2000  # what of a critique goes into the refinement prompt


@dataclass
class Budget:
    samples: int
    tokens: int
    wall_s: float


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
        self.best: Best | None = None
        self.evaluated: list[tuple[dict, object]] = list(evaluated or [])
        for _, outcome in self.evaluated:
            self._note_best(outcome, None)
        self.out: dict[int, Exchange] = {}  # requests in flight, by exchange id
        self.closed_unevaluated = 0  # samples that ended without an evaluation (for progress)
        self.plan = plan
        self.prompts = Prompts(spec, plan, reference_source, class_name, device_text)
        self.answers = AnswerReader(record, config.model, class_name)
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
        regions = region_work(self.plan, self.spec, chains, self.config.region_chains, self.evaluated, self.offline)
        for work in regions.values():  # an answer that sends its starting point back as is
            self.answers.known(work.start)
        for index in range(chains):
            work = regions.get(index)
            strategy = region_strategy(work) if work else starting_point(self.plan, self.spec, index)
            self._dispatch(Chain(index + 1, strategy, region=work))
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
        messages = self.prompts.messages(chain, self.best, [candidate["name"] for candidate in self.offline])
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
            except Exception as error:
                outcome = RequestFailed(f"internal error: {type(error).__name__}: {error}"[:300], 1)
            self.results.put((chain, exchange, outcome, reserved))

        threading.Thread(target=request, name=f"hiera-llm-{exchange.id}", daemon=True).start()

    def _reflect(self, chain: Chain, pending: Pending, verdict: str) -> bool:
        """Ask the planning model to review the chain's last attempt; True when the request is out
        (the chain's next sample waits for the critique). No critique when no sample can follow."""
        if not self.config.reflection or self._budget_problem():
            return False
        messages = self.prompts.reflection(pending.code, chain.feedback, verdict)
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
        read = self.answers.read(chain, exchange, reply)
        if isinstance(read, Pending):
            chain.last_candidate = read.candidate["name"]
            self.waiting.append(read)
            return
        self._close_unevaluated(exchange, read.status, read.reason, candidate=read.candidate)
        self._log(f"sample {exchange.sample}: {read.log}")
        chain.last_candidate = read.candidate
        chain.attempts.append(read.attempt)
        chain.feedback = read.feedback
        self._dispatch(chain)
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
        chain.feedback = feedback(self.spec, outcome, pending, first_line + pending.prefix_lines, previous_best,
                                  counters)
        chain.feedback["knowledge"] = knowledge_for(self.spec, chain, outcome, pending.candidate["space"])
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

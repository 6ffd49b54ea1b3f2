"""What a run with a model records: every prompt and answer, tokens, and the paper's measures.

    .hiera/runs/<run>/llm/<NNN>-<stage>.json   one exchange: messages sent, the answer, tokens,
                                               attempts, and what became of it
    .hiera/runs/<run>/llm.json                 the summary below, rewritten after each exchange

Measures (as in the HIERA paper): validity (verified samples / finished samples, a lost request
being no answer to judge), sample
efficiency (the number of the first sample whose candidate verified), speedup (best verified
speedup over time, offline candidates included since they race too), and tokens used. Answers
replayed from the answer cache are `cache_hits`, not model calls, and spend no tokens. Cost in money
comes from the configured price table (per model, per 1M prompt and completion tokens); a model
without a price gets no cost, and the summary says so.
Written from the orchestrating thread only. The API key is never part of anything here.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

from hiera_core.store import Run

# "duplicate": the same module (by its AST) as an earlier sample, not evaluated again
TERMINAL = ("verified", "rejected", "failed", "invalid", "error", "not evaluated", "duplicate")
TOKENS_PER_PRICE = 1_000_000  # prices are per 1M tokens


@dataclass
class Exchange:
    id: int  # dispatch order over the run, planning included
    stage: str  # "plan" | "implement" | "refine" | "reflect"
    model: str
    messages: list[dict]
    sample: int | None = None  # implementation sample number (1-based); None when planning
    chain: int | None = None
    refines: str | None = None  # the candidate whose feedback the prompt carries
    # region-level work: the plan's region (Region.index) the prompt asks to rewrite, and the offline
    # candidate it starts from (its other regions kept as they are); None: the whole module
    region: int | None = None
    region_start: str | None = None
    sent_s: float = 0.0  # seconds since the run started
    done_s: float | None = None
    answer: str | None = None
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens_estimated: bool = False
    attempts: int = 0
    retries: list[str] = field(default_factory=list)
    status: str = "pending"  # pending | answered | interrupted | one of TERMINAL
    reason: str = ""
    candidate: str | None = None
    speedup: float | None = None
    temperature: float | None = None  # as sent; None: the server's default
    cached: bool = False  # answered from the answer cache: no model call
    # candidates evaluated when the request was sent, in order (what its prompt could know of):
    # a resumed run evaluates the recorded ones up to here before it sends the same sample again
    evaluated_before: list[str] = field(default_factory=list)

    @property
    def file(self) -> str:
        return f"llm/{self.id:03d}-{self.stage}.json"

    def brief(self) -> dict:
        return {"id": self.id, "stage": self.stage, "sample": self.sample, "chain": self.chain,
                "refines": self.refines, "region": self.region, "status": self.status, "reason": self.reason,
                "candidate": self.candidate,
                "speedup": self.speedup, "tokens": self.prompt_tokens + self.completion_tokens,
                "attempts": self.attempts, "cached": self.cached, "temperature": self.temperature,
                "sent_s": round(self.sent_s, 3),
                "done_s": None if self.done_s is None else round(self.done_s, 3), "record": self.file}


class LLMRecord:
    def __init__(self, run: Run, config: dict, started: float | None = None):
        self.run = run
        self.config = config  # LLMConfig.public()
        self.started = started if started is not None else time.monotonic()
        self.exchanges: list[Exchange] = []
        self.best_over_time: list[dict] = []
        self.plan_choice: dict | None = None
        self.stop_reason = ""
        self.error: dict | None = None
        self.notes: list[str] = []

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    # ---- exchanges ------------------------------------------------------------------------
    def open(self, stage: str, model: str, messages: list[dict], **where) -> Exchange:
        exchange = Exchange(len(self.exchanges) + 1, stage, model, messages, sent_s=self.elapsed(), **where)
        self.exchanges.append(exchange)
        self.save(exchange)
        return exchange

    def answered(self, exchange: Exchange, reply) -> None:
        exchange.answer = reply.text
        exchange.finish_reason = reply.finish_reason
        exchange.prompt_tokens = reply.prompt_tokens
        exchange.completion_tokens = reply.completion_tokens
        exchange.tokens_estimated = reply.tokens_estimated
        exchange.attempts = reply.attempts
        exchange.retries = reply.retries
        exchange.cached = reply.cached
        exchange.status = "answered"
        exchange.done_s = exchange.sent_s + reply.seconds  # when it arrived, not when it was read
        if reply.note:
            self.notes.append(f"exchange {exchange.id}: {reply.note}")
        self.save(exchange)

    def close(self, exchange: Exchange, status: str, reason: str = "", *, attempts: int | None = None,
              retries: list[str] | None = None, candidate: str | None = None, speedup: float | None = None) -> None:
        exchange.status = status
        exchange.reason = reason
        if attempts is not None:
            exchange.attempts = attempts
        if retries is not None:
            exchange.retries = retries
        exchange.candidate = candidate or exchange.candidate
        exchange.speedup = speedup
        if exchange.done_s is None:
            exchange.done_s = self.elapsed()
        self.save(exchange)

    def interrupted(self, how: str) -> None:
        """The run was interrupted: every open exchange is closed, and the record says why it stopped."""
        for exchange in self.exchanges:
            if exchange.status in ("pending", "answered"):
                self.close(exchange, "interrupted", f"the run was interrupted ({how})")
        self.stop_reason = f"interrupted ({how})"
        self.save()

    def unavailable(self, error) -> None:
        """The endpoint cannot serve this run (a ModelUnavailable): the model's part ends here."""
        self.error = error.to_dict()
        self.stop_reason = f"model unavailable: {error.message}"
        self.save()

    # ---- candidates -----------------------------------------------------------------------
    def candidate_done(self, name: str, source: str, status: str, speedup: float | None) -> None:
        """One entry per evaluated candidate, offline or from the model: the best-so-far curve."""
        previous = self.best_over_time[-1]["best_speedup"] if self.best_over_time else None
        best = previous
        if status == "verified" and speedup is not None and (previous is None or speedup > previous):
            best = speedup
        self.best_over_time.append({"t_s": round(self.elapsed(), 3), "candidate": name, "source": source,
                                    "status": status, "speedup": speedup, "best_speedup": best})
        self.save()

    def region_target(self, candidate: str) -> str:
        """What region-level work made `candidate`, for its proposal's header; "" when its sample
        was asked for the whole module (or it is no model candidate)."""
        exchange = next((e for e in self.exchanges if e.candidate == candidate and e.sample is not None), None)
        if exchange is None or exchange.region is None:
            return ""
        return (f"region {exchange.region} (see the region lines), rewritten by {exchange.model} (sample "
                f"{exchange.sample}) in {exchange.region_start}, whose other regions it keeps")

    # ---- summary --------------------------------------------------------------------------
    def samples(self) -> list[Exchange]:
        return [e for e in self.exchanges if e.sample is not None]

    def summary(self) -> dict:
        samples = self.samples()
        finished = [e for e in samples if e.status in TERMINAL]
        judged = [e for e in finished if e.status != "error"]
        verified = [e for e in samples if e.status == "verified"]
        prompt = sum(e.prompt_tokens for e in self.exchanges)
        completion = sum(e.completion_tokens for e in self.exchanges)
        best = max((e for e in verified if e.speedup is not None), key=lambda e: e.speedup, default=None)
        cost, cost_note = self._money(self.exchanges)
        return {
            "model": self.config.get("model"), "plan_model": self.config.get("plan_model") or self.config.get("model"),
            "endpoint": self.config.get("base_url") or "https://api.openai.com/v1", "config": self.config,
            "samples": len(samples), "finished": len(finished), "judged": len(judged), "verified": len(verified),
            "invalid": sum(e.status == "invalid" for e in samples),
            # answers lost to the endpoint (no answer to judge): not in valid_rate's denominator
            "transport_failures": sum(e.status == "error" for e in samples),
            "duplicates": sum(e.status == "duplicate" for e in samples),
            "cache_hits": sum(e.cached for e in self.exchanges),
            "reflections": sum(e.stage == "reflect" for e in self.exchanges),
            "temperature": self.config.get("temperature"),
            "valid_rate": len(verified) / len(judged) if judged else None,
            "samples_to_first_valid": min((e.sample for e in verified), default=None),
            "tokens": {"prompt": prompt, "completion": completion, "total": prompt + completion,
                       "estimated": any(e.tokens_estimated for e in self.exchanges)},
            # in the price table's currency; None with cost_note saying why (a model without a price)
            "cost": cost, "cost_note": cost_note,
            "requests": {"calls": sum(not e.cached for e in self.exchanges),
                         "attempts": sum(e.attempts for e in self.exchanges),
                         "retried": sum(len(e.retries) for e in self.exchanges)},
            "best_llm": {"candidate": best.candidate, "speedup": best.speedup, "sample": best.sample,
                         "region": best.region} if best else None,
            # what it took (every request sent before it, planning included): the paper's sample efficiency
            "cost_to_first_valid": self._cost_to(min(verified, key=lambda e: e.id, default=None)),
            "cost_to_best": self._cost_to(best),
            "best_speedup_over_time": self.best_over_time,
            "plan_choice": self.plan_choice, "stop_reason": self.stop_reason, "error": self.error,
            "notes": self.notes, "elapsed_s": round(self.elapsed(), 3),
            "exchanges": [e.brief() for e in self.exchanges],
        }

    def _cost_to(self, exchange: Exchange | None) -> dict | None:
        """Model calls, tokens and seconds spent up to the answer of `exchange` (in dispatch order)."""
        if exchange is None:
            return None
        spent = [e for e in self.exchanges if e.id <= exchange.id and not e.cached]
        return {"calls": len(spent), "tokens": sum(e.prompt_tokens + e.completion_tokens for e in spent),
                "cost": self._money(spent)[0],
                "seconds": round(exchange.done_s if exchange.done_s is not None else self.elapsed(), 3),
                "sample": exchange.sample}

    def _money(self, exchanges: list[Exchange]) -> tuple[float | None, str]:
        """(cost of `exchanges` by the price table, "") or (None, why there is none)."""
        prices = self.config.get("prices") or {}
        unpriced = sorted({e.model for e in exchanges if e.model not in prices
                           and e.prompt_tokens + e.completion_tokens})
        if unpriced:
            return None, (f"no cost: no price for {', '.join(unpriced)} in [tool.hiera.prices] (per 1M tokens: "
                          f'"{unpriced[0]}" = {{ input = N, output = N }})')
        return round(sum((e.prompt_tokens * prices[e.model]["input"] + e.completion_tokens * prices[e.model]["output"])
                         / TOKENS_PER_PRICE for e in exchanges if e.model in prices), 6), ""

    def save(self, exchange: Exchange | None = None) -> None:
        if exchange is not None:
            self.run.write_json(exchange.file, asdict(exchange))
        self.run.write_json("llm.json", self.summary())

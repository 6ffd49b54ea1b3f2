"""Space selection by the model, the first request of a run's LLM part.

Planning (`Planning`) is one request in a background thread with its own deadline
(`planning_deadline`): the offline candidates are evaluated while it is out, and a server that
never answers costs the run nothing but that deadline (then the offline ranking is used).
"""

from __future__ import annotations

import queue
import threading
import time

from hiera_core.llm.client import ChatClient, ModelUnavailable, Reply, RequestFailed
from hiera_core.llm.config import LLMConfig
from hiera_core.llm.record import LLMRecord
from hiera_core.plan.planner import ExpertPlanner, LLMPlanner, Plan, chosen_plan, fallback_choice, open_spaces
from hiera_core.spec.model import Spec

PLAN_ANSWER_TOKENS = 1024
PLAN_DEADLINE_S = 120.0  # planning's own deadline (at most half the time budget)


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
            except Exception as error:
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

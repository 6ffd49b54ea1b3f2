"""Helpers of the LLM tests: a workspace holding the tiny task, the environment without model
settings, configs pointing at a scripted server, and a refiner over it with a fake evaluator that
judges candidates by their code."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from helpers.engine import TINY_TASK
from hiera_core.events import discard
from hiera_core.llm.client import ChatClient
from hiera_core.llm.config import LLMConfig
from hiera_core.loop.refine import Refiner
from hiera_core.loop.run_result import CandidateOutcome
from hiera_core.plan.planner import ExpertPlanner, SpaceChoice, chosen_plan


def numbered(module: str, number: int) -> str:
    """`module` as a different answer (another AST: the refiner evaluates a module it saw once only)."""
    return f"{module}\n\n\nANSWER_NUMBER = {number}\n"


def tiny_workspace(folder: Path, tool_hiera: str = "") -> Path:
    """A workspace holding TINY_TASK as tiny.py; `tool_hiera` is the body of its [tool.hiera]."""
    (folder / "pyproject.toml").write_text("[project]\nname = 'scratch'\n"
                                           + (f"\n[tool.hiera]\n{tool_hiera}\n" if tool_hiera else ""))
    (folder / "tiny.py").write_text(TINY_TASK)
    return folder


LLM_VARIABLES = ("HIERA_MODEL", "HIERA_PLAN_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "HIERA_EDITOR_SETTINGS")


def clean_env(**extra) -> dict:
    """This process's environment without any model settings, plus `extra`."""
    env = {name: value for name, value in os.environ.items() if name not in LLM_VARIABLES}
    env.update(extra)
    return env


def every_file_text(folder: Path) -> str:
    return "\n".join(path.read_text(errors="replace") for path in folder.rglob("*") if path.is_file())


def config_for(url: str, **overrides) -> LLMConfig:
    """A config for the scripted server: quick timeouts, one chain, no reflection unless told otherwise."""
    values = dict(model="scripted", base_url=url, api_key="sk-test-not-a-real-key-0042", samples=2,
                  concurrency=1, request_timeout_s=5.0, max_retries=2, time_budget_s=120.0, reflection=False)
    values.update(overrides)
    return LLMConfig(**values)


FIRST_LINE = 24  # where a candidate's code would start in the evaluated file (after the reference)
OFFLINE = [{"name": "pytorch.compile_default", "space": "pytorch", "strategy": "pytorch.compile_default",
            "code": "class ModelNew(Model):\n    pass\n", "reason": "offline"}]


class FakeEvaluator:
    """Verifies candidates whose code adds 1.0 (speedup 1.5; offline ones 1.2), rejects the rest with
    a values failure; records when each evaluation ran."""

    def __init__(self, seconds: float = 0.0, failure: dict | None = None, status: str = "rejected"):
        self.seconds = seconds
        self.failure = failure
        self.status = status
        self.calls: list[dict] = []
        self.intervals: list[tuple[float, float]] = []
        self.threads: set[str] = set()

    def __call__(self, candidate: dict, deadline: float | None = None):
        started = time.monotonic()
        time.sleep(self.seconds)
        self.calls.append(candidate)
        self.threads.add(threading.current_thread().name)
        base = dict(name=candidate["name"], space=candidate["space"], strategy=candidate["strategy"])
        offline = candidate["reason"] == "offline"
        if offline or ("+ 1.0" in candidate["code"] and not self.failure):
            outcome = CandidateOutcome(**base, status="verified", reason=candidate["reason"],
                                       speedup=1.2 if offline else 1.5, ms=0.01, baseline_ms=0.015,
                                       verification="passed: 5 checks", timing={"kernels": [
                                           {"name": "aten::clamp", "ms": 0.004, "share": 0.6}]})
        else:
            failed = self.failure or {"check": "values", "message": "output 0: 8192 of 8192 values out of tolerance",
                                      "reproducer": "seed 1000, task values, shapes [[64, 128]]"}
            outcome = CandidateOutcome(**base, status=self.status, reason=f"{failed['check']}: {failed['message']}",
                                       verification="failed", failed_check=failed)
        self.intervals.append((started, time.monotonic()))
        return outcome, FIRST_LINE


def refiner_for(server, spec, record, evaluate, space="pytorch", emit=discard, **config):
    client = ChatClient(config_for(server.url, **config), backoff_s=0.01)
    plan = chosen_plan(ExpertPlanner().plan(spec), SpaceChoice(space, "fold the chain", "scripted", "model"))
    return Refiner(client=client, config=client.config, record=record, spec=spec, plan=plan,
                   reference_source="import torch\nclass Model: ...\n", class_name="Model",
                   device_text="cpu: test machine", offline=OFFLINE, evaluate=evaluate, emit=emit)


def statuses(record):
    return [(e.sample, e.status) for e in record.samples()]

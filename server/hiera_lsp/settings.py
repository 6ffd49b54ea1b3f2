"""Editor settings: from initializationOptions, then workspace/configuration (section "hiera").

Keys (camelCase, as editors write them):
    model          LLM model name for the OpenAI-compatible endpoint (empty: offline expert mode)
    baseUrl        the endpoint's base URL
    budget         candidates per optimize run
    device         "cuda" or "cpu" (empty: the CLI picks)
    pythonPath     interpreter that runs `hiera` jobs (must have hiera and torch installed)
    jobTimeLimit   seconds before a job is killed
    maxParallelJobs  jobs running at once over all modules (default 1: timings taken on one GPU
                   at the same time disturb each other)

initializationOptions may hold the keys at top level or under "hiera". The model and endpoint
reach jobs as HIERA_EDITOR_SETTINGS, the layer hiera_core.llm.config ranks lowest (below CLI
flags, HIERA_MODEL / OPENAI_BASE_URL and pyproject.toml), as DESIGN.md asks of editor settings.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, fields, replace
from typing import Any

from hiera_core import settings as defaults

SECTION = "hiera"


@dataclass(frozen=True)
class Settings:
    model: str = ""
    baseUrl: str = ""
    budget: int | None = None
    device: str = ""
    pythonPath: str = sys.executable
    jobTimeLimit: float = 3600.0
    maxParallelJobs: int = 1

    def merged(self, raw: Any) -> tuple[Settings, list[str]]:
        """These settings updated from a client's dict; returns (settings, problems)."""
        if raw == []:  # Neovim sends an empty Lua table as an empty JSON array
            raw = {}
        if not isinstance(raw, dict):
            return self, [] if raw is None else [f"settings must be an object, got {type(raw).__name__}"]
        if isinstance(raw.get(SECTION), dict):
            raw = raw[SECTION]
        changes: dict[str, Any] = {}
        problems: list[str] = []
        for item in fields(self):
            if item.name not in raw:
                continue
            if raw[item.name] is None:  # a setting the user cleared goes back to its default
                changes[item.name] = item.default
                continue
            value, problem = _validate(item.name, raw[item.name])
            if problem:
                problems.append(f"hiera.{item.name}: {problem}")
            else:
                changes[item.name] = value
        return replace(self, **changes), problems

    def job_environment(self) -> dict[str, str]:
        # hiera_core.llm.config loads tomllib and urllib: not before the first job.
        from hiera_core.llm.config import ENV_EDITOR

        env = dict(os.environ, PYTHONUNBUFFERED="1")
        editor = {key: value for key, value in (("model", self.model), ("baseUrl", self.baseUrl)) if value}
        if editor:
            env[ENV_EDITOR] = json.dumps(editor)
        return env

    def cli_options(self, command: str) -> list[str]:
        options: list[str] = []
        if command == "optimize" and self.budget is not None:
            options += ["--budget", str(self.budget)]
        if self.device:
            options += ["--device", self.device]
        return options


def _validate(name: str, value: Any) -> tuple[Any, str | None]:
    if name in ("model", "baseUrl", "pythonPath"):
        if not isinstance(value, str):
            return None, "must be a string"
        if name == "pythonPath" and not value:
            return sys.executable, None
        return value, None
    if name == "device":
        if value != "" and (problem := defaults.device_problem(value)):
            return None, f"must be {problem} (or empty), got {value!r}"
        return value, None
    if name == "budget":
        if problem := defaults.budget_problem(value):
            return None, f"must be {problem}, got {value!r}"
        return value, None
    if name == "maxParallelJobs":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return None, f"must be a positive integer, got {value!r}"
        return value, None
    if name == "jobTimeLimit":
        if problem := defaults.seconds_problem(value):
            return None, f"must be {problem}, got {value!r}"
        return float(value), None
    return value, None

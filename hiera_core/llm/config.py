"""Which model HIERA talks to, and with what budgets: one resolved `LLMConfig` per run.

Precedence, per setting (highest first):
    1. CLI flags          --model, --base-url, --plan-model, --samples, --token-budget, --time-budget,
                          --temperature
    2. environment        HIERA_MODEL, HIERA_PLAN_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY
    3. pyproject.toml     [tool.hiera] at the workspace root (kebab-case keys, see TOML_KEYS; the
                          run's budget, device and timeout too: `run_settings`, below the flags)
    4. editor settings    HIERA_EDITOR_SETTINGS: a JSON object {"model", "baseUrl", "planModel"}
                          that the language server sets for the jobs it starts
No model anywhere: offline expert mode. Prices per model come from [tool.hiera.prices] only
(`prices_from`).

The API key comes from OPENAI_API_KEY only: never from a flag (command lines are visible to
other users), pyproject.toml (committed) or editor settings. It is kept out of `public()`,
`repr()` and everything written to the store. Pure: no torch, no openai.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from hiera_core import settings as defaults
from hiera_core.errors import ErrorKind, HieraError

ENV_MODEL = "HIERA_MODEL"
ENV_PLAN_MODEL = "HIERA_PLAN_MODEL"
ENV_BASE_URL = "OPENAI_BASE_URL"
ENV_API_KEY = "OPENAI_API_KEY"
ENV_EDITOR = "HIERA_EDITOR_SETTINGS"

# [tool.hiera] key -> LLMConfig field. Sub-tables such as [tool.hiera.check] belong to other tools.
TOML_KEYS = {
    "model": "model", "plan-model": "plan_model", "base-url": "base_url", "samples": "samples",
    "token-budget": "token_budget", "time-budget": "time_budget_s", "concurrency": "concurrency",
    "request-timeout": "request_timeout_s", "max-retries": "max_retries", "temperature": "temperature",
    "max-answer-tokens": "max_answer_tokens", "reflection": "reflection", "region-chains": "region_chains",
}
# [tool.hiera] keys of the run itself (budget, device, timeout): `run_settings` reads them, below the flags.
RUN_TOML_KEYS = {"budget": "budget", "device": "device", "timeout": "timeout_s"}
EDITOR_KEYS = {"model": "model", "baseUrl": "base_url", "planModel": "plan_model"}
ENV_KEYS = {ENV_MODEL: "model", ENV_PLAN_MODEL: "plan_model", ENV_BASE_URL: "base_url"}
# Local servers (vLLM, SGLang, Ollama, llama.cpp) ignore the key but the client needs one.
NO_KEY_PLACEHOLDER = "no-key"


@dataclass
class Overrides:
    """The CLI flags; None means not given."""

    model: str | None = None
    base_url: str | None = None
    plan_model: str | None = None
    samples: int | None = None
    token_budget: int | None = None
    time_budget_s: float | None = None
    temperature: str | float | None = None  # "0.7", or one per chain: "0.2,0.8"
    cache: bool | None = None  # False: --no-cache


@dataclass
class LLMConfig:
    model: str | None = None
    plan_model: str | None = None  # None: the implementation model plans too
    base_url: str | None = None  # None: the OpenAI API
    samples: int = 8  # implementation samples (answers asked for), over all chains
    token_budget: int = 400_000  # prompt + completion tokens, planning included
    time_budget_s: float = 1800.0  # wall time of the LLM part (offline candidates are not cut short)
    concurrency: int = 2  # refinement chains, i.e. requests in flight at once
    request_timeout_s: float = 300.0
    max_retries: int = 4  # per request, on 429, 5xx, timeouts and dropped connections
    # None: the server's default; several: one per chain, in turn (chain 1 the first, ...)
    temperature: tuple[float, ...] | None = None
    max_answer_tokens: int = 8192
    # model -> {"input", "output"}: price per 1M prompt / completion tokens ([tool.hiera.prices])
    prices: dict[str, dict[str, float]] = field(default_factory=dict)
    cache: bool = True  # answers of earlier runs replay from the store (hiera_core.llm.cache)
    reflection: bool = True  # a critique by the planning model after a failed or slow attempt
    # chains that work on one region of the plan (when one qualifies), at most concurrency - 1; 0: none
    region_chains: int = 1
    api_key: str | None = field(default=None, repr=False)
    sources: dict[str, str] = field(default_factory=dict)  # setting -> where its value came from
    warnings: list[str] = field(default_factory=list)

    @property
    def enabled(self) -> bool:
        return bool(self.model)

    @property
    def planning_model(self) -> str | None:
        return self.plan_model or self.model

    def temperature_for(self, chain: int) -> float | None:
        """The temperature sent for chain `chain` (1-based): the configured ones in turn."""
        if not self.temperature:
            return None
        return self.temperature[(chain - 1) % len(self.temperature)]

    def endpoint(self) -> str:
        """The base URL as it may be shown and stored (no credentials)."""
        return without_credentials(self.base_url or "https://api.openai.com/v1")

    def public(self) -> dict:
        """Everything but the key (which is only said to be set or not): what run records hold."""
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "api_key"}
        data["base_url"] = self.endpoint() if self.base_url else None
        data["api_key"] = f"set (from {ENV_API_KEY})" if self.api_key else "not set"
        return data

    def mode_line(self, budget: bool = True) -> str:
        """The one line saying which mode this run is in (`budget`: with the refinement budgets)."""
        if not self.enabled:
            return "HIERA: no model configured, offline expert mode"
        planner = f", planning with {self.plan_model}" if self.plan_model and self.plan_model != self.model else ""
        budgets = f"; budget {self.samples} samples, {self.token_budget} tokens, {self.time_budget_s:g} s" if budget else ""
        return (f"HIERA: model {self.model} at {self.endpoint()} (from {self.sources.get('model', 'defaults')})"
                f"{planner}{budgets}")


@dataclass
class RunSettings:
    """A run's budget, device and time limit per worker step, with where each came from."""

    budget: int = defaults.BUDGET  # offline expert candidates
    device: str | None = None  # None: the default device (cuda when a GPU is present)
    timeout_s: float = defaults.TIMEOUT_S
    sources: dict[str, str] = field(default_factory=dict)


def run_settings(workspace: str | os.PathLike | None, budget: int | None = None, device: str | None = None,
                 timeout_s: float | None = None) -> RunSettings:
    """The CLI flags (None: not given) over [tool.hiera] budget, device and timeout over the defaults;
    raises HieraError(kind=ErrorKind.CONFIG) for a bad value in pyproject.toml."""
    settings = RunSettings()
    flags = {"budget": budget, "device": device, "timeout_s": timeout_s}
    layers = [("pyproject.toml [tool.hiera]", _toml_table(workspace)[1]),
              ("CLI flags", {name: value for name, value in flags.items() if value is not None})]
    for source, values in layers:
        for key, value in values.items():
            name = RUN_TOML_KEYS.get(key, key) if source != "CLI flags" else key
            if name not in flags:
                continue
            setattr(settings, name, _validated_run(name, value, source))
            settings.sources[name] = source
    return settings


def _validated_run(name: str, value: Any, source: str) -> Any:
    def bad(expected: str) -> HieraError:
        key = next(key for key, field_name in RUN_TOML_KEYS.items() if field_name == name)
        return HieraError(f"{source}: {key} must be {expected}, got {value!r}", kind=ErrorKind.CONFIG,
                          hint="fix it in pyproject.toml, or override it with the command's flag")

    problem = {"device": defaults.device_problem, "budget": defaults.budget_problem,
               "timeout_s": defaults.seconds_problem}[name](value)
    if problem:
        raise bad(problem)
    return float(value) if name == "timeout_s" else value


def without_credentials(url: str) -> str:
    """`url` without the user:password@ a proxy URL may carry."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def resolve(overrides: Overrides, workspace: str | os.PathLike | None, env: Mapping[str, str] | None = None
            ) -> LLMConfig:
    """Merge the four layers; raises HieraError(kind=ErrorKind.CONFIG) naming the layer of a bad value."""
    env = os.environ if env is None else env
    config = LLMConfig()
    layers = [("editor settings", _editor_layer(env)),
              ("pyproject.toml [tool.hiera]", _toml_layer(workspace, config.warnings)),
              ("environment", {name: env[var] for var, name in ENV_KEYS.items() if env.get(var)}),
              ("CLI flags", {f.name: getattr(overrides, f.name) for f in fields(overrides)
                             if getattr(overrides, f.name) is not None})]
    for source, values in layers:  # lowest precedence first: later layers overwrite
        for name, value in values.items():
            setattr(config, name, _validated(name, value, source))
            config.sources[name] = source
    config.prices = prices_from(workspace)
    if config.prices:
        config.sources["prices"] = "pyproject.toml [tool.hiera.prices]"
    config.api_key = env.get(ENV_API_KEY) or None
    if config.enabled and not config.api_key:
        if not config.base_url:
            raise HieraError(f"model {config.model} is configured for the OpenAI API but {ENV_API_KEY} is not set",
                             kind=ErrorKind.CONFIG,
                             hint=f"export {ENV_API_KEY}=..., or point --base-url at a local server")
        config.api_key = NO_KEY_PLACEHOLDER
    return config


def _editor_layer(env: Mapping[str, str]) -> dict:
    raw = env.get(ENV_EDITOR)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError as error:
        raise HieraError(f"{ENV_EDITOR} is not valid JSON: {error}", kind=ErrorKind.CONFIG,
                         hint='it must be an object such as {"model": "...", "baseUrl": "..."}') from None
    if not isinstance(data, dict):
        raise HieraError(f"{ENV_EDITOR} must be a JSON object, got {type(data).__name__}", kind=ErrorKind.CONFIG)
    if isinstance(data.get("hiera"), dict):  # the editor's whole settings object, section "hiera"
        data = data["hiera"]
    return {EDITOR_KEYS[key]: value for key, value in data.items() if key in EDITOR_KEYS and value not in (None, "")}


def _toml_table(workspace: str | os.PathLike | None) -> tuple[Path | None, dict]:
    """(path, [tool.hiera] table) of the workspace's pyproject.toml; (None, {}) when there is none."""
    if workspace is None:
        return None, {}
    path = Path(workspace) / "pyproject.toml"
    try:
        with open(path, "rb") as handle:
            return path, tomllib.load(handle).get("tool", {}).get("hiera", {})
    except FileNotFoundError:
        return None, {}
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise HieraError(f"cannot read {path}: {error}", file=str(path), kind=ErrorKind.CONFIG) from None


def _toml_layer(workspace: str | os.PathLike | None, warnings: list[str]) -> dict:
    path, table = _toml_table(workspace)
    values = {}
    for key, value in table.items():
        if isinstance(value, dict) or key in RUN_TOML_KEYS:
            continue
        if key in ("api-key", "api_key"):
            warnings.append(f"{path}: [tool.hiera] {key} is ignored: the key belongs in {ENV_API_KEY}, "
                            "not in a committed file")
        elif key in TOML_KEYS:
            values[TOML_KEYS[key]] = value
        else:
            known = ", ".join([*TOML_KEYS, *RUN_TOML_KEYS])
            warnings.append(f"{path}: unknown [tool.hiera] key '{key}' (known: {known})")
    return values


def prices_from(workspace: str | os.PathLike | None) -> dict[str, dict[str, float]]:
    """[tool.hiera.prices]: model -> {"input", "output"} per 1M tokens; raises HieraError(config)
    naming the model whose entry is not two non-negative numbers."""
    path, table = _toml_table(workspace)
    prices = table.get("prices", {})
    if not isinstance(prices, dict):
        raise HieraError(f"{path}: [tool.hiera] prices must be a table of models", kind=ErrorKind.CONFIG,
                         hint='e.g. [tool.hiera.prices] "gpt-5" = { input = 1.25, output = 10.0 }')
    checked = {}
    for model, entry in prices.items():
        if not (isinstance(entry, dict) and set(entry) == {"input", "output"}
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in entry.values())):
            raise HieraError(f"{path}: [tool.hiera.prices] {model!r} must be {{ input = N, output = N }} (prices per "
                             f"1M prompt and completion tokens, >= 0), got {entry!r}", kind=ErrorKind.CONFIG,
                             hint=f'e.g. "{model}" = {{ input = 1.25, output = 10.0 }}')
        checked[model] = {"input": float(entry["input"]), "output": float(entry["output"])}
    return checked


def _temperatures(value: Any, bad) -> tuple[float, ...]:
    """One temperature or one per chain: a number, a list of numbers, or "0.2,0.8"; each 0 to 2."""
    if isinstance(value, str):
        try:
            value = [float(part) for part in value.split(",")]
        except ValueError:
            raise bad("a number from 0 to 2, or several separated by commas (one per chain)") from None
    values = value if isinstance(value, (list, tuple)) else [value]
    if not values or any(isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 2 for v in values):
        raise bad("a number from 0 to 2, or several (one per chain)")
    return tuple(float(v) for v in values)


_POSITIVE_INTS = ("samples", "token_budget", "concurrency", "max_answer_tokens")
_NON_NEGATIVE_INTS = ("max_retries", "region_chains")


def _validated(name: str, value: Any, source: str) -> Any:
    def bad(expected: str) -> HieraError:
        return HieraError(f"{source}: {name} must be {expected}, got {value!r}", kind=ErrorKind.CONFIG)

    if name in ("model", "plan_model", "base_url"):
        if not isinstance(value, str) or not value.strip():
            raise bad("a non-empty string")
        value = value.strip()
        if name == "base_url" and not value.startswith(("http://", "https://")):
            raise bad("an http:// or https:// URL")
        return value.rstrip("/") if name == "base_url" else value
    if name == "temperature":
        return _temperatures(value, bad)
    if name in ("cache", "reflection"):
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if isinstance(value, bool):
        raise bad("a number")
    if name in _POSITIVE_INTS or name in _NON_NEGATIVE_INTS:
        if not isinstance(value, int) or value < (0 if name in _NON_NEGATIVE_INTS else 1):
            raise bad("a positive integer" if name in _POSITIVE_INTS else "an integer >= 0")
        return value
    if not isinstance(value, (int, float)) or value <= 0:
        raise bad("a positive number")
    return float(value)

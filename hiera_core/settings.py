"""Each run setting a user can give in more than one place (a CLI flag, pyproject.toml's
[tool.hiera], the editor's settings) with its default and what values it takes, once. The CLI,
hiera_core.llm.config (pyproject), the language server's settings and the loop's Settings read
these, so a default or a range cannot drift between them. Pure: no torch, no editor imports."""

from __future__ import annotations

from typing import Any

DEVICES = ("cuda", "cpu")

BUDGET = 4  # offline expert candidates per optimize run
BUDGET_MIN, BUDGET_MAX = 1, 64

TIMEOUT_S = 600.0  # seconds per worker step


def budget_problem(value: Any) -> str | None:
    """What is wrong with `value` as a budget (None: nothing)."""
    if isinstance(value, bool) or not isinstance(value, int) or not BUDGET_MIN <= value <= BUDGET_MAX:
        return f"an integer from {BUDGET_MIN} to {BUDGET_MAX}"
    return None


def seconds_problem(value: Any) -> str | None:
    """What is wrong with `value` as a time limit in seconds (None: nothing)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return "a positive number of seconds"
    return None


def device_problem(value: Any) -> str | None:
    """What is wrong with `value` as a device (None: nothing)."""
    if value not in DEVICES:
        return " or ".join(f'"{device}"' for device in DEVICES)
    return None

"""Helpers of the LLM tests: a tiny task and candidate modules for it, the CLI as a subprocess,
and configs pointing at a scripted server."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

from hiera_core.llm.config import LLMConfig

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from core_helpers import SIMPLE_TASK, hiera  # noqa: F401  (hiera: re-exported for the LLM tests)

TINY_TASK = textwrap.dedent(SIMPLE_TASK).lstrip()

# A candidate module for TINY_TASK (plain PyTorch, so it verifies in a second on CPU) and a wrong one.
GOOD_MODULE = textwrap.dedent("""
    import torch
    import torch.nn as nn


    class ModelNew(nn.Module):
        def __init__(self, scale):
            super().__init__()
            self.scale = scale

        def forward(self, x):
            return torch.clamp(x, min=0) * self.scale + 1.0
""").strip()
WRONG_MODULE = GOOD_MODULE.replace("+ 1.0", "+ 1.5")


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

"""Task files written into a temporary workspace, the CLI run on them, and candidate modules for
SIMPLE_TASK."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def workspace(tmp_path: Path) -> Path:
    """A folder that is its own workspace root (so .hiera/ lands inside it)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'scratch'\n")
    return tmp_path


def write_task(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(source).lstrip())
    return path


def copy_example(folder: Path, name: str) -> Path:
    target = folder / name
    target.write_text((EXAMPLES / name).read_text())
    return target


def hiera(*args: str, cwd: Path, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run the CLI from this checkout (env: the whole environment to use, default this process's)."""
    merged = dict(os.environ if env is None else env)
    merged["PYTHONPATH"] = str(REPO) + (os.pathsep + merged["PYTHONPATH"] if merged.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-m", "hiera_core.cli.main", *args], cwd=cwd, env=merged, capture_output=True,
                          text=True, timeout=timeout)


def json_files_parse(store: Path) -> list[Path]:
    """Every JSON file under the store, each of which must parse (no half-written files)."""
    found = list(store.rglob("*.json"))
    for path in found:
        json.loads(path.read_text())
    leftovers = [p for p in store.rglob("*.tmp")]
    assert not leftovers, f"temporary files left behind: {leftovers}"
    return found


SIMPLE_TASK = """
    import torch
    import torch.nn as nn


    class Model(nn.Module):
        def __init__(self, scale):
            super().__init__()
            self.scale = scale

        def forward(self, x):
            return torch.relu(x) * self.scale + 1.0


    def get_inputs():
        return [torch.randn(64, 128)]


    def get_init_inputs():
        return [2.0]
"""

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

"""Every task of benchmarks/suite: KernelBench format, float32, deterministic, traceable by FX.

(How fast each forward runs is a benchmark figure, not asserted here: see docs/bench.md.)
"""


import pytest
from helpers.bench import REPO, check_task_module

TASKS = sorted((REPO / "benchmarks" / "suite").glob("level*/*.py"))


@pytest.mark.parametrize("path", TASKS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_suite_task(path):
    check_task_module(path, "suite")

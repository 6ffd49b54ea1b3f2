"""Fixtures of the LLM tests: a real spec of the tiny task (built once) and a run record in a
scratch store."""

from __future__ import annotations

import json

import pytest
from helpers.engine import hiera
from helpers.llm import tiny_workspace

from hiera_core.llm.record import LLMRecord
from hiera_core.spec.model import Spec
from hiera_core.store import Store


@pytest.fixture(scope="session")
def tiny_spec(tmp_path_factory) -> Spec:
    folder = tiny_workspace(tmp_path_factory.mktemp("spec"))
    run = hiera("spec", "tiny.py", "--device", "cpu", "--json", cwd=folder)
    assert run.returncode == 0, run.stderr
    return Spec.from_dict(json.loads(run.stdout))


@pytest.fixture
def record(tmp_path) -> LLMRecord:
    run = Store(tmp_path).new_run("optimize")
    return LLMRecord(run, {"model": "scripted"})

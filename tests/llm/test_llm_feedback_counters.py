"""Refinement feedback per attempt against a scripted server: a rejected candidate's runnable
reproducer (path and text), and a verified candidate's Nsight Compute figures from a fake `ncu` on
PATH (the layout of tests/data/ncu/details.csv), or the note that ncu is absent."""

import os
import stat
from pathlib import Path
from types import SimpleNamespace

from helpers.chat_server import Answer, ChatServer, python_answer
from helpers.engine import GOOD_MODULE, WRONG_MODULE
from helpers.llm import FakeEvaluator, numbered, refiner_for

from hiera_core.loop.evaluate import hardware_counters
from hiera_core.profile.ncu import op_ncu
from hiera_core.store import Store

DETAILS = Path(__file__).resolve().parents[1] / "data" / "ncu" / "details.csv"
NCU_FIGURE = "occupancy 18% achieved of 19% theoretical; 168 registers/thread"


def cuda_session(tmp_path: Path):
    """What hardware_counters uses of a Session on a CUDA run, its worker op run in this process."""
    run = Store(tmp_path).new_run("optimize")
    return SimpleNamespace(settings=SimpleNamespace(device="cuda"), run=run, emit=lambda event: None,
                           worker=lambda kind, doing, log_name, *, timeout_s, **arguments: op_ncu(
                               kind(address="tiny.py::Model", device="cuda", **arguments)))


def counters_with(session):
    return lambda candidate, outcome, deadline: hardware_counters(session, candidate["name"], outcome, deadline)


def fixes_only_after_seeing(figure: str):
    """A model that answers the right module only once a prompt shows `figure`."""
    def answer(body):
        seen = figure in body["messages"][-1]["content"]
        return Answer(python_answer(numbered(GOOD_MODULE if seen else WRONG_MODULE, 2)))
    return answer


def test_the_model_sees_the_ncu_figures_of_its_verified_candidate(tiny_spec, record, tmp_path, monkeypatch):
    folder = tmp_path / "bin"
    folder.mkdir()
    ncu = folder / "ncu"
    ncu.write_text(f"#!/bin/sh\ncat {DETAILS}\n")
    ncu.chmod(ncu.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    evaluate = FakeEvaluator()
    with ChatServer([Answer(python_answer(GOOD_MODULE)), fixes_only_after_seeing(NCU_FIGURE)]) as server:
        refiner = refiner_for(server, tiny_spec, record, evaluate)
        refiner.counters = counters_with(cuda_session(tmp_path))
        refiner.run()
    profile = server.requests[1].last_user
    assert "Nsight Compute, one call (top 3 of 3 kernels by duration):" in profile
    assert "SM 87% / memory 41% of peak; DRAM 12%; L2 hit 89%; " + NCU_FIGURE in profile
    assert [e.status for e in record.samples()] == ["verified", "verified"]  # it acted on the figure


def test_without_ncu_the_profile_says_there_are_no_counters(tiny_spec, record, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    for variable in ("CUDA_HOME", "CUDA_PATH"):
        monkeypatch.delenv(variable, raising=False)
    with ChatServer([Answer(python_answer(GOOD_MODULE)), Answer(python_answer(numbered(GOOD_MODULE, 2)))]) as server:
        refiner = refiner_for(server, tiny_spec, record, FakeEvaluator())
        refiner.counters = counters_with(cuda_session(tmp_path))
        refiner.run()
    profile = server.requests[1].last_user
    if not Path("/usr/local/cuda/bin/ncu").exists():
        assert "Nsight Compute (ncu) not found: no hardware counters" in profile
        assert profile.count("Nsight Compute") == 1


def test_a_rejected_candidate_comes_back_with_its_reproducer_script(tiny_spec, record, tmp_path):
    script = tmp_path / "llm.s01.repro.py"
    script.write_text('"""Reproduces HIERA\'s \'values\' rejection."""\nimport sys\nsys.exit(1)\n')
    failure = {"check": "values", "message": "output 0: 8192 of 8192 values out of tolerance",
               "reproducer": "run seed 7: seed 8, offset values, shapes [[64, 128]]", "script": str(script)}
    with ChatServer([Answer(python_answer(WRONG_MODULE)), Answer(python_answer(numbered(WRONG_MODULE, 2)))]) as server:
        refiner_for(server, tiny_spec, record, FakeEvaluator(failure=failure)).run()
    feedback = server.requests[1].last_user
    assert "Reproducer: run seed 7: seed 8, offset values, shapes [[64, 128]]" in feedback
    assert (f"This script rebuilds the failing inputs and shows the mismatch (`python {script}`; exit 1 while it "
            f"persists):\n```python\n{script.read_text().rstrip()}\n```") in feedback

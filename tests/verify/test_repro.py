"""Runnable reproducers (hiera_core.verify.repro): `hiera verify` of a candidate that is wrong on one input set
writes a script that rebuilds that set and shows the mismatch; run on a right candidate it shows none."""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers.engine import SIMPLE_TASK, hiera, workspace, write_task

# Right on the task's own values and on normal ones; wrong only far from zero (the "offset" set).
WRONG_FAR_FROM_ZERO = textwrap.dedent("""
    import torch
    import torch.nn as nn


    class ModelNew(nn.Module):
        def __init__(self, scale):
            super().__init__()
            self.scale = scale

        def forward(self, x):
            y = torch.clamp(x, min=0) * self.scale + 1.0
            return torch.where(x.abs() > 50, y + 0.5, y)
""")
RIGHT = WRONG_FAR_FROM_ZERO.replace("torch.where(x.abs() > 50, y + 0.5, y)", "y")

# A zero-initialised bias: a candidate that leaves it out passes with the initial parameters and fails
# only the judge's check with perturbed ones, which its reproducer must load too.
BIASED_TASK = """
    import torch
    import torch.nn as nn


    class Model(nn.Module):
        def __init__(self, width):
            super().__init__()
            self.bias = nn.Parameter(torch.zeros(width))

        def forward(self, x):
            return torch.relu(x) + self.bias


    def get_inputs():
        return [torch.randn(32, 64)]


    def get_init_inputs():
        return [64]
"""
WITHOUT_BIAS = textwrap.dedent("""
    import torch
    import torch.nn as nn


    class ModelNew(nn.Module):
        def __init__(self, width):
            super().__init__()
            self.bias = nn.Parameter(torch.zeros(width))

        def forward(self, x):
            return torch.relu(x)
""")


def reproduce_command(stdout: str) -> list[str]:
    commands = re.findall(r"^   reproduce with: (\S+) (\S+\.repro\.py)$", stdout, re.MULTILINE)
    assert len(commands) == 1, stdout
    return list(commands[0])


def run_script(command: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=300, cwd="/")


@pytest.mark.slow
def test_a_candidate_wrong_on_one_input_set_gets_a_script_that_shows_the_mismatch(tmp_path):
    folder = workspace(tmp_path)
    write_task(folder, "tiny.py", SIMPLE_TASK)
    candidate = folder / "candidate.py"
    candidate.write_text(WRONG_FAR_FROM_ZERO)
    run = hiera("verify", "tiny.py", "candidate.py", "--device", "cpu", cwd=folder)
    assert run.returncode == 1, run.stdout + run.stderr
    assert re.search(r"^   failing inputs: run seed \d+: seed \d+, offset values", run.stdout, re.MULTILINE)
    command = reproduce_command(run.stdout)
    assert command[0] == sys.executable and Path(command[1]).parent.name == "candidates"
    script = Path(command[1]).read_text()
    assert "rebuild_set(task, DEVICE" in script and "distribution='offset'" in script

    shown = run_script(command)  # from another folder: the script names its files by absolute paths
    assert shown.returncode == 1, shown.stderr
    assert re.search(r"output 0: max abs error 0\.5; 8192 of 8192 values out of tolerance .*; first mismatch at "
                     r"index \(0, 0\): [\d.]+ vs reference [\d.]+", shown.stdout), shown.stdout
    assert shown.stdout.splitlines()[-1] == "mismatch"

    candidate.write_text(RIGHT)  # the same inputs, now computed right
    fixed = run_script(command)
    assert fixed.returncode == 0 and fixed.stdout.splitlines()[-1] == "no mismatch", fixed.stdout + fixed.stderr
    assert "within tolerance" in fixed.stdout

    passed = hiera("verify", "tiny.py", "candidate.py", "--device", "cpu", cwd=folder)
    assert passed.returncode == 0 and "reproduce with" not in passed.stdout, passed.stdout + passed.stderr
    scripts = list((folder / ".hiera").rglob("*.repro.py"))
    assert scripts == [Path(command[1])]  # none for the verified candidate


@pytest.mark.slow
def test_a_failure_with_perturbed_parameters_is_reproduced_with_them(tmp_path):
    folder = workspace(tmp_path)
    write_task(folder, "biased.py", BIASED_TASK)
    (folder / "candidate.py").write_text(WITHOUT_BIAS)
    run = hiera("verify", "biased.py", "candidate.py", "--device", "cpu", cwd=folder)
    assert run.returncode == 1 and "perturbed parameters" in run.stdout, run.stdout + run.stderr
    command = reproduce_command(run.stdout)
    assert "perturbed_state(reference.state_dict(), " in Path(command[1]).read_text()
    shown = run_script(command)
    assert shown.returncode == 1 and "values out of tolerance" in shown.stdout, shown.stdout + shown.stderr


# Non-negative inputs (the "normal" set gives them mixed signs) and a dynamic dim (boundary-size sets).
DYNAMIC_TASK = """
    import torch
    import torch.nn as nn


    # hiera: inputs=make_inputs init=make_init
    # hiera: dynamic=x:0
    class Scaled(nn.Module):
        def forward(self, x, y):
            return x * 2.0 + y.sum()


    def make_inputs():
        return [torch.rand(40, 16), torch.randn(3)]


    def make_init():
        return []
"""


def test_every_input_set_the_judge_draws_is_drawn_again_from_its_recipe(tmp_path):
    import torch

    from hiera_core.task.load import load_task
    from hiera_core.verify.inputs import input_sets, rebuild_set, with_signs_kept

    task = load_task(f"{write_task(workspace(tmp_path), 'scaled.py', DYNAMIC_TASK)}::Scaled")
    drawn = input_sets(task, "cpu", count=6, base_seed=4242)
    drawn.append(with_signs_kept(task, "cpu", drawn[2]))  # the twin the judge swaps in for non-finite outputs
    assert {s.dynamic_size for s in drawn} >= {None, 1, 17, 129} and not drawn[2].keeps_sign
    for original in drawn:
        again = rebuild_set(task, "cpu", original.seed, original.distribution, original.keeps_sign,
                            original.dynamic_size)
        assert all(torch.equal(a, b) for a, b in zip(again.inputs, original.inputs)), original.describe()
        assert again.describe() == original.describe()

"""Runnable reproducers of a rejected candidate's value or shape mismatch.

The judge records how the failing input set was drawn (`FailingInputs`, on the failed Check: run
seed, distribution, sign policy, dynamic size, perturbed parameters, tolerances); the orchestrator
writes a short script next to the candidate (`candidates/NAME.repro.py`) that rebuilds that set with
HIERA's own input generator (hiera_core.verify.inputs.rebuild_set), runs the reference and the candidate
on it as the judge does (weights by state_dict, fresh copies of the inputs) and prints the largest
error and the first value out of tolerance; exit 1 on a mismatch, 0 when there is none. The model
gets its path and text in the refinement feedback; `hiera verify` prints the command that runs it.

The script applies the contract's tolerance without the judge's allowance for the reference's own
float32 error on ill-conditioned sets, so it is never more lenient than the verdict it reproduces.
Importing this module does not import torch (the orchestrator uses it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from hiera_core import PACKAGE_ROOT

# Checks of the outputs on one input set: a script rebuilding that set shows the same mismatch.
# (Timeouts, crashes, state across calls and timed calls on rolled values need more than one call.)
REPRODUCED_CHECKS = ("values", "nan", "trivial-output", "shape", "dtype")


@dataclass
class FailingInputs:
    """How the judge drew the input set a check failed on: enough to draw it again."""

    seed: int
    distribution: str
    keeps_sign: bool = True
    dynamic_size: int | None = None
    perturbed_seed: int | None = None  # the parameters were perturb.perturbed_state(initial, this seed)
    tolerances: list[list[float]] = field(default_factory=list)  # per output: [rtol, atol_rel]


def script_path(candidate_path: Path) -> Path:
    """candidates/NAME.py -> candidates/NAME.repro.py"""
    return candidate_path.with_suffix(".repro.py")


def script_text(address: str, candidate_path: str, device: str, inputs: FailingInputs, check: str,
                description: str) -> str:
    if inputs.perturbed_seed is None:
        state, perturbed_import = "reference.state_dict()", ""
    else:  # the judge's check with moved parameters
        state = f"perturbed_state(reference.state_dict(), {inputs.perturbed_seed})"
        perturbed_import = "from hiera_core.verify.perturb import perturbed_state\n"
    return f'''"""Reproduces HIERA's '{check}' rejection on {description}.
Run it with python: exit 1 on a mismatch, 0 when there is none."""
import sys

sys.path.insert(0, {PACKAGE_ROOT!r})
import torch

from hiera_core.verify.inputs import clone_inputs, rebuild_set
{perturbed_import}from hiera_core.verify.repro import compare_outputs
from hiera_core.worker.runner import import_candidate
from hiera_core.task.load import load_task, outputs_as_list

DEVICE = {device!r}
TOLERANCES = {inputs.tolerances!r}  # per output: [rtol, atol_rel]; atol = atol_rel * RMS of the reference

task = load_task({address!r})
reference = task.build_model(DEVICE, seed=0)
state = {state}
reference.load_state_dict(state)
torch.manual_seed(0)
with torch.device(DEVICE):
    candidate = import_candidate({candidate_path!r}, "candidate").ModelNew(*task.make_init())
candidate = candidate.to(DEVICE).eval()
candidate.load_state_dict(state, strict=False)
inputs = rebuild_set(task, DEVICE, seed={inputs.seed}, distribution={inputs.distribution!r},
                     keeps_sign={inputs.keeps_sign}, dynamic_size={inputs.dynamic_size!r}).inputs
expected = outputs_as_list(task.run_forward(reference, clone_inputs(inputs)))
with torch.no_grad():
    got = outputs_as_list(candidate(*clone_inputs(inputs)))
sys.exit(compare_outputs(got, expected, TOLERANCES))
'''


def reproducer(address: str, candidate_path: Path, device: str, failed) -> str | None:
    """The text of the reproducer of a failed check (a hiera_core.verify.verdicts.Check) of the
    candidate at `candidate_path`, or None when the check is not a mismatch that one input set shows."""
    if failed.name not in REPRODUCED_CHECKS or failed.inputs is None:
        return None
    path, _, class_name = address.partition("::")  # absolute: the script may be run from anywhere
    return script_text(f"{os.path.abspath(path)}::{class_name}", str(candidate_path.resolve()), device,
                       failed.inputs, failed.name, failed.reproducer or "the failing input set")


def compare_outputs(outs: list, refs: list, tolerances: list[list[float]]) -> int:
    """Print, per output, the shape/dtype difference or the largest error and the first value out of
    tolerance (|out - ref| <= atol + rtol*|ref| in float64, NaN only where the reference has NaN);
    1 when any output mismatches, else 0."""
    if len(outs) != len(refs):
        print(f"the candidate returned {len(outs)} output(s), the reference {len(refs)}")
        return 1
    mismatch = False
    for index, (out, ref) in enumerate(zip(outs, refs)):
        rtol, atol_rel = tolerances[index] if index < len(tolerances) else (0.0, 0.0)
        if out.shape != ref.shape or out.dtype != ref.dtype:
            print(f"output {index}: {out.dtype} {list(out.shape)}, the reference's is {ref.dtype} {list(ref.shape)}")
            mismatch = True
            continue
        o, r = out.detach().cpu().double(), ref.detach().cpu().double()
        finite = r[r.isfinite()]
        rms = float(finite.pow(2).mean().sqrt()) if finite.numel() else 1.0
        atol = atol_rel * (rms if rms > 0 else 1.0)
        error = (o - r).abs()
        same = (o == r) | (o.isnan() & r.isnan())  # equal infinities and shared NaNs are no error
        bad = ~same & ~(error <= atol + rtol * r.abs())
        largest = float(error[~same].max()) if bool((~same).any()) else 0.0
        if not bool(bad.any()):
            print(f"output {index}: max abs error {largest:.3g}, within tolerance ({atol:.2g} + {rtol:.2g}*|ref|)")
            continue
        mismatch = True
        first = tuple(int(i) for i in bad.nonzero()[0])
        print(f"output {index}: max abs error {largest:.3g}; {int(bad.sum())} of {out.numel()} values out of "
              f"tolerance ({atol:.2g} + {rtol:.2g}*|ref|); first mismatch at index {first}: "
              f"{float(o[first]):.6g} vs reference {float(r[first]):.6g}")
    print("mismatch" if mismatch else "no mismatch")
    return 1 if mismatch else 0

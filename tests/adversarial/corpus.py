"""The adversarial corpus: reading its files and evaluating them the way `hiera optimize` does.

Every file under hacks/ and controls/ starts with a header line and a comment saying what it
exploits (hacks) or why it is legitimate (controls):

    # hiera-adversarial: task=NAME space=SPACE|infer expect=CHECK[|CHECK...]|pass|no-speedup [device=cuda] [uses=nvrtc]
    #                    [sanitize=yes]

Like HIERA's own candidates, a corpus candidate is appended after the verbatim source of its
reference (tasks/NAME.py), behind the candidate marker line; `uses=nvrtc` inserts nvrtc_helper.py
before it. It is then evaluated by the worker op `hiera optimize` uses: verification, then timing
of the reference and the candidate with the timing checks (streams, roofline, revalidation,
timing-window) and the significance rule (`no-speedup`: verified, but no speedup may count).
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.propose.proposal_file import assemble_body, candidate_part
from hiera_core.spaces.detect import infer_space
from hiera_core.verify.sanitizer import sanitize
from hiera_core.verify.verdicts import Check, Verification
from hiera_core.worker.isolate import run_worker
from hiera_core.worker.requests import EvaluateRequest, EvaluateResult, PrepareRequest

HERE = Path(__file__).resolve().parent
HEADER = re.compile(r"^# hiera-adversarial: (?P<fields>.*)$", re.MULTILINE)


@dataclass(frozen=True)
class Entry:
    name: str
    kind: str  # "hack" | "control"
    path: Path
    task: str
    space: str
    expect: str  # the check that must reject a hack (a|b: either, first), "pass" or "no-speedup"
    device: str  # "any" | "cuda"
    uses_nvrtc: bool
    sanitize: bool

    def __str__(self) -> str:
        return self.name

    def comment(self) -> str:
        """The why-comment under the header."""
        lines = self.path.read_text().splitlines()[1:]
        return " ".join(line.lstrip("# ") for line in lines if line.startswith("#"))


def _entry(path: Path, kind: str) -> Entry:
    match = HEADER.search(path.read_text())
    if match is None:
        raise ValueError(f"{path}: no '# hiera-adversarial:' header")
    fields = dict(item.split("=", 1) for item in match.group("fields").split())
    return Entry(name=f"{kind}s/{path.stem}", kind=kind, path=path, task=fields["task"], space=fields["space"],
                 expect=fields["expect"], device=fields.get("device", "any"),
                 uses_nvrtc=fields.get("uses") == "nvrtc", sanitize=fields.get("sanitize") == "yes")


ENTRIES = [_entry(path, kind) for kind in ("hack", "control")
           for path in sorted((HERE / f"{kind}s").glob("*.py"))]


@cache
def spec_for(task: str, device: str) -> dict:
    request = PrepareRequest(address=str(HERE / "tasks" / f"{task}.py"), device=device, measure=False)
    prepared = run_worker(request, timeout_s=300, doing=f"building the spec of {task}")
    return prepared.spec.to_dict()


def request_for(entry: Entry, device: str, folder: Path) -> EvaluateRequest:
    """The evaluate request for one corpus candidate, its proposal file written into `folder`."""
    # the reference judged is a copy: a candidate that writes its reference's file changes the copy
    reference = folder / f"{entry.task}_{entry.path.stem}_{device}_reference.py"
    reference.write_text((HERE / "tasks" / f"{entry.task}.py").read_text())
    code = entry.path.read_text()
    if entry.uses_nvrtc:
        code = (HERE / "nvrtc_helper.py").read_text() + "\n\n" + code
    # space=infer: from the code, as `hiera verify` decides it (never from what a header claims)
    space = infer_space(code).space if entry.space == "infer" else entry.space
    body = assemble_body(reference.read_text(), entry.path.stem, "pytorch" if entry.space == "infer" else space, code)
    path = folder / f"{entry.task}_{entry.path.stem}_{device}.py"
    path.write_text(body)
    source, first_line = candidate_part(body)
    return EvaluateRequest(address=str(reference), device=device, spec=spec_for(entry.task, device),
                           candidate_path=str(path), candidate_source=source, first_line=first_line, space=space,
                           profile=False, cpu_threads=1)  # one intra-op thread: evaluate_all runs them side by side


def evaluate(entry: Entry, device: str, folder: Path, side_by_side: bool = False) -> EvaluateResult:
    """The worker's result; a candidate that takes its worker down becomes a failed check named
    after how (crash, timeout, oom), as `hiera verify` reports it. `side_by_side`: other entries are
    evaluated meanwhile, so the device is shared as `hiera optimize --jobs` shares it (verification
    side by side, timing alone: hiera_core.worker.devicelock)."""
    request = request_for(entry, device, folder)
    if side_by_side:
        request.device_lock = str(folder / "device.lock")
    try:
        result = run_worker(request, timeout_s=300, doing=f"evaluating {entry.name}")
    except HieraError as error:
        if error.kind not in (ErrorKind.CRASH, ErrorKind.TIMEOUT, ErrorKind.OOM):
            raise
        return EvaluateResult(verification=Verification(False, [Check(error.kind, False, str(error))]))
    if entry.sanitize and result.verification.passed:
        for tool in ("memcheck", "racecheck"):
            check = sanitize(tool, request, timeout_s=600, log_path=folder / f"{entry.path.stem}.{tool}.log")
            result.verification.checks.append(check)
    return result


def evaluate_all(entries: list[Entry], device: str, folder: Path, workers: int) -> dict[str, EvaluateResult]:
    """`evaluate` for many entries, `workers` at a time (each in its own worker process)."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return dict(zip((e.name for e in entries),
                        pool.map(lambda e: evaluate(e, device, folder, workers > 1), entries)))

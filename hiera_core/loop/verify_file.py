"""`verify_file`: a candidate file defining ModelNew verified against a reference, as the loop
verifies its own candidates (its space inferred from its code unless given; optionally also under
compute-sanitizer), in a run of its own; a failed check gets a reproducer script in the run folder,
and the editor shows the verification's failures on the module."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.events import Emit, Event
from hiera_core.index_entry import VerificationFailure
from hiera_core.loop.run_result import VerifyResult
from hiera_core.loop.session import Session, Settings
from hiera_core.propose import proposal_file as proposals
from hiera_core.spaces.detect import InferredSpace, infer_space
from hiera_core.verify.repro import reproducer, script_path
from hiera_core.verify.sanitizer import SANITIZER_TOOLS, find_compute_sanitizer
from hiera_core.verify.sanitizer import sanitize as run_sanitizer
from hiera_core.verify.verdicts import Check, Verification
from hiera_core.worker.requests import EvaluateRequest, EvaluateResult, PrepareRequest


@dataclass
class FileVerification:
    """What `verify_file` found, for the command to print."""

    session: Session
    space: InferredSpace  # the candidate's space, and why
    result: EvaluateResult  # the worker's `evaluate` result, its verification with the sanitizer's checks
    recorded: VerifyResult  # result's verification as verification.json keeps it, with its reproducer scripts
    passed: bool
    reproduce: dict[int, str]  # index of a failed check -> the command that runs its reproducer script


def verify_file(reference: str, candidate: str, settings: Settings, emit: Emit, space: str | None = None,
                sanitize: bool = False, seed: int | None = None) -> FileVerification:
    """Verify the file `candidate` against REFERENCE (`space`: its space, default inferred from its
    code; `seed`: the run seed to draw the input sets from, default drawn afresh). A candidate that
    takes its worker down fails a check; a usage or task error is raised."""
    session = None
    try:
        if sanitize and (settings.device != "cuda" or find_compute_sanitizer() is None):
            raise HieraError("--sanitize runs compute-sanitizer on a CUDA GPU: " + (
                "this run is on the CPU" if settings.device != "cuda" else
                "compute-sanitizer was not found on PATH or under $CUDA_HOME/bin"), kind=ErrorKind.USAGE,
                hint="run on a machine with an NVIDIA GPU and the CUDA toolkit, or drop --sanitize")
        try:
            text = open(candidate, encoding="utf-8").read()
        except (OSError, UnicodeDecodeError) as error:
            raise HieraError(f"cannot read the candidate: {error}", file=candidate, kind=ErrorKind.USAGE,
                             hint="give the path of a UTF-8 .py file that defines ModelNew") from None
        header, body = proposals.split(text)
        source, first_line = proposals.candidate_part(body)
        first_line += header.header_lines if header else 0
        # From the code, never from the header: a header is text anyone can write.
        chosen = InferredSpace(space, "chosen with --space") if space else infer_space(source, first_line)
        session = Session(reference, "verify", settings, emit)
        session.emit(Event("log", stage="verify", message=f"space {chosen.space}: {chosen.reason}",
                           data={"space": chosen.space, "space_reason": chosen.reason}))
        session.stage("spec", "running the reference", 0.1)
        prepared = session.worker(PrepareRequest, "building the spec", "spec", measure=False)
        session.stage("verify", f"verifying {candidate}", 0.4)
        arguments = dict(spec=prepared.spec.to_dict(), candidate_path=candidate, candidate_source=source,
                         first_line=first_line, space=chosen.space, seed=seed)
        try:
            result = session.worker(EvaluateRequest, f"verifying {candidate}", "verify", profile=False, **arguments)
        except HieraError as error:
            if error.kind not in (ErrorKind.CRASH, ErrorKind.TIMEOUT, ErrorKind.OOM):
                raise
            # The candidate took its worker down: a failed check, not a usage error.
            failed = Check(error.kind, False, f"{str(error).splitlines()[0]} (worker log: "
                                              f"{session.run.path / 'logs' / 'verify.log'})")
            result = EvaluateResult(verification=Verification(False, [failed]))
        if sanitize and result.verification.passed:
            for tool in SANITIZER_TOOLS:
                session.stage("verify", f"compute-sanitizer --tool {tool}", 0.8)
                check = run_sanitizer(tool, EvaluateRequest(address=session.address, device="cuda", **arguments),
                                      timeout_s=settings.timeout_s,
                                      log_path=session.run.path / "logs" / f"{tool}.log")
                result.verification.add([check])
    except HieraError as error:
        if session is not None:
            session.fail(error)
        raise
    verification = result.verification
    passed = all(check.passed for check in verification.checks)
    scripts = _reproducers(session, candidate, verification)
    recorded = VerifyResult.from_dict(verification.to_dict())
    for index, script in scripts.items():
        recorded.checks[index].script = str(script)
    session.run.write_json("verification.json", recorded.to_dict())
    session.state.status = "done"
    session.save()
    # The editor shows the last verification's failures on the module (hover and diagnostics).
    session.record_last_run(
        "passed" if passed else "failed",
        verification_failures=[VerificationFailure(candidate=candidate, check=check.name, message=check.message,
                                                   reproducer=check.reproducer)
                               for check in verification.checks if not check.passed])
    commands = {index: f"{session.settings.python or sys.executable} {script}" for index, script in scripts.items()}
    return FileVerification(session, chosen, result, recorded, passed, commands)


def _reproducers(session: Session, candidate: str, verification: Verification) -> dict[int, Path]:
    """index of a check -> its reproducer script (hiera_core.verify.repro), written into the run
    folder, for each failed check that one input set shows."""
    scripts = {}
    for index, check in enumerate(verification.checks):
        text = None if check.passed else reproducer(session.address, Path(candidate), session.settings.device, check)
        if text:
            scripts[index] = session.run.write_text(f"candidates/{script_path(Path(candidate)).name}", text)
    return scripts

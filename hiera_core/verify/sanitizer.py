"""compute-sanitizer runs of a candidate's verification (`hiera verify --sanitize`): the evaluate
op re-run in a worker under memcheck or racecheck, whatever the tool reports failing a check."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.verify.verdicts import Check
from hiera_core.worker.isolate import PARENT_PID_VARIABLE, kill_group, log_tail, worker_environment
from hiera_core.worker.requests import EvaluateRequest, EvaluateResult, WorkerReply

SANITIZER_TOOLS = ("memcheck", "racecheck")
SANITIZER_ERROR_EXIT = 86
SANITIZER_PADDING_BYTES = 4096


def find_compute_sanitizer() -> str | None:
    from hiera_core.cuda import find_tool

    return find_tool("compute-sanitizer")


def sanitize(tool: str, request: EvaluateRequest, *, timeout_s: float, log_path: Path, python: str | None = None) -> Check:
    """Re-run the verification (a few input sets, no timing) in a worker under `compute-sanitizer
    --tool TOOL`; any error it reports fails the check. Without the caching allocator under memcheck,
    so an access past a tensor's end is past an allocation's end."""
    sanitizer = find_compute_sanitizer()
    if sanitizer is None:
        raise HieraError("--sanitize needs compute-sanitizer (CUDA toolkit) on PATH or under $CUDA_HOME/bin",
                         kind=ErrorKind.USAGE, hint="install the CUDA toolkit, or drop --sanitize")
    with tempfile.TemporaryDirectory(prefix="hiera-sanitize-") as folder:
        request_path = Path(folder) / "request.json"
        result_path = Path(folder) / "result.json"
        report_path = Path(folder) / "sanitizer.txt"
        checked = replace(request, time=False, sets=2, profiler=False)
        request_path.write_text(json.dumps(checked.to_dict(), default=str), encoding="utf-8")
        env = worker_environment()
        env.pop(PARENT_PID_VARIABLE)  # the worker's parent is compute-sanitizer, which dies with us
        if tool == "memcheck":
            env["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"
        command = [sanitizer, "--tool", tool, "--report-api-errors", "no", "--print-limit", "20",
                   "--error-exitcode", str(SANITIZER_ERROR_EXIT), "--log-file", str(report_path)]
        if tool == "memcheck" and _sanitizer_has_padding(sanitizer):
            # cudaMalloc packs allocations back to back: a read one element past a tensor's end lands
            # in its neighbour, which memcheck counts as valid unless a padding buffer sits between.
            command += ["--padding", str(SANITIZER_PADDING_BYTES)]
        command += [python or sys.executable, "-m", "hiera_core.worker.ops", str(request_path), str(result_path)]
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(log_path, "ab") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       env=env, start_new_session=True)
            try:
                code = process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                return Check(tool, False, f"compute-sanitizer --tool {tool} did not finish within {timeout_s:.0f} s")
            finally:
                kill_group(process)
        report = report_path.read_text(encoding="utf-8", errors="replace") if report_path.exists() else ""
        sets = ""
        if result_path.exists():
            reply = WorkerReply.from_dict(json.loads(result_path.read_text(encoding="utf-8")))
            if reply.ok:
                sets = "; ".join(EvaluateResult.from_dict(reply.result).verification.sets_checked)
    errors = _sanitizer_errors(report)
    if errors:
        findings = [line.strip("= ").strip() for line in report.splitlines()
                    if re.match(r"=+\s+(Invalid|Race|Error:|Uninitialized|Barrier|Warning:)", line)]
        return Check(tool, False, f"{errors} error(s): " + " | ".join(dict.fromkeys(findings))[:700], sets)
    if code != 0 or errors is None:
        return Check(tool, False, f"the worker under compute-sanitizer exited with code {code} without an error "
                                  f"summary: {log_tail(log_path, 8)}"[:800], sets)
    return Check(tool, True, f"compute-sanitizer --tool {tool}: no errors", sets)


@functools.cache
def _sanitizer_has_padding(sanitizer: str) -> bool:
    try:
        usage = subprocess.run([sanitizer, "--help"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "--padding" in usage


def _sanitizer_errors(report: str) -> int | None:
    """The error count of compute-sanitizer's summary line (memcheck: `ERROR SUMMARY: N errors`;
    racecheck: `RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)`); None without one."""
    match = (re.search(r"ERROR SUMMARY:\s*(\d+)\s+error", report)
             or re.search(r"RACECHECK SUMMARY:.*?\((\d+)\s+errors?,", report))
    return int(match.group(1)) if match else None


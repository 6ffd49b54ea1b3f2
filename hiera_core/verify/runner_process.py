"""The candidate's runner process as the judge sees it: started beside the judge, asked over the
channel (hiera_core.worker.channel), and rejected (`Rejected`) when it ends, stops answering or
says something the protocol does not allow. A worker started ahead of its request (a warm worker,
hiera_core.worker.warm) starts its runners ahead too (`prestart`): a runner's start (torch, dynamo,
the GPU's context) takes seconds and needs no task, and one that has run no candidate is as fresh
as a new one.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from hiera_core.verify.strays import (
    adopted,
    command,
    descendants,
    end_processes,
    scheduling,
    scheduling_changes,
    start_ticks,
    stray_processes,
)
from hiera_core.verify.verdicts import Check
from hiera_core.worker.channel import BadMessage, Channel, ChannelClosed, ChannelTimeout
from hiera_core.worker.messages import RunnerReply, RunnerRequest


class Rejected(Exception):
    def __init__(self, check: Check):
        super().__init__(check.message)
        self.check = check


@dataclass
class Reply:
    answer: RunnerReply  # checked against the protocol
    tensors: list
    wall_ms: float  # from sending the request to receiving the answer


class RunnerProcess:
    """The candidate's process and the channel to it. Started in this process's group, so whatever
    ends the judge's group ends it too; it also dies with its parent (PR_SET_PDEATHSIG)."""

    def __init__(self, device: str):
        self.device = device
        self.folder = tempfile.mkdtemp(prefix="hiera-judge-")  # the channel's tensor files
        judge_file = os.path.join(self.folder, "to_runner.bin")
        runner_file = os.path.join(self.folder, "from_runner.bin")
        for path in (judge_file, runner_file):
            with open(path, "wb"):
                pass
        to_runner_read, to_runner_write = os.pipe()
        from_runner_read, from_runner_write = os.pipe()
        # inductor's compile workers in its sidecar process (its default), which the process check knows
        # (hiera_core.verify.strays), not forked from the runner like a candidate's own processes.
        environment = {**os.environ, "TORCHINDUCTOR_WORKER_START": "subprocess"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hiera_core.worker.runner", str(to_runner_read), str(from_runner_write), judge_file,
             runner_file, device], pass_fds=(to_runner_read, from_runner_write), stdin=subprocess.DEVNULL,
            env=environment)
        os.close(to_runner_read)
        os.close(from_runner_write)
        self.channel = Channel(from_runner_read, to_runner_write, send_path=judge_file, receive_path=runner_file)
        self.calls = 0
        self.started = start_ticks(self.process.pid)
        _live_runners.add(self.process.pid)
        self.judge_scheduling: dict | None = None  # this process's, before the first request

    def request(self, request: RunnerRequest, tensors: list | None = None, *, timeout_s: float, doing: str) -> Reply:
        started = time.perf_counter()
        if self.judge_scheduling is None:  # before any candidate code: a warm worker's placement is done
            self.judge_scheduling = scheduling(os.getpid())
        try:
            self.channel.send(request.to_dict(), tensors)
            message, received = self.channel.receive(timeout_s=timeout_s, device=self.device)
            wall_ms = (time.perf_counter() - started) * 1000  # the runner's time, not the reading of its answer
            answer = request.reply_from(message)
            self._check_left_alone(doing)
        except (ChannelClosed, BrokenPipeError):
            raise Rejected(self._ended(doing)) from None
        except ChannelTimeout:
            self.kill()
            raise Rejected(Check("timeout", False, f"the candidate did not answer within {timeout_s:.0f} s while "
                                                   f"{doing} and was stopped (a hang, or far slower than the "
                                                   f"reference)")) from None
        except BadMessage as error:
            self.kill()
            raise Rejected(Check("runner-exit", False, f"the candidate's process answered {doing} with what the "
                                                       f"protocol does not allow ({error})")) from None
        return Reply(answer, received, wall_ms)

    def _check_left_alone(self, doing: str) -> None:
        """Rejected when the candidate has changed the judge's scheduling, or started a process that is
        still there (hiera_core.verify.strays): either would slow the reference's timing. Processes
        found are ended."""
        changed = scheduling_changes(self.judge_scheduling, scheduling(os.getpid()))
        if changed:
            self.kill()
            raise Rejected(Check("judge-scheduling", False, f"the judge's threads were reniced or moved to other CPUs "
                                                            f"while {doing} ({'; '.join(changed[:3])}): a candidate "
                                                            f"may not change how the reference is run"))
        strays = stray_processes(self.process.pid, self.started, _live_runners)
        if not strays:
            return
        listed = "; ".join(f"{pid}: {command(pid)[:80] or '(ended)'}" for pid in strays[:3])
        end_processes(strays)
        self.kill()
        raise Rejected(Check("processes", False, f"the candidate started other processes ({listed}), found while "
                                                 f"{doing}: a candidate may not run work outside its process (it "
                                                 f"would run beside the reference's timing); they were ended"))

    def _ended(self, doing: str) -> Check:
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
            code = None
        if code is not None and code < 0:
            name = signal.Signals(-code).name
            reason = {"SIGSEGV": "crashed with a segmentation fault", "SIGABRT": "aborted",
                      "SIGKILL": "was killed (out of memory?)"}.get(name, f"was killed by {name}")
            return Check("crash", False, f"the candidate's process {reason} while {doing}")
        return Check("runner-exit", False, f"the candidate's process ended (exit code {code}) while {doing}, "
                                           f"without answering: a candidate may not end or leave its process "
                                           f"(os._exit, sys.exit, signals, closing its channel)")

    def kill(self) -> None:
        """What it started (torch's compile workers, a candidate's strays, orphans this process adopted
        since it started) ends first, not left to this process, their subreaper; then the runner."""
        end_processes(descendants(self.process.pid) + adopted(self.started, _live_runners))
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        """Killed, not asked to exit: it holds nothing to save, and torch's teardown takes a second."""
        self.kill()
        _live_runners.discard(self.process.pid)
        self.channel.close()
        shutil.rmtree(self.folder, ignore_errors=True)


_live_runners: set[int] = set()  # the runners this process started and has not closed
_prestarted: list[RunnerProcess] = []  # started by `prestart`, not yet taken by a judge


def prestart(device: str, count: int) -> None:
    """Start `count` runners for `device` now, for the judges this process will make."""
    _prestarted.extend(RunnerProcess(device) for _ in range(count))


def runner_for(device: str) -> RunnerProcess:
    """A runner for a judge: one started ahead for `device` that is still alive, else a new one."""
    while _prestarted:
        runner = _prestarted.pop(0)
        if runner.device == device and runner.process.poll() is None:
            return runner
        runner.close()
    return RunnerProcess(device)

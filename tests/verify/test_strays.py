"""The processes a candidate's runner started that count against it: a process still running, not
torch's compile workers (nor what they started), not one that has already ended."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from hiera_core.verify.strays import children, descendants, end_processes, start_ticks, stray_processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")

SLEEP = "import time; time.sleep(60)"
# A runner stand-in: a compile worker (by inductor's command line) with a process of its own, a plain
# process, and one that has ended, never waited for (a zombie).
RUNNER = f"""
import subprocess, sys, time
worker = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time; "
                           "subprocess.Popen([sys.executable, '-c', {SLEEP!r}]); time.sleep(60)",
                           "/site-packages/torch/_inductor/compile_worker/__main__.py", "--workers=2"])
plain = subprocess.Popen([sys.executable, "-c", {SLEEP!r}])
ended = subprocess.Popen([sys.executable, "-c", "pass"])
print(worker.pid, plain.pid, ended.pid, flush=True)
time.sleep(60)
"""


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]


def test_a_plain_process_is_a_stray_and_compile_workers_and_ended_ones_are_not():
    runner = subprocess.Popen([sys.executable, "-c", RUNNER], stdout=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        worker, plain, ended = map(int, runner.stdout.readline().split())
        deadline = time.monotonic() + 30
        while (_state(ended) != "Z" or not children(worker)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert stray_processes(runner.pid, start_ticks(runner.pid), {runner.pid}) == [plain]
        end_processes([plain])
        deadline = time.monotonic() + 30
        while _state(plain) != "Z" and time.monotonic() < deadline:  # killed: the runner's to wait for
            time.sleep(0.05)
        assert stray_processes(runner.pid, start_ticks(runner.pid), {runner.pid}) == []
        assert {worker, plain, ended} < set(descendants(runner.pid))  # and the compile worker's own process
    finally:
        os.killpg(runner.pid, signal.SIGKILL)
        runner.wait()


def test_a_thread_reniced_or_moved_to_other_cpus_is_a_change_of_scheduling():
    from hiera_core.verify.strays import scheduling, scheduling_changes

    judge = subprocess.Popen([sys.executable, "-c", SLEEP])
    try:
        before = scheduling(judge.pid)
        assert before and all(cpus for _, cpus in before.values())
        os.setpriority(os.PRIO_PROCESS, judge.pid, 19)
        changed = scheduling_changes(before, scheduling(judge.pid))
        assert len(changed) == 1 and f"thread {judge.pid}: nice " in changed[0] and "-> 19" in changed[0]
        assert scheduling_changes(before, before) == []
    finally:
        judge.kill()
        judge.wait()

"""Every worker tree ends with its job (issue 20), through the language server and the real CLI on
CPU: a cancelled job, and a server that is killed, leave no `hiera_core.worker.ops` behind. Checked by
PID: the task's forward writes its worker's PID and that of a child it starts, then hangs."""

from __future__ import annotations

import asyncio
import json
import signal
import textwrap

import pytest
from lsprotocol import types

from hiera_core.worker.isolate import process_alive

pytestmark = pytest.mark.slow
CPU = {"budget": 1, "device": "cpu"}


def _hanging_task(root, how: str) -> str:
    pids = root.parent / "pids.txt"
    hang = "while True:\n                    pass" if how == "spinning" else "time.sleep(3600)"
    (root / "hang.py").write_text(textwrap.dedent(f"""\
        import os, subprocess, time
        import torch
        import torch.nn as nn


        class Model(nn.Module):
            def forward(self, x):
                child = subprocess.Popen(["sleep", "3600"])
                open({str(pids)!r}, "w").write(f"{{os.getpid()}} {{child.pid}}")
                {hang}


        def get_inputs():
            return [torch.randn(8, 8)]


        def get_init_inputs():
            return []
        """))
    return str(pids)


async def _wait_for(predicate, timeout: float):
    async def poll():
        while not (value := predicate()):
            await asyncio.sleep(0.1)
        return value
    return await asyncio.wait_for(poll(), timeout)


async def _worker_pids(pids_file) -> list[int]:
    def read():
        try:
            return open(pids_file).read()
        except FileNotFoundError:
            return ""
    return [int(pid) for pid in (await _wait_for(read, 180)).split()]


async def test_cancelling_a_job_ends_its_worker_tree_and_records_the_run(start_server):
    session = await start_server(real_cli=True, settings=CPU)
    pids_file = _hanging_task(session.workspace.root, "spinning")
    job = await session.command("hiera.optimize", session.workspace.uri("hang.py"), "Model")
    pids = await _worker_pids(pids_file)
    assert all(process_alive(pid) for pid in pids)

    session.client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=f"hiera/{job['id']}"))
    message = await session.job_message("optimize", "Model", timeout=30)

    assert message.message == "HIERA optimize Model: cancelled"
    await _wait_for(lambda: not any(process_alive(pid) for pid in pids), timeout=10)
    [run] = (session.workspace.root / ".hiera" / "runs").iterdir()
    record = json.loads((run / "run.json").read_text())
    assert record["status"] == "interrupted" and record["finished"]


async def test_a_killed_server_takes_its_jobs_and_their_workers_with_it(start_server):
    session = await start_server(real_cli=True, settings=CPU)
    pids_file = _hanging_task(session.workspace.root, "sleeping")
    await session.command("hiera.optimize", session.workspace.uri("hang.py"), "Model")
    pids = await _worker_pids(pids_file)

    server = session.client._server  # the editor crashing: nothing of the server runs again
    server.send_signal(signal.SIGKILL)
    await server.wait()
    session.closed = True

    await _wait_for(lambda: not any(process_alive(pid) for pid in pids), timeout=10)

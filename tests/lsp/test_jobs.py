"""Part 3: jobs run as child processes with progress, cancellation, a queue, and clear failures."""

from __future__ import annotations

import asyncio
import os

from lsprotocol import types

CANCELLED = "cancelled"


async def _wait_for(predicate, timeout: float = 20.0):
    async def poll():
        while not (value := predicate()):
            await asyncio.sleep(0.05)
        return value
    return await asyncio.wait_for(poll(), timeout)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def test_every_command_is_advertised(start_server):
    session = await start_server()
    assert sorted(session.server_capabilities.execute_command_provider.commands) == [
        "hiera.applyProposal", "hiera.cancelJob", "hiera.listJobs", "hiera.optimize", "hiera.optimizeKernel",
        "hiera.profile", "hiera.serverInfo", "hiera.showSpec", "hiera.verifyProposal"]


async def test_progress_reports_stages_and_percentages_then_ends(start_server):
    session = await start_server()
    uri = session.workspace.uri("models.py")

    job = await session.command("hiera.optimize", uri, "Model")
    message = await session.job_message("optimize", "Model")

    assert job["state"] in ("queued", "running")
    assert message.type == types.MessageType.Info
    progress = session.progress(job["id"])
    begin, *reports, end = progress
    assert isinstance(begin, types.WorkDoneProgressBegin)
    assert begin.title == "HIERA optimize Model (models.py)" and begin.cancellable
    stages = [report.message.split(":")[0] for report in reports if report.message != "starting"]
    assert stages[:5] == ["load", "spec", "plan", "implement", "verify"]
    percentages = [report.percentage for report in reports]
    assert percentages == sorted(percentages) and percentages[-1] == 95
    assert isinstance(end, types.WorkDoneProgressEnd) and "2.50x faster" in end.message
    jobs = await session.command("hiera.listJobs")
    assert [(j["id"], j["state"]) for j in jobs] == [(job["id"], "succeeded")]


async def test_a_long_step_without_events_still_moves_the_progress_message(start_server):
    # A candidate's compile and verification can take minutes without an event from the CLI.
    session = await start_server()
    job = await session.command("hiera.optimize", session.workspace.uri("models.py"), "Compiling")
    await session.job_message("optimize", "Compiling")

    messages = [report.message for report in session.progress(job["id"])[1:-1]]
    ticks = [message for message in messages if message.startswith("verify: compiling fused (1/1) · ")]
    assert len(ticks) >= 2, messages
    assert ticks[0].endswith(" · 1 s") and ticks[-1] != ticks[0]


async def test_cancel_from_the_progress_ui_kills_the_job_and_its_children(start_server):
    session = await start_server()
    job = await session.command("hiera.optimize", session.workspace.uri("models.py"), "Slow")
    await _wait_for(lambda: any(getattr(r, "message", "").startswith("spec")
                                for r in session.progress(job["id"])))
    children_file = session.workspace.job_log.with_name("jobs.log.children")
    grandchild = int((await _wait_for(lambda: children_file.exists() and children_file.read_text())).split()[0])
    assert _alive(grandchild)

    session.client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=f"hiera/{job['id']}"))
    message = await session.job_message("optimize", "Slow")

    assert message.message == "HIERA optimize Slow: cancelled"
    await _wait_for(lambda: not _alive(grandchild), timeout=10)
    assert session.edits.received == []
    assert not session.workspace.path("models_hiera.py").exists()
    assert isinstance(session.progress(job["id"])[-1], types.WorkDoneProgressEnd)


async def test_cancel_job_command_and_queue_of_one_job_per_module(start_server):
    session = await start_server(init_options={"maxParallelJobs": 2})
    uri = session.workspace.uri("models.py")

    first = await session.command("hiera.optimize", uri, "Slow")
    second = await session.command("hiera.optimize", uri, "Slow")
    other = await session.command("hiera.profile", uri, "Model")
    await session.job_message("profile", "Model")
    listed = {job["id"]: job for job in await session.command("hiera.listJobs")}

    assert listed[first["id"]]["state"] == "running"
    assert listed[second["id"]]["state"] == "queued"  # same module: waits
    assert listed[other["id"]]["state"] == "succeeded"  # another module ran beside it
    assert session.progress(second["id"])[0].message == f"queued behind {first['id']} (optimize)"

    assert await session.command("hiera.cancelJob", second["id"]) == {"cancelled": True}
    assert await session.command("hiera.cancelJob", first["id"]) == {"cancelled": True}
    assert await session.command("hiera.cancelJob", "job-999") == {"cancelled": False}
    await _wait_for(lambda: sum(m.message == "HIERA optimize Slow: cancelled" for m in session.client.messages) == 1)
    await session.message(lambda m: m.message == "HIERA optimize Slow: cancelled before it started")
    states = [job["state"] for job in await session.command("hiera.listJobs")]
    assert states == [CANCELLED, CANCELLED, "succeeded"]


async def test_a_queued_job_starts_when_the_module_is_free(start_server):
    session = await start_server()
    uri = session.workspace.uri("models.py")
    await session.command("hiera.profile", uri, "Model")
    await session.command("hiera.optimize", uri, "Model")
    await session.job_message("optimize", "Model")
    assert [argv[0] for argv in session.workspace.job_argvs()] == ["profile", "optimize"]


async def test_crash_time_limit_oom_and_errors_end_with_clear_messages(start_server):
    session = await start_server(init_options={"jobTimeLimit": 2, "maxParallelJobs": 4})
    uri = session.workspace.uri("models.py")
    for name in ("Crash", "Hang", "Oom", "Broken", "Noisy"):
        await session.command("hiera.optimize", uri, name)

    crash = await session.job_message("optimize", "Crash")
    hang = await session.job_message("optimize", "Hang")
    oom = await session.job_message("optimize", "Oom")
    broken = await session.job_message("optimize", "Broken")
    noisy = await session.job_message("optimize", "Noisy")

    assert crash.type == types.MessageType.Error and "crashed (SIGSEGV)" in crash.message
    assert hang.message == "HIERA optimize Hang: stopped after the time limit of 2 s (setting hiera.jobTimeLimit)"
    assert "ran out of memory: MemoryError" in oom.message
    assert broken.message == ("HIERA optimize Broken: models.py:12: forward() raised RuntimeError: shapes do not "
                              "match (hint: make forward() run on the inputs)")
    assert noisy.type == types.MessageType.Info
    assert noisy.message.startswith("HIERA optimize Noisy: no improvement found: no candidate passed verification")
    assert "fused: output mismatch" in noisy.message
    assert any("something printed by user code" in log.message for log in session.client.log_messages)
    # ... and the server still serves.
    hover = await session.hover(session.open("models.py"), 4, 7)
    assert hover is not None and "HIERA · Model" in hover.contents.value


async def test_an_interpreter_that_does_not_exist_is_named_in_the_message(start_server):
    session = await start_server(init_options={"pythonPath": "/nonexistent/python3"})
    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Model")
    message = await session.job_message("optimize", "Model")
    assert message.type == types.MessageType.Error
    assert "could not start `/nonexistent/python3`" in message.message and "hiera.pythonPath" in message.message


async def test_bad_command_arguments_are_request_errors(start_server):
    session = await start_server()
    for arguments in ([], [session.workspace.uri("nope.py"), "Model"], ["untitled:Untitled-1", "Model"]):
        try:
            await session.command("hiera.optimize", *arguments)
        except Exception as error:  # JsonRpcInvalidParams, over the wire
            assert "Invalid Params" in str(error) or "saved .py file" in str(error)
        else:
            raise AssertionError(f"hiera.optimize{arguments} should have failed")
    assert (await session.info())["activeJobs"] == 0


async def test_the_server_process_never_imports_torch(start_server):
    session = await start_server()
    session.open("elementwise_chain.py")
    session.open("kernels/scale.cu")
    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Model")
    await session.job_message("optimize", "Model")
    assert await session.hover(session.workspace.uri("elementwise_chain.py"), 16, 7)
    info = await session.info()
    assert info["torchLoaded"] is False
    assert info["pid"] != os.getpid()


async def test_shutting_down_the_server_ends_its_jobs(start_server):
    session = await start_server()
    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Slow")
    children_file = session.workspace.job_log.with_name("jobs.log.children")
    grandchild = int((await _wait_for(lambda: children_file.exists() and children_file.read_text())).split()[0])
    await session.shutdown()
    await _wait_for(lambda: not _alive(grandchild), timeout=10)

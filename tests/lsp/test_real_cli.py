"""The real `hiera` CLI on CPU behind the server: optimize to a confirmed edit, cancel, spec, profile."""

from __future__ import annotations

import asyncio
import os

import pytest
from lsprotocol import types

from hiera_core.propose.proposal_file import parse_header

pytestmark = pytest.mark.slow
CPU = {"budget": 1, "device": "cpu"}


def _processes_mentioning(text: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if text.encode() in handle.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found


async def test_optimize_on_cpu_to_a_confirmed_edit(start_server):
    session = await start_server(real_cli=True, settings=CPU)
    uri = session.open("elementwise_chain.py")
    [optimize] = [a for a in await session.code_actions(uri, 16, 7) if a.title == "HIERA: Optimize this module"]
    job = await session.command(optimize.command.command, *optimize.command.arguments)
    message = await session.job_message("optimize", "Model", timeout=300)

    assert message.type == types.MessageType.Info, message.message
    if "no improvement found" in message.message:
        # Whether the speedup holds is a measurement (benchmarks/): a busy 2-core machine can lose
        # it in the fresh-process re-timing. Then the editor is told so, and nothing is edited.
        assert not session.edits.received and not (session.workspace.root / "elementwise_chain_hiera.py").exists()
        pytest.skip(f"the machine was too busy to confirm a speedup: {message.message}")
    assert "x faster" in message.message and "verification passed:" in message.message
    assert message.message.endswith("proposal in elementwise_chain_hiera.py")
    begin, *reports, end = session.progress(job["id"])
    stages = {report.message.split(":")[0] for report in reports}
    assert {"spec", "plan", "implement", "verify", "profile", "propose"} <= stages
    assert end.message == message.message

    [request] = session.edits.received
    assert request.edit.change_annotations["hiera.proposal"].needs_confirmation
    proposal = session.workspace.text("elementwise_chain_hiera.py")
    header = parse_header(proposal)
    assert header.reference_class == "Model" and header.verified()
    assert "class ModelNew" in proposal
    assert session.client.shown_documents[-1].uri == session.workspace.uri("elementwise_chain_hiera.py")

    items = await session.pushed(session.open("elementwise_chain_hiera.py"))
    codes = {item.code for item in items}
    assert "HL204" in codes and not codes & {"HC201", "HC202", "HC203"}
    hover = await session.hover(uri, 16, 7)
    assert "Best proposal: **" in hover.contents.value
    assert (await session.info())["torchLoaded"] is False


async def test_cancel_a_real_job_leaves_no_process_behind(start_server):
    session = await start_server(real_cli=True, settings=CPU)
    job = await session.command("hiera.optimize", session.workspace.uri("elementwise_chain.py"), "Model")

    async def spec_started():
        while not any(getattr(r, "message", "").startswith("spec") for r in session.progress(job["id"])):
            await asyncio.sleep(0.1)
    await asyncio.wait_for(spec_started(), 120)
    assert _processes_mentioning(str(session.workspace.root))
    session.client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=f"hiera/{job['id']}"))
    message = await session.job_message("optimize", "Model", timeout=30)

    assert message.message == "HIERA optimize Model: cancelled"
    for _ in range(50):
        if not _processes_mentioning(str(session.workspace.root)):
            break
        await asyncio.sleep(0.1)
    assert _processes_mentioning(str(session.workspace.root)) == []
    assert session.edits.received == []


async def test_show_spec_and_profile_with_the_real_cli(start_server):
    session = await start_server(real_cli=True, settings=CPU)
    uri = session.open("models.py")
    [spec] = [a for a in await session.code_actions(uri, 4, 7) if a.title == "HIERA: Show contract spec"]
    await session.command(spec.command.command, *spec.command.arguments)
    message = await session.job_message("spec", "Model", timeout=180)

    shown = session.client.shown_documents[-1].uri
    assert shown.endswith("/spec.txt") and message.message.endswith(shown.removeprefix("file://"))
    assert open(shown.removeprefix("file://")).read().startswith(f"Task {session.workspace.path('models.py')}::Model")

    await session.command("hiera.profile", uri, "Model")
    message = await session.job_message("profile", "Model", timeout=180)
    assert message.type == types.MessageType.Info and " ms on " in message.message
    hover = await session.hover(uri, 4, 7)
    assert "Last profile: **" in hover.contents.value

"""Part 5: CUDA static analysis and contract diagnostics, pushed or pulled (never both)."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from hiera_core.index_entry import LastRun, VerificationFailure
from hiera_core.store import Store, task_key

CU = "kernels/scale.cu"
KERNEL_LINE = 2  # `/* é 😀 */ __global__ void scale_kernel(const float* x, ...`


def _codes(items) -> list[str]:
    return sorted(str(item.code) for item in items)


def _edit(session, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
    session.client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=start[0], character=start[1]),
                              end=types.Position(line=end[0], character=end[1])), text=text)]))


def _select_restrict_hints(session) -> None:
    """HC115 (a hint on the kernel's line, after its wide characters) runs only when selected."""
    session.workspace.path("kernels/pyproject.toml").write_text('[tool.hiera.check]\nselect = ["HC1"]\n')


async def test_cuda_findings_are_pushed_with_utf16_columns(start_server):
    session = await start_server("push")
    _select_restrict_hints(session)
    uri = session.open(CU)
    items = await session.pushed(uri)

    assert {"HC101", "HC110", "HC115"} <= set(_codes(items))
    restrict_x = next(item for item in items if item.code == "HC115" and "'x'" in item.message)
    line = session.workspace.text(CU).splitlines()[KERNEL_LINE]
    # é is one UTF-16 unit, 😀 two: one more unit than characters before `const float* x`.
    start = line.index("const float* x") + 1
    assert restrict_x.range == types.Range(start=types.Position(line=KERNEL_LINE, character=start),
                                           end=types.Position(line=KERNEL_LINE, character=start + 14))
    assert restrict_x.severity == types.DiagnosticSeverity.Information and restrict_x.source == "hiera"
    assert "declare it `const float* __restrict__ x`" in restrict_x.message
    assert (await session.info())["positionEncoding"] == "utf-16"


async def test_utf8_columns_when_the_client_negotiates_utf8(start_server):
    session = await start_server("push", encodings=["utf-8", "utf-16"])
    _select_restrict_hints(session)
    uri = session.open(CU)
    items = await session.pushed(uri)
    restrict_x = next(item for item in items if item.code == "HC115" and "'x'" in item.message)
    line = session.workspace.text(CU).splitlines()[KERNEL_LINE]
    assert restrict_x.range.start.character == len(line[:line.index("const float* x")].encode("utf-8"))
    assert (await session.info())["positionEncoding"] == "utf-8"


async def test_a_pulling_client_gets_reports_and_no_pushes(start_server):
    session = await start_server("pull")
    assert session.server_capabilities.diagnostic_provider.identifier == "hiera"
    uri = session.open(CU)
    items = await session.pulled(uri)
    await asyncio.sleep(0.5)  # long enough for a push to have arrived, were one sent

    assert _codes(items) == ["HC101", "HC110"]
    assert session.client.diagnostics == {}
    assert (await session.info())["diagnostics"] == "pull"


async def test_neovim_011_is_pushed_to_since_it_cannot_be_asked_to_refresh(start_server):
    session = await start_server("neovim")
    assert session.server_capabilities.diagnostic_provider is None
    items = await session.pushed(session.open(CU))
    assert _codes(items) == ["HC101", "HC110"]
    assert (await session.info())["diagnostics"] == "push"


async def test_missing_inputs_and_directive_problems_on_modules(start_server):
    session = await start_server("push")
    uri = session.open("block.py")
    items = await session.pushed(uri)

    missing = [item for item in items if item.code == "HL203"]
    assert len(missing) == 1 and missing[0].range.start.line == 9  # class NoInputs, not Block
    assert missing[0].message.startswith(
        "HIERA cannot run NoInputs: it has no inputs\nadd `# hiera: inputs=make_inputs")
    assert any(item.code == "HC204" and "missing_init" in item.message for item in items)
    examples = await session.pushed(session.open("elementwise_chain.py"))
    assert examples == []  # a KernelBench file says nothing


async def test_run_results_stale_proposal_and_proposal_assumptions(start_server):
    session = await start_server("push")
    uri = session.open("models.py")
    await session.pushed(uri)
    await session.command("hiera.optimize", uri, "Model")
    await session.job_message("optimize", "Model")

    # The finished run's failures appear on the module without any edit (pushed again after the job).
    items = await session.pushed(uri, lambda items: any(item.code == "HL202" for item in items))
    [failure] = [item for item in items if item.code == "HL202"]
    assert failure.severity == types.DiagnosticSeverity.Information  # the run still found a proposal
    assert ("candidate tiled failed no_mutation: input 0 was modified\nreproduce: seed 3, shape (16, 64)"
            in failure.message)
    assert failure.range.start.line == 4

    # Editing the reference makes the proposal stale.
    _edit(session, uri, 2, (10, 0), (10, 0), "        x = x + 0\n")
    items = await session.pushed(uri, lambda items: any(item.code == "HL201" for item in items))
    [stale] = [item for item in items if item.code == "HL201"]
    assert stale.severity == types.DiagnosticSeverity.Warning and stale.range.start.line == 4
    assert stale.related_information[0].location.uri == session.workspace.uri("models_hiera.py")

    # The proposal lists its contract assumptions; a hand edit is flagged.
    proposal_uri = session.open("models_hiera.py")
    items = await session.pushed(proposal_uri)
    [assumption] = [item for item in items if item.code == "HL204"]
    assert assumption.message == "proposal assumes: x: float32[16, 64] contiguous"
    assert session.workspace.text("models_hiera.py").splitlines()[assumption.range.start.line].startswith("# contract:")
    assert not any(item.code == "HC202" for item in items)
    last_line = len(session.workspace.text("models_hiera.py").splitlines())
    _edit(session, proposal_uri, 2, (last_line, 0), (last_line, 0), "# tweak\n")
    items = await session.pushed(proposal_uri, lambda items: any(item.code == "HC202" for item in items))
    actions = await session.code_actions(proposal_uri, 3, 0, diagnostics=[i for i in items if i.code == "HC202"])
    assert [a.kind for a in actions if a.title == "HIERA: Re-verify proposal"] == ["quickfix"]


async def test_pull_clients_are_asked_to_refresh_after_a_job(start_server):
    session = await start_server("pull")
    uri = session.open("models.py")
    assert not any(item.code == "HL202" for item in await session.pulled(uri))
    await session.command("hiera.optimize", uri, "Model")
    await session.job_message("optimize", "Model")

    assert session.client.diagnostic_refresh_count >= 1
    assert any(item.code == "HL202" for item in await session.pulled(uri))
    assert session.client.diagnostics == {}


async def test_closing_a_document_clears_its_pushed_diagnostics(start_server):
    session = await start_server("push")
    uri = session.open(CU)
    await session.pushed(uri, lambda items: len(items) > 0)
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await session.pushed(uri, lambda items: not items) == []


async def test_runs_outside_the_editor_are_picked_up_through_file_watching(start_server):
    session = await start_server("push")
    await session.info()  # answered once the server is set up
    [registration] = session.registrations
    assert registration.method == "workspace/didChangeWatchedFiles"
    assert [w["globPattern"] for w in registration.register_options["watchers"]] == [
        "**/.hiera/index/*.json", "**/*_hiera.py"]
    uri = session.open("models.py")
    await session.pushed(uri)

    # As if `hiera optimize` had run in a terminal: the index changes on disk.
    store = Store(session.workspace.root)
    path = session.workspace.path("models.py")
    store.update_index(task_key(store.workspace, path, "Model"), file=str(path), class_name="Model",
                       last_run=LastRun(id="r1", status="no_improvement"),
                       verification_failures=[VerificationFailure(candidate="c", check="determinism",
                                                                  message="differs", reproducer="seed 1")])
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=session.workspace.uri(".hiera/index/models.py__Model.json"),
                        type=types.FileChangeType.Changed)]))
    items = await session.pushed(uri, lambda items: any(item.code == "HL202" for item in items))
    [failure] = [item for item in items if item.code == "HL202"]
    assert failure.severity == types.DiagnosticSeverity.Warning  # the run found nothing: worth a warning


async def test_a_large_cu_file_is_analysed_once_typing_pauses_and_on_its_latest_text(start_server):
    session = await start_server("push")
    block = session.workspace.text(CU)
    text = block * (300_000 // len(block.encode()) + 1)  # over 256 KB: analysed in a child process
    uri = session.open("kernels/large.cu", text)
    first = await session.pushed(uri, timeout=60)
    unguarded = _codes(first).count("HC101")
    assert unguarded == text.count("y[i] = 2.0f * x[i];")

    publishes = []  # each push replaces the client's list: count them
    initial = session.client.diagnostics[uri]

    async def watch():
        while True:
            if session.client.diagnostics[uri] is not (publishes or [initial])[-1]:
                publishes.append(session.client.diagnostics[uri])
            await asyncio.sleep(0.005)

    watcher = asyncio.get_running_loop().create_task(watch())
    for version in range(2, 7):  # a burst of typing, each key well within the pause
        _edit(session, uri, version, (4, 0), (4, 0), "/")
    items = await session.pushed(uri, lambda items: _codes(items).count("HC101") == unguarded - 1, timeout=60)
    await asyncio.sleep(1.0)
    watcher.cancel()
    assert len(publishes) == 1, [_codes(each).count("HC101") for each in publishes]  # the latest text only
    assert _codes(publishes[0]) == _codes(items)

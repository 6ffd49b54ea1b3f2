"""Part 4: the proposal arrives as an edit that needs confirmation, then is shown; apply / re-verify later."""

from __future__ import annotations

import json

from lsprotocol import types


def _run_proposal(session) -> str:
    record = json.loads(next((session.workspace.root / ".hiera" / "index").glob("models.py__Model.json")).read_text())
    return record["proposal"]["path"]


async def test_optimize_ends_with_a_confirmed_edit_creating_the_proposal_and_shows_it(start_server):
    session = await start_server("push")
    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Model")
    message = await session.job_message("optimize", "Model")

    [request] = session.edits.received
    create, edit = request.edit.document_changes
    target_uri = session.workspace.uri("models_hiera.py")
    assert isinstance(create, types.CreateFile) and create.uri == target_uri
    assert edit.text_document.uri == target_uri and edit.text_document.version is None
    [text_edit] = edit.edits
    assert isinstance(text_edit, types.AnnotatedTextEdit)
    annotation = request.edit.change_annotations[text_edit.annotation_id]
    assert annotation.needs_confirmation is True and "HIERA proposal for Model" in annotation.label
    proposal = session.workspace.text("models_hiera.py")
    assert proposal == open(_run_proposal(session), encoding="utf-8").read()
    assert "class ModelNew(Model)" in proposal
    assert [shown.uri for shown in session.client.shown_documents] == [target_uri]
    assert message.message == ("HIERA optimize Model: 2.50x faster (custom_cuda, fused pointwise), 2.500 ms -> "
                               "1.000 ms on fake CPU; verification passed: 9 checks, 5 input sets, max error "
                               "1.2e-07; proposal in models_hiera.py")


async def test_an_existing_proposal_open_in_the_editor_is_replaced_whole_at_its_version(start_server):
    session = await start_server("push")
    old = "# an older proposal\nclass ModelNew:\n    pass\n"
    session.workspace.path("models_hiera.py").write_text(old)
    session.open("models_hiera.py", old, version=7)
    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Model")
    await session.job_message("optimize", "Model")

    [request] = session.edits.received
    [edit] = request.edit.document_changes
    assert edit.text_document.version == 7
    assert edit.edits[0].range == types.Range(start=types.Position(line=0, character=0),
                                              end=types.Position(line=3, character=0))
    assert "class ModelNew(Model)" in session.workspace.text("models_hiera.py")


async def test_neovim_gets_plain_edits_and_a_declined_edit_leaves_the_proposal_in_the_store(start_server):
    session = await start_server("neovim", accept_edits=False)
    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Model")
    message = await session.job_message("optimize", "Model")

    [request] = session.edits.received
    create, edit = request.edit.document_changes
    assert isinstance(create, types.CreateFile)
    assert type(edit.edits[0]) is types.TextEdit  # Neovim 0.11 has no changeAnnotationSupport
    assert request.edit.change_annotations is None
    assert message.message.endswith(f"the edit was declined, the proposal stays in {_run_proposal(session)}")
    assert session.client.shown_documents == []
    assert not session.workspace.path("models_hiera.py").exists()

    # Later, "Apply proposal" on the module offers the same edit again.
    uri = session.open("models.py")
    actions = await session.code_actions(uri, 9, 8, only=["refactor.hiera.apply"])
    [apply] = actions
    assert apply.title == "HIERA: Apply proposal (2.50x) -> models_hiera.py"
    assert apply.edit.document_changes[1].edits[0].new_text == open(_run_proposal(session)).read()


async def test_apply_proposal_from_the_run_file_and_by_command(start_server):
    session = await start_server("push", accept_edits=False)
    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Model")
    await session.job_message("optimize", "Model")
    run_file = _run_proposal(session)

    actions = await session.code_actions(session.open(run_file.removeprefix(str(session.workspace.root) + "/")), 0, 0)
    assert [a.title for a in actions] == ["HIERA: Apply proposal (2.50x) -> models_hiera.py"]

    session.edits.accept = True
    result = await session.command("hiera.applyProposal", session.workspace.uri("models.py"), "Model")
    assert result == {"applied": True, "target": str(session.workspace.path("models_hiera.py"))}
    assert session.workspace.text("models_hiera.py") == open(run_file).read()
    # Applied: nothing left to apply.
    actions = await session.code_actions(session.open("models.py"), 9, 8, only=["refactor.hiera.apply"])
    assert actions == []


async def test_reverify_the_proposal_from_its_file(start_server):
    session = await start_server("push")
    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Model")
    await session.job_message("optimize", "Model")
    proposal_uri = session.open("models_hiera.py")

    actions = await session.code_actions(proposal_uri, 20, 0)
    [verify] = [a for a in actions if a.title == "HIERA: Re-verify proposal"]
    assert verify.kind == "refactor.hiera.verify"
    await session.command(verify.command.command, *verify.command.arguments)
    message = await session.job_message("verify", "Model")

    assert message.message == "HIERA verify Model: verification passed: 9 checks, 5 input sets, max error 1.2e-07"
    argv = session.workspace.job_argvs()[-1]
    assert argv[:3] == ["verify", f"{session.workspace.path('models.py')}::Model",
                        str(session.workspace.path("models_hiera.py"))]


async def test_a_proposal_buffer_with_an_extra_final_newline_is_applied_and_judges_staleness(start_server):
    # Neovim applies the edit into a new buffer and writes one more final newline ('fixeol'); the
    # buffer may never be written at all. Neither may re-offer the proposal or hide staleness.
    session = await start_server("neovim", accept_edits=False)
    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Model")
    await session.job_message("optimize", "Model")
    proposal_text = open(_run_proposal(session), encoding="utf-8").read()
    assert not session.workspace.path("models_hiera.py").exists()
    proposal_uri = session.open("models_hiera.py", proposal_text + "\n")

    items = await session.pushed(proposal_uri)
    assert not any(item.code == "HC202" for item in items)
    uri = session.open("models.py")
    assert await session.code_actions(uri, 9, 8, only=["refactor.hiera.apply"]) == []

    session.client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=10, character=0), end=types.Position(line=10, character=0)),
            text="        x = x + 0\n")]))
    items = await session.pushed(uri, lambda items: any(item.code == "HL201" for item in items))
    [stale] = [item for item in items if item.code == "HL201"]
    assert stale.related_information[0].location.uri == proposal_uri


async def test_the_vscode_extension_is_asked_to_preview_reference_against_proposal(start_server):
    # VS Code's Refactor Preview shows a created file unticked, diffed against an empty file; the
    # extension shows the reference and the proposal instead and applies on one confirmation.
    session = await start_server("vscode-extension", accept_edits=False)
    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Model")
    message = await session.job_message("optimize", "Model")
    run_text = open(_run_proposal(session), encoding="utf-8").read()

    assert session.edits.received == []
    [preview] = session.edits.previews
    assert preview["reference"] == session.workspace.uri("models.py")
    assert preview["target"] == session.workspace.uri("models_hiera.py")
    assert preview["text"] == run_text and "HIERA proposal for Model (2.50x)" in preview["label"]
    assert "the edit was declined" in message.message

    uri = session.open("models.py")
    [apply] = await session.code_actions(uri, 9, 8, only=["refactor.hiera.apply"])
    assert apply.edit is None and apply.command.command == "hiera.applyProposal"
    session.edits.accept = True
    assert (await session.command(apply.command.command, *apply.command.arguments))["applied"] is True
    assert len(session.edits.previews) == 2 and session.edits.received == []
    assert session.workspace.text("models_hiera.py") == run_text
    assert [shown.uri for shown in session.client.shown_documents] == [session.workspace.uri("models_hiera.py")]

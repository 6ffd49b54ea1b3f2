"""Part 2: code actions on module classes and kernels, and what running them does."""

from __future__ import annotations

from lsprotocol import types

MODULE_TITLES = ["HIERA: Optimize this module", "HIERA: Profile this module", "HIERA: Show contract spec"]


async def test_module_actions_anywhere_in_a_module_class(start_server):
    session = await start_server()
    uri = session.open("models.py")

    on_name = await session.code_actions(uri, 4, 7)
    in_body = await session.code_actions(uri, 10, 12)
    in_subclass = await session.code_actions(uri, 14, 3)
    outside = await session.code_actions(uri, 38, 4)  # in get_inputs()

    assert [a.title for a in on_name] == MODULE_TITLES
    assert [a.kind for a in on_name] == ["refactor.hiera.optimize", "refactor.hiera.profile", "refactor.hiera.spec"]
    assert [(a.command.command, list(a.command.arguments)) for a in on_name] == [
        ("hiera.optimize", [uri, "Model"]), ("hiera.profile", [uri, "Model"]), ("hiera.showSpec", [uri, "Model"])]
    assert [a.title for a in in_body] == MODULE_TITLES
    assert in_subclass[0].command.arguments[1] == "Slow"
    assert outside == []


async def test_the_only_filter_of_the_request_is_honoured(start_server):
    session = await start_server()
    uri = session.open("models.py")
    assert [a.title for a in await session.code_actions(uri, 5, 0, only=["refactor.hiera.profile"])] == [
        "HIERA: Profile this module"]
    assert len(await session.code_actions(uri, 5, 0, only=["refactor"])) == 3
    assert await session.code_actions(uri, 5, 0, only=["quickfix"]) == []


async def test_a_half_typed_file_still_has_its_module_actions(start_server):
    session = await start_server()
    text = session.workspace.text("models.py").replace("return torch.relu(x * self.scale)",
                                                       "return torch.relu(x * self.")
    uri = session.open("models.py", text)
    assert [a.title for a in await session.code_actions(uri, 4, 7)] == MODULE_TITLES


async def test_optimize_a_kernel_through_the_module_that_loads_its_file(start_server):
    session = await start_server()
    uri = session.open("kernels/scale.cu")
    [action] = await session.code_actions(uri, 4, 8)
    assert action.title == "HIERA: Optimize the module that launches `scale_kernel`"
    assert await session.code_actions(uri, 9, 0) == []  # a host function

    result = await session.command(action.command.command, *action.command.arguments)
    assert result["found"] is True
    assert result["module"] == f"{session.workspace.path('ext_model.py')}::Scaler"
    await session.job_message("optimize", "Scaler")
    assert session.workspace.job_argvs()[-1][:2] == ["optimize", f"{session.workspace.path('ext_model.py')}::Scaler"]


async def test_a_kernel_nothing_loads_gets_a_clear_message(start_server, workspace):
    (workspace.root / "kernels" / "lonely.cu").write_text("__global__ void lonely(float* y) { y[0] = 1.0f; }\n")
    session = await start_server()
    uri = session.open("kernels/lonely.cu")
    [action] = await session.code_actions(uri, 0, 20)
    result = await session.command(action.command.command, *action.command.arguments)
    message = await session.message(lambda m: "lonely" in m.message)

    assert result["found"] is False
    assert message.type == types.MessageType.Warning
    assert message.message.startswith(f"HIERA: no module in {workspace.root} loads kernel `lonely` from lonely.cu.")
    assert "load_inline" in message.message
    assert session.workspace.job_argvs() == []


async def test_an_unsaved_buffer_is_pointed_out_when_a_job_starts(start_server):
    session = await start_server()
    uri = session.open("models.py", session.workspace.text("models.py") + "\n# unsaved\n")
    await session.command("hiera.profile", uri, "Model")
    warning = await session.message(lambda m: m.type == types.MessageType.Warning)
    assert warning.message == ("HIERA works on models.py as saved on disk; the unsaved changes in the editor "
                               "are not included")

"""Part 7: settings from initializationOptions and workspace/configuration reach the jobs."""

from __future__ import annotations

import json

from lsprotocol import types


async def test_initialization_options_then_workspace_configuration(start_server, monkeypatch):
    monkeypatch.delenv("HIERA_MODEL", raising=False)
    session = await start_server(init_options={"budget": 2, "device": "cpu", "model": "init-model"},
                                 settings={"model": "qwen-coder", "baseUrl": "http://localhost:8000/v1"})
    settings = (await session.info())["settings"]
    assert (settings["budget"], settings["device"], settings["model"], settings["baseUrl"]) == (
        2, "cpu", "qwen-coder", "http://localhost:8000/v1")

    await session.command("hiera.optimize", session.workspace.uri("models.py"), "Model")
    await session.job_message("optimize", "Model")
    [job] = session.workspace.jobs_started()
    assert job["argv"][2:] == ["--events", "--budget", "2", "--device", "cpu"]
    # The lowest-precedence channel: the environment and pyproject.toml still win over the editor.
    assert json.loads(job["HIERA_EDITOR_SETTINGS"]) == {"model": "qwen-coder", "baseUrl": "http://localhost:8000/v1"}
    assert job["HIERA_MODEL"] is None


async def test_configuration_changes_apply_to_the_next_job(start_server):
    session = await start_server(settings={"budget": 3})
    session.client.set_configuration({"hiera": {"budget": 5, "device": "cuda", "jobTimeLimit": 90}})
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(50):
        settings = (await session.info())["settings"]
        if settings["budget"] == 5:
            break
    assert (settings["budget"], settings["device"], settings["jobTimeLimit"]) == (5, "cuda", 90.0)

    await session.command("hiera.profile", session.workspace.uri("models.py"), "Model")
    await session.job_message("profile", "Model")
    assert session.workspace.job_argvs()[-1][2:] == ["--events", "--device", "cuda"]


async def test_invalid_settings_are_reported_and_the_rest_still_applies(start_server):
    session = await start_server(settings={"budget": -1, "device": "tpu", "jobTimeLimit": 60})
    problems = [m.message for m in session.client.messages if m.message.startswith("HIERA settings")]
    for _ in range(50):
        if len(problems) == 2:
            break
        await session.info()
        problems = [m.message for m in session.client.messages if m.message.startswith("HIERA settings")]
    assert problems == ["HIERA settings: hiera.budget: must be an integer from 1 to 64, got -1 (ignored)",
                        'HIERA settings: hiera.device: must be "cuda" or "cpu" (or empty), got \'tpu\' (ignored)']
    settings = (await session.info())["settings"]
    assert (settings["budget"], settings["device"], settings["jobTimeLimit"]) == (None, "", 60.0)


def test_a_cleared_setting_returns_to_its_default():
    from hiera_lsp.settings import Settings

    configured, problems = Settings().merged({"budget": 6, "model": "m"})
    assert (configured.budget, configured.model, problems) == (6, "m", [])
    cleared, problems = configured.merged({"hiera": {"budget": None, "model": None}})
    assert (cleared.budget, cleared.model, problems) == (None, "", [])
    kept, _ = configured.merged({"device": "cpu"})  # keys not sent are left alone
    assert (kept.budget, kept.model) == (6, "m")


def test_the_editor_takes_the_budgets_the_cli_takes():
    from click.testing import CliRunner

    from hiera_core.cli.main import main
    from hiera_lsp.settings import Settings

    for budget in (0, 65):
        _, problems = Settings().merged({"budget": budget})
        assert problems == [f"hiera.budget: must be an integer from 1 to 64, got {budget}"]
        refused = CliRunner().invoke(main, ["optimize", "models.py", "--budget", str(budget)])
        assert refused.exit_code == 2 and "1<=x<=64" in refused.output
    assert Settings().merged({"budget": 64}) == (Settings(budget=64), [])

"""Configuration precedence: CLI flags > environment > [tool.hiera] > editor settings."""

import json

import pytest

from hiera_core.errors import HieraError
from hiera_core.llm.config import NO_KEY_PLACEHOLDER, Overrides, resolve


def write_pyproject(folder, body: str):
    (folder / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.hiera]\n" + body + "\n"
                                           "[tool.hiera.check]\nignore = ['HC115']\n")
    return folder


EDITOR = json.dumps({"model": "editor-model", "baseUrl": "http://editor:1/v1", "planModel": "editor-planner"})


def test_each_layer_overrides_the_one_below(tmp_path):
    folder = write_pyproject(tmp_path, 'model = "toml-model"\nbase-url = "http://toml:2/v1"\nsamples = 3')
    env = {"HIERA_EDITOR_SETTINGS": EDITOR}
    only_editor = resolve(Overrides(), None, env)
    assert (only_editor.model, only_editor.base_url, only_editor.plan_model) == \
           ("editor-model", "http://editor:1/v1", "editor-planner")
    assert only_editor.sources["model"] == "editor settings"

    toml = resolve(Overrides(), folder, env)
    assert (toml.model, toml.base_url, toml.samples) == ("toml-model", "http://toml:2/v1", 3)
    assert toml.plan_model == "editor-planner"  # not set above the editor layer: the editor's stays
    assert toml.sources["model"] == "pyproject.toml [tool.hiera]"

    env.update(HIERA_MODEL="env-model", OPENAI_BASE_URL="http://env:3/v1/")
    from_env = resolve(Overrides(), folder, env)
    assert (from_env.model, from_env.base_url) == ("env-model", "http://env:3/v1")
    assert from_env.samples == 3 and from_env.sources["model"] == "environment"

    flags = resolve(Overrides(model="cli-model", base_url="http://cli:4/v1", samples=5), folder, env)
    assert (flags.model, flags.base_url, flags.samples) == ("cli-model", "http://cli:4/v1", 5)
    assert flags.sources == {**flags.sources, "model": "CLI flags", "base_url": "CLI flags", "samples": "CLI flags"}
    assert "HIERA: model cli-model at http://cli:4/v1 (from CLI flags)" in flags.mode_line()


def test_no_model_anywhere_is_offline_mode_in_one_line(tmp_path):
    config = resolve(Overrides(), write_pyproject(tmp_path, "samples = 2"), {})
    assert not config.enabled
    assert config.mode_line() == "HIERA: no model configured, offline expert mode"


def test_the_key_comes_from_the_environment_only_and_is_never_shown(tmp_path):
    folder = write_pyproject(tmp_path, 'model = "m"\nbase-url = "http://local:8000/v1"\napi-key = "sk-in-toml"')
    config = resolve(Overrides(), folder, {"OPENAI_API_KEY": "sk-env-secret"})
    assert config.api_key == "sk-env-secret"
    assert "sk-env-secret" not in repr(config) and "sk-env-secret" not in json.dumps(config.public())
    assert config.public()["api_key"] == "set (from OPENAI_API_KEY)"
    assert any("api-key is ignored" in warning for warning in config.warnings)
    # A local server needs no key; the client still gets a placeholder.
    assert resolve(Overrides(), folder, {}).api_key == NO_KEY_PLACEHOLDER


def test_credentials_in_the_base_url_are_never_shown(tmp_path):
    config = resolve(Overrides(model="m", base_url="https://user:s3cret@proxy.example:8443/v1"), None, {})
    assert config.base_url == "https://user:s3cret@proxy.example:8443/v1"  # the client still gets them
    assert config.endpoint() == "https://proxy.example:8443/v1" and "s3cret" not in config.mode_line()
    assert "s3cret" not in json.dumps(config.public())


def test_openai_without_a_key_is_a_config_error():
    with pytest.raises(HieraError, match="OPENAI_API_KEY is not set") as caught:
        resolve(Overrides(model="gpt-x"), None, {})
    assert caught.value.kind == "config"


@pytest.mark.parametrize("body, env, message", [
    ("samples = 0", {}, "samples must be a positive integer"),
    ('base-url = "localhost:8000"', {}, "base_url must be an http:// or https:// URL"),
    ("time-budget = true", {}, "time_budget_s must be a number"),
    ("", {"HIERA_EDITOR_SETTINGS": "{not json"}, "HIERA_EDITOR_SETTINGS is not valid JSON"),
    ("", {"HIERA_EDITOR_SETTINGS": "[1]"}, "must be a JSON object"),
])
def test_bad_values_name_their_layer(tmp_path, body, env, message):
    with pytest.raises(HieraError, match=message):
        resolve(Overrides(), write_pyproject(tmp_path, body), env)


def test_unknown_keys_warn_and_subtables_belong_to_other_tools(tmp_path):
    config = resolve(Overrides(), write_pyproject(tmp_path, 'modle = "typo"'), {})
    assert config.warnings == [f"{tmp_path / 'pyproject.toml'}: unknown [tool.hiera] key 'modle' (known: model, "
                               "plan-model, base-url, samples, token-budget, time-budget, concurrency, "
                               "request-timeout, max-retries, temperature, max-answer-tokens, reflection, region-chains, "
                               "budget, device, timeout)"]


def test_editor_settings_may_be_the_whole_settings_object():
    settings = json.dumps({"hiera": {"model": "m", "baseUrl": "", "budget": 3}})
    config = resolve(Overrides(), None, {"HIERA_EDITOR_SETTINGS": settings, "OPENAI_API_KEY": "k"})
    assert config.model == "m" and config.base_url is None  # empty values are not settings


def test_tool_hiera_gives_the_runs_budget_device_and_timeout_below_the_flags(tmp_path):
    from hiera_core.llm.config import run_settings

    folder = write_pyproject(tmp_path, 'budget = 2\ndevice = "cpu"\ntimeout = 90\nmodel = "m"')
    settings = run_settings(folder)
    assert (settings.budget, settings.device, settings.timeout_s) == (2, "cpu", 90.0)
    assert settings.sources == dict.fromkeys(("budget", "device", "timeout_s"), "pyproject.toml [tool.hiera]")
    flagged = run_settings(folder, budget=6, timeout_s=30.0)
    assert (flagged.budget, flagged.device, flagged.timeout_s) == (6, "cpu", 30.0)
    assert (run_settings(None).budget, run_settings(None).device, run_settings(None).timeout_s) == (4, None, 600.0)
    # the run's keys are known keys of the table: no "unknown key" warning for them
    assert resolve(Overrides(), folder, {"OPENAI_API_KEY": "k"}).warnings == []


@pytest.mark.parametrize("body, message", [
    ('budget = 0', r"pyproject.toml \[tool.hiera\]: budget must be an integer from 1 to 64, got 0"),
    ('device = "gpu"', r"device must be \"cuda\" or \"cpu\", got 'gpu'"),
    ('timeout = "long"', r"timeout must be a positive number of seconds, got 'long'"),
    ('timeout = 0', r"timeout must be a positive number of seconds, got 0"),
])
def test_bad_run_settings_in_tool_hiera_name_the_key(tmp_path, body, message):
    from hiera_core.llm.config import run_settings

    with pytest.raises(HieraError, match=message):
        run_settings(write_pyproject(tmp_path, body))

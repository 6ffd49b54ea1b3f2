"""The Helix and Emacs configurations and client-config/README.md against what hiera-lsp implements."""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path

from hiera_lsp import code_actions, commands
from hiera_lsp.settings import SECTION, Settings

CLIENT_CONFIG = Path(__file__).resolve().parents[2] / "client-config"
SETTING_KEYS = {item.name for item in fields(Settings)}


def test_helix_starts_hiera_lsp_for_python_and_cuda():
    config = tomllib.loads((CLIENT_CONFIG / "helix" / "languages.toml").read_text())
    assert config["language-server"]["hiera"]["command"] == "hiera-lsp"
    languages = {language["name"]: language["language-servers"] for language in config["language"]}
    assert "hiera" in languages["python"]
    assert "hiera" in languages["cpp"]  # Helix's cpp language holds .cu and .cuh


def test_helix_settings_are_the_servers_under_its_section():
    # Helix sends `config` as initializationOptions and answers workspace/configuration("hiera")
    # with config.hiera: both must be settings the server takes without complaint.
    config = tomllib.loads((CLIENT_CONFIG / "helix" / "languages.toml").read_text())["language-server"]["hiera"]["config"]
    assert set(config) == {SECTION}
    assert set(config[SECTION]) <= SETTING_KEYS
    settings, problems = Settings().merged(config)
    assert problems == []
    assert settings.jobTimeLimit == config[SECTION]["jobTimeLimit"]


def test_emacs_calls_only_what_the_server_implements():
    source = (CLIENT_CONFIG / "emacs" / "hiera.el").read_text()
    named = set(re.findall(r'"(hiera\.[A-Za-z]+)"', source)) | set(re.findall(r'"(refactor\.hiera\.[a-z]+)"', source))
    assert named == {commands.LIST_JOBS, commands.CANCEL_JOB, code_actions.OPTIMIZE_KIND}
    default_settings = re.search(r"\(defcustom hiera-settings\s+'\(([^)]*)\)", source).group(1)
    keys = set(re.findall(r":(\w+)", default_settings))
    assert keys and keys <= SETTING_KEYS


def test_the_readme_documents_every_server_command_and_setting_and_each_editors_file(advertised_commands):
    readme = (CLIENT_CONFIG / "README.md").read_text()
    for command in advertised_commands:
        assert f"`{command}`" in readme, command
    for key in SETTING_KEYS:
        assert f"| `{key}` |" in readme, key
    for path in ("vscode/", "neovim/hiera.lua", "helix/languages.toml", "emacs/hiera.el"):
        assert f"`{path}`" in readme, path
        assert (CLIENT_CONFIG / path).exists(), path

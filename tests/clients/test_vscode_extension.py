"""The VS Code extension as packaged (.vsix) against what hiera-lsp implements.

Reads the .vsix named by $HIERA_VSIX, else the one `client-config/vscode/ci.sh` leaves next to
package.json. Without one the tests are skipped, unless $HIERA_VSIX is set (CI sets it), since
then a missing .vsix is a failed build. The extension's own modules are loaded from the unpacked
.vsix with node, so what is checked is what users install.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from dataclasses import MISSING, fields
from pathlib import Path

import pytest

from hiera_core.propose.proposal_file import proposal_path_for
from hiera_core.settings import BUDGET_MAX, BUDGET_MIN, DEVICES
from hiera_lsp import code_actions, commands, jobs, proposals
from hiera_lsp.documents import language_of
from hiera_lsp.settings import SECTION, Settings

REPO = Path(__file__).resolve().parents[2]
EXTENSION_SOURCE = REPO / "client-config" / "vscode"
ISSUE_COMMAND_TITLES = {"HIERA: Optimize module", "HIERA: Show proposal diff", "HIERA: Cancel job",
                        "HIERA: Check workspace"}


def _vsix_path() -> Path:
    if os.environ.get("HIERA_VSIX"):
        path = Path(os.environ["HIERA_VSIX"])
        assert path.is_file(), f"HIERA_VSIX={path} does not exist: the .vsix was not built"
        return path
    package = json.loads((EXTENSION_SOURCE / "package.json").read_text())
    path = EXTENSION_SOURCE / f"{package['name']}-{package['version']}.vsix"
    if not path.is_file():
        pytest.skip(f"no {path.name}: run client-config/vscode/ci.sh to build it (needs node 20 and npm)")
    return path


@pytest.fixture(scope="module")
def extension(tmp_path_factory) -> Path:
    """The unpacked .vsix's extension/ folder."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    unpacked = tmp_path_factory.mktemp("vsix")
    with zipfile.ZipFile(_vsix_path()) as archive:
        archive.extractall(unpacked)
    return unpacked / "extension"


@pytest.fixture(scope="module")
def manifest(extension) -> dict:
    return json.loads((extension / "package.json").read_text())


def node(extension: Path, script: str, *args: object):
    """Runs `script` with node in the unpacked extension; it prints one JSON value, returned here."""
    result = subprocess.run(["node", "-e", script, "--", *(json.dumps(arg) for arg in args)],
                            cwd=extension, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def protocol(extension) -> dict:
    return node(extension, "console.log(JSON.stringify(require('./src/protocol.js')))")


def test_the_four_commands_of_the_issue_are_contributed(manifest, protocol):
    contributed = manifest["contributes"]["commands"]
    assert {f"{command['category']}: {command['title']}" for command in contributed} == ISSUE_COMMAND_TITLES
    assert {command["command"] for command in contributed} == set(protocol["COMMANDS"].values())


def test_contributed_command_ids_differ_from_the_servers(manifest, advertised_commands):
    # vscode-languageclient registers each id of executeCommandProvider as a VS Code command; the
    # same id contributed by the extension would make that registration, and the client, fail.
    ids = {command["command"] for command in manifest["contributes"]["commands"]}
    assert ids.isdisjoint(advertised_commands)


def test_every_server_command_the_extension_sends_is_advertised(protocol, advertised_commands):
    assert set(protocol["SERVER_COMMANDS"].values()) <= advertised_commands
    assert protocol["SERVER_COMMANDS"] == {"listJobs": commands.LIST_JOBS, "cancelJob": commands.CANCEL_JOB}


def test_the_extension_reads_the_servers_optimize_actions_and_job_states(protocol):
    assert protocol["OPTIMIZE_ACTION_KIND"] == code_actions.OPTIMIZE_KIND
    assert set(protocol["ACTIVE_JOB_STATES"]) == {jobs.QUEUED, jobs.RUNNING}
    assert protocol["SETTINGS_SECTION"] == SECTION


def test_activation_events_are_the_languages_the_server_analyses(manifest, protocol):
    assert manifest["activationEvents"] == [f"onLanguage:{language}" for language in protocol["LANGUAGES"]]
    assert protocol["LANGUAGES"] == ["python", "cuda-cpp"]
    for language in protocol["LANGUAGES"]:
        assert language_of(None, language) is not None, f"the server ignores {language} documents"


def test_contributed_settings_are_the_servers_plus_the_launch_settings(manifest, protocol):
    properties = manifest["contributes"]["configuration"]["properties"]
    server_keys = [item.name for item in fields(Settings)]
    assert protocol["SERVER_SETTINGS"] == server_keys
    assert set(properties) == {f"{SECTION}.{key}" for key in server_keys + protocol["CLIENT_SETTINGS"]}
    assert set(protocol["CLIENT_SETTINGS"]) == {"serverPath", "trace.server"}


def test_setting_defaults_and_values_agree_with_the_server(manifest):
    properties = manifest["contributes"]["configuration"]["properties"]
    for item in fields(Settings):
        if item.name == "pythonPath":  # the server's own interpreter; the extension's "" means the same
            assert properties["hiera.pythonPath"]["default"] == ""
            continue
        default = item.default if item.default is not MISSING else item.default_factory()
        assert properties[f"hiera.{item.name}"]["default"] == default, item.name
    assert properties["hiera.device"]["enum"] == ["", *DEVICES]
    assert properties["hiera.budget"]["type"] == ["integer", "null"]
    # the range the CLI and pyproject.toml take, so the editor cannot ask for a budget the CLI refuses
    assert (properties["hiera.budget"]["minimum"], properties["hiera.budget"]["maximum"]) == (BUDGET_MIN, BUDGET_MAX)
    assert properties["hiera.maxParallelJobs"]["type"] == "integer"
    assert properties["hiera.jobTimeLimit"]["type"] == "number"


def test_what_the_extension_sends_the_server_accepts(extension, manifest):
    defaults = {key.removeprefix("hiera."): spec["default"]
                for key, spec in manifest["contributes"]["configuration"]["properties"].items()}
    custom = {**defaults, "model": "qwen2.5-coder", "baseUrl": "http://localhost:8000/v1", "budget": 6,
              "device": "cuda", "pythonPath": "${workspaceFolder}/.venv/bin/python", "jobTimeLimit": 120,
              "maxParallelJobs": 2, "serverPath": "/opt/hiera/bin/hiera-lsp"}
    script = textwrap.dedent("""\
        const { serverSettings } = require('./src/settings.js');
        const where = { workspaceFolder: '/work/proj', home: '/home/ada', platform: 'linux' };
        const sections = process.argv.slice(1).map((arg) => JSON.parse(arg));
        console.log(JSON.stringify(sections.map((section) => serverSettings(section, where))));
    """)
    sent_defaults, sent_custom = node(extension, script, defaults, custom)

    settings, problems = Settings().merged(sent_defaults)
    assert problems == []
    assert settings == Settings()
    settings, problems = Settings().merged(sent_custom)
    assert problems == []
    assert settings == Settings(model="qwen2.5-coder", baseUrl="http://localhost:8000/v1", budget=6, device="cuda",
                                pythonPath="/work/proj/.venv/bin/python", jobTimeLimit=120.0, maxParallelJobs=2)


def test_the_diff_pairs_a_module_with_the_proposal_the_engine_writes(extension):
    paths = ["/w/models/softmax.py", "/w/v1.2/model.v2.py", "/w/_hiera.py", "/w/a_hiera.py/b.py"]
    script = ("const { proposalPathFor } = require('./src/proposal.js');"
              "console.log(JSON.stringify(process.argv.slice(1).map((arg) => proposalPathFor(JSON.parse(arg)))))")
    assert node(extension, script, *paths) == [proposal_path_for(path) for path in paths]


def test_check_workspace_reads_the_real_check_report(extension, tmp_path):
    kernels = tmp_path / "kernels"
    kernels.mkdir()
    (kernels / "k.cu").write_text(textwrap.dedent("""\
        __global__ void k(float* x, int n) {
          int i = threadIdx.x;
          if (i < n) { __syncthreads(); }
          x[i] = 1.0f;
        }
    """))
    check = node(extension, "const w = require('./src/workspaceCheck.js');"
                            "console.log(JSON.stringify(w.checkCommand({command: 'PY', args: ['-m', 'hiera_lsp']}, null)))")
    assert check["command"] == "PY"
    result = subprocess.run([sys.executable, *check["args"]], cwd=tmp_path, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1, result.stderr  # 1: findings

    script = ("const w = require('./src/workspaceCheck.js'); const [out, folder] = process.argv.slice(1).map(JSON.parse);"
              "console.log(JSON.stringify(w.parseReport(out, folder)))")
    report = node(extension, script, result.stdout, str(tmp_path))
    assert report["filesChecked"] == 1
    [problem] = [p for p in report["problems"] if p["code"] == "HC102"]
    assert problem["file"] == str(kernels / "k.cu")
    assert problem["severity"] == "error"
    assert problem["range"]["start"] == {"line": 2, "character": 15}  # `__syncthreads()` on line 3 (1-based)
    assert problem["message"].startswith("__syncthreads()")


def test_the_package_holds_the_client_library_and_no_build_tools(extension, manifest):
    assert manifest["engines"]["vscode"] == "^1.91.0"
    assert (extension / manifest["main"]).is_file()
    client = json.loads((extension / "node_modules" / "vscode-languageclient" / "package.json").read_text())
    assert client["version"].startswith("11.")
    assert not (extension / "node_modules" / "@vscode" / "vsce").exists()
    assert not (extension / "test").exists()
    assert (extension / "LICENSE.txt").is_file() and (extension / "readme.md").is_file()


def test_menus_only_show_contributed_commands(manifest):
    contributed = {command["command"] for command in manifest["contributes"]["commands"]}
    for menu, entries in manifest["contributes"]["menus"].items():
        for entry in entries:
            assert entry["command"] in contributed, (menu, entry["command"])


def test_the_proposal_preview_is_the_request_and_capability_the_server_uses(extension):
    [request] = node(extension, "console.log(JSON.stringify([require('./src/proposal.js').PREVIEW_REQUEST]))")
    assert request == proposals.PREVIEW_REQUEST
    assert f"{proposals.PREVIEW_CAPABILITY}: true" in (extension / "src" / "proposal.js").read_text()


def test_interpreter_settings_are_read_from_user_settings_in_remote_windows(manifest):
    # VS Code drops `machine` and `machine-overridable` values of local User settings in a remote
    # window (code-server, Remote-SSH): the server then started on plain python3.
    properties = manifest["contributes"]["configuration"]["properties"]
    for key in ("hiera.pythonPath", "hiera.serverPath"):
        assert properties[key].get("scope", "window") in ("window", "resource"), key


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_check_workspace_in_a_new_repository_checks_untracked_files_not_ignored_ones(extension, tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("build/\n")
    (tmp_path / "build").mkdir()
    kernel = "__global__ void k(float* x, int n) { if (threadIdx.x < n) { __syncthreads(); } }\n"
    (tmp_path / "build" / "generated.cu").write_text(kernel)
    (tmp_path / "k.cu").write_text(kernel)  # never `git add`-ed
    git = node(extension, "console.log(JSON.stringify(require('./src/workspaceCheck.js').GIT_FILES))")
    listed = subprocess.run([git["command"], *git["args"]], cwd=tmp_path, capture_output=True, text=True, check=True)
    script = ("const w = require('./src/workspaceCheck.js'); const [out] = process.argv.slice(1).map(JSON.parse);"
              "console.log(JSON.stringify(w.checkCommand({command: 'PY', args: ['-m', 'hiera_lsp']}, w.parseGitFiles(out))))")
    check = node(extension, script, listed.stdout)
    result = subprocess.run([sys.executable, *check["args"]], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr
    report = node(extension, "const w = require('./src/workspaceCheck.js'); const [out, folder] = "
                             "process.argv.slice(1).map(JSON.parse); console.log(JSON.stringify(w.parseReport(out, folder)))",
                  result.stdout, str(tmp_path))
    assert report["filesChecked"] == 1
    assert {problem["file"] for problem in report["problems"]} == {str(tmp_path / "k.cu")}

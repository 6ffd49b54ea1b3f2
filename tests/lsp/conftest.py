"""End-to-end fixtures: a real `hiera-lsp` process over stdio, driven by pytest-lsp's client.

`start_server(...)` starts one server per call with the capabilities of a real client
(VS Code 1.65 pushes diagnostics, Neovim 0.11 pulls them) in a fresh workspace that holds the
repository's examples plus fixtures of our own. Jobs run the fake CLI (tests/lsp/fake_hiera.py)
unless a test asks for the real one.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import stat
import sys
import textwrap
from pathlib import Path
from typing import Any, Union

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from hiera_lsp.positions import LineIndex, encode

REPO = Path(__file__).resolve().parents[2]
FAKE_CLI = Path(__file__).with_name("fake_hiera.py")

MODELS_PY = textwrap.dedent('''\
    import torch
    import torch.nn as nn


    class Model(nn.Module):
        def __init__(self, scale):
            super().__init__()
            self.scale = scale

        def forward(self, x):
            return torch.relu(x * self.scale)


    class Slow(Model):
        pass


    class Hang(Model):
        pass


    class Crash(Model):
        pass


    class Oom(Model):
        pass


    class Broken(Model):
        pass


    class Noisy(Model):
        pass


    def get_inputs():
        return [torch.randn(16, 64)]


    def get_init_inputs():
        return [2.0]
    ''')

BLOCK_PY = textwrap.dedent('''\
    import torch.nn as nn


    # hiera: inputs=make_inputs init=missing_init
    class Block(nn.Module):
        def forward(self, x):
            return x * 2


    class NoInputs(nn.Module):
        def forward(self, x):
            return x + 1


    def make_inputs():
        return []
    ''')

SCALE_CU = textwrap.dedent('''\
    #include <torch/extension.h>

    /* é 😀 */ __global__ void scale_kernel(const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        y[i] = 2.0f * x[i];
    }

    __global__ void orphan_kernel(float* y) { y[threadIdx.x] = 0.0f; }

    void scale(const float* x, float* y, int n) {
        scale_kernel<<<(n + 255) / 256, 256>>>(x, y, n);
    }
    ''')

EXT_MODEL_PY = textwrap.dedent('''\
    import torch
    import torch.nn as nn
    from torch.utils.cpp_extension import load

    _ext = None


    class Scaler(nn.Module):
        def forward(self, x):
            global _ext
            _ext = _ext or load(name="scale_ext", sources=["kernels/scale.cu"])
            return _ext.scale(x)


    def get_inputs():
        return [torch.randn(1024)]


    def get_init_inputs():
        return []
    ''')


class Workspace:
    def __init__(self, root: Path):
        self.root = root
        self.job_log = root.parent / "jobs.log"

    def path(self, relative: str) -> Path:
        return self.root / relative

    def uri(self, relative: str) -> str:
        return from_fs_path(str(self.path(relative)))

    def text(self, relative: str) -> str:
        return self.path(relative).read_text(encoding="utf-8")

    def jobs_started(self) -> list[dict]:
        """What the fake CLI saw of each job: its argv and model environment."""
        if not self.job_log.exists():
            return []
        return [json.loads(line) for line in self.job_log.read_text().splitlines()]

    def job_argvs(self) -> list[list[str]]:
        return [job["argv"] for job in self.jobs_started()]


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    root.mkdir()
    (root / ".git").mkdir()  # the store's workspace marker, as in a real checkout
    for example in ("elementwise_chain.py", "softmax.py"):
        shutil.copy(REPO / "examples" / example, root / example)
    (root / "models.py").write_text(MODELS_PY)
    (root / "block.py").write_text(BLOCK_PY)
    (root / "kernels").mkdir()
    (root / "kernels" / "scale.cu").write_text(SCALE_CU, encoding="utf-8")
    (root / "ext_model.py").write_text(EXT_MODEL_PY)
    return Workspace(root)


def fake_interpreter(workspace: Workspace) -> str:
    """An executable standing in for the job interpreter: it runs the fake CLI instead."""
    script = workspace.root.parent / "fake-python"
    script.write_text(f'#!/bin/sh\n[ "$1" = -c ] && exec "{sys.executable}" "$@"\n'
                      f'# drop "-m hiera_core.cli.main"\nshift 2\n'
                      f'exec "{sys.executable}" "{FAKE_CLI}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def _fix_code_action_structuring(client: LanguageClient) -> None:
    """lsprotocol 2025.0.0 structures any object with a "command" key as a Command, which breaks
    CodeAction(command=Command(...)) in the Python client (editors are unaffected)."""
    converter = client.protocol._converter
    converter.register_structure_hook(
        Union[types.Command, types.CodeAction],  # noqa: UP007 - the hook is keyed by lsprotocol's own typing.Union
        lambda obj, _: converter.structure(
            obj, types.Command if isinstance(obj.get("command"), str) else types.CodeAction))


def apply_text_edits(text: str, edits: list, encoding: str = "utf-16") -> str:
    lines = LineIndex(encode(text))
    data = encode(text)
    spans = sorted(((lines.offset(e.range.start, encoding), lines.offset(e.range.end, encoding), e.new_text)
                    for e in edits), reverse=True)
    for start, end, new_text in spans:
        data = data[:start] + encode(new_text) + data[end:]
    return data.decode("utf-8")


class EditRecorder:
    """Answers workspace/applyEdit like an editor whose user confirms (or declines) it, and
    writes confirmed edits to disk, as a user who then saves."""

    def __init__(self, accept: bool = True):
        self.accept = accept
        self.received: list[types.ApplyWorkspaceEditParams] = []
        self.previews: list[dict] = []

    def preview(self, params) -> dict:
        """hiera/previewProposal as the VS Code extension answers it: shown, confirmed, written."""
        params = {key: getattr(params, key) for key in ("reference", "target", "text", "label")}
        self.previews.append(params)
        if self.accept:
            Path(to_fs_path(params["target"])).write_text(params["text"], encoding="utf-8")
        return {"applied": self.accept}

    def __call__(self, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        self.received.append(params)
        if not self.accept:
            return types.ApplyWorkspaceEditResult(applied=False, failure_reason="declined by the user")
        for change in params.edit.document_changes or []:
            if isinstance(change, types.CreateFile):
                path = Path(to_fs_path(change.uri))
                if not path.exists():
                    path.write_text("")
            elif isinstance(change, types.TextDocumentEdit):
                path = Path(to_fs_path(change.text_document.uri))
                path.write_text(apply_text_edits(path.read_text(encoding="utf-8"), change.edits), encoding="utf-8")
        return types.ApplyWorkspaceEditResult(applied=True)


class Session:
    """One server and its client, plus helpers that wait for what an editor would see."""

    def __init__(self, client: LanguageClient, workspace: Workspace, edits: EditRecorder,
                 server_capabilities: types.ServerCapabilities):
        self.client = client
        self.server_capabilities = server_capabilities
        self.workspace = workspace
        self.edits = edits
        self.registrations: list[types.Registration] = []
        self.closed = False
        # Every push in arrival order, with its version (the client keeps only the latest list).
        self.published: list[types.PublishDiagnosticsParams] = []
        features = client.protocol.fm.features
        keep_latest = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

        def publish(params: types.PublishDiagnosticsParams) -> None:
            self.published.append(params)
            keep_latest(params)

        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish

    def open(self, relative: str, text: str | None = None, language_id: str | None = None, version: int = 1) -> str:
        uri = self.workspace.uri(relative)
        if text is None:
            text = self.workspace.path(relative).read_text(encoding="utf-8")
        language_id = language_id or ("cuda-cpp" if relative.endswith((".cu", ".cuh")) else "python")
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text)))
        return uri

    async def pushed(self, uri: str, predicate=lambda items: True, timeout: float = 10.0) -> list[types.Diagnostic]:
        """The latest pushed diagnostics of `uri` once they satisfy `predicate`."""
        async def wait():
            while uri not in self.client.diagnostics or not predicate(self.client.diagnostics[uri]):
                await asyncio.sleep(0.02)
            return list(self.client.diagnostics[uri])
        return await asyncio.wait_for(wait(), timeout)

    async def pushed_version(self, uri: str, version: int, timeout: float = 30.0) -> list[types.Diagnostic]:
        """The diagnostics pushed for `version` of `uri`, once they arrive."""
        async def wait():
            while not any(p.uri == uri and p.version == version for p in self.published):
                await asyncio.sleep(0.02)
            return list(next(p for p in self.published if p.uri == uri and p.version == version).diagnostics)
        return await asyncio.wait_for(wait(), timeout)

    def versions_pushed(self, uri: str) -> list[int | None]:
        return [p.version for p in self.published if p.uri == uri]

    async def pulled(self, uri: str) -> list[types.Diagnostic]:
        report = await self.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)))
        return list(report.items)

    async def command(self, name: str, *arguments: Any) -> Any:
        return await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=list(arguments)))

    async def hover(self, uri: str, line: int, character: int) -> types.Hover | None:
        return await self.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=character)))

    async def code_actions(self, uri: str, line: int, character: int,
                           only: list[str] | None = None, diagnostics=None) -> list[types.CodeAction]:
        position = types.Position(line=line, character=character)
        return await self.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=position, end=position),
            context=types.CodeActionContext(diagnostics=diagnostics or [], only=only))) or []

    async def message(self, predicate, timeout: float = 30.0) -> types.ShowMessageParams:
        """The first window/showMessage satisfying `predicate` (already received or still to come)."""
        async def wait():
            while True:
                for message in self.client.messages:
                    if predicate(message):
                        return message
                await asyncio.sleep(0.05)
        return await asyncio.wait_for(wait(), timeout)

    async def job_message(self, kind: str, name: str, timeout: float = 30.0) -> types.ShowMessageParams:
        return await self.message(lambda m: m.message.startswith(f"HIERA {kind} {name}:"), timeout)

    def progress(self, job_id: str) -> list:
        return self.client.progress_reports.get(f"hiera/{job_id}", [])

    async def info(self) -> dict:
        return await self.command("hiera.serverInfo")

    async def shutdown(self) -> None:
        self.closed = True
        await self.client.shutdown_session()


def _capabilities(client: str) -> types.ClientCapabilities:
    """push: VS Code 1.65; pull: the same with pull diagnostics and refresh (as VS Code has since
    1.7x); neovim: Neovim 0.11, which pulls but cannot be asked to refresh (the server pushes);
    vscode-extension: VS Code with HIERA's extension, which previews proposals itself."""
    if client == "neovim":
        return client_capabilities("neovim@v0.11.0")
    capabilities = client_capabilities("visual-studio-code")
    if client == "vscode-extension":
        capabilities.experimental = {"hieraProposalPreview": True}
    if client == "pull":
        capabilities.text_document.diagnostic = types.DiagnosticClientCapabilities(related_document_support=True)
        capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return capabilities


@pytest_asyncio.fixture
async def start_server(workspace: Workspace):
    """`await start_server(mode="push"|"pull"|"neovim", settings=..., init_options=..., encodings=...,
    accept_edits=..., real_cli=..., env=...)` (env: added to the server's environment)"""
    sessions: list[Session] = []

    async def start(mode: str = "push", *, settings: dict | None = None, init_options: dict | None = None,
                    encodings: list[str] | None = None, accept_edits: bool = True,
                    real_cli: bool = False, env: dict | None = None) -> Session:
        init = {"pythonPath": sys.executable if real_cli else fake_interpreter(workspace),
                **(init_options or {})}
        server_env = {**os.environ, "FAKE_HIERA_LOG": str(workspace.job_log), **(env or {})}
        client = await ClientServerConfig(server_command=[sys.executable, "-m", "hiera_lsp"],
                                          server_env=server_env).start()
        _fix_code_action_structuring(client)
        edits = EditRecorder(accept_edits)
        client.feature(types.WORKSPACE_APPLY_EDIT)(edits)
        client.feature("hiera/previewProposal")(lambda params: edits.preview(params))
        if settings is not None:
            client.set_configuration({"hiera": settings})
        capabilities = _capabilities(mode)
        if encodings is not None:
            capabilities.general = types.GeneralClientCapabilities(position_encodings=encodings)
        initialized = await client.initialize_session(types.InitializeParams(
            capabilities=capabilities, root_uri=from_fs_path(str(workspace.root)),
            workspace_folders=[types.WorkspaceFolder(uri=from_fs_path(str(workspace.root)), name="ws")],
            initialization_options={"hiera": init}))
        session = Session(client, workspace, edits, initialized.capabilities)
        client.feature(types.CLIENT_REGISTER_CAPABILITY)(
            lambda params: session.registrations.extend(params.registrations))
        sessions.append(session)
        return session

    yield start
    for session in sessions:
        if session.client.error is None and not session.closed:
            await session.client.shutdown_session()
        await session.client.stop()

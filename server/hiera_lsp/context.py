"""What the feature modules use of the language server, as a Protocol that server.HieraLanguageServer
satisfies: the features import this module, never server.py, so imports run one way (server.py ->
features -> context) and their handlers are annotated all the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # annotations only: importing this module loads nothing (pygls.progress loads on first use)
    import asyncio
    from collections.abc import Callable
    from concurrent.futures import Executor, Future

    from lsprotocol import types
    from pygls.progress import Progress
    from pygls.protocol import JsonRPCProtocol
    from pygls.workspace import Workspace

    from hiera_lsp.documents import DocumentStore
    from hiera_lsp.jobs import Job, JobQueue
    from hiera_lsp.settings import Settings


class JobProgressView(Protocol):
    """A job's progress in the client's UI (progress.JobProgress)."""

    async def begin(self, job: Job, message: str, on_cancel: Callable[[], None]) -> None: ...

    def started(self, job: Job) -> None: ...

    def report(self, job: Job, event: dict) -> None: ...

    def end(self, job: Job, message: str) -> None: ...


class DiagnosticsRefresh(Protocol):
    """The diagnostics publisher (diagnostics.DiagnosticsPublisher), as a job's outcome uses it."""

    def refresh_all(self) -> None: ...


class ServerContext(Protocol):
    """The server's state and the client requests and notifications that the features send.

    Read-only properties: the features never replace the server's state, only read and use it."""

    @property
    def documents(self) -> DocumentStore: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def pull_diagnostics(self) -> bool: ...

    @property
    def configured(self) -> asyncio.Event: ...

    @property
    def analysis_executor(self) -> Executor: ...

    @property
    def jobs(self) -> JobQueue: ...

    @property
    def progress(self) -> JobProgressView: ...

    @property
    def diagnostics(self) -> DiagnosticsRefresh: ...

    @property
    def encoding(self) -> str: ...

    @property
    def client_capabilities(self) -> types.ClientCapabilities: ...

    @property
    def workspace(self) -> Workspace: ...

    @property
    def work_done_progress(self) -> Progress: ...

    @property
    def protocol(self) -> JsonRPCProtocol: ...

    def workspace_root_for(self, path: str) -> str: ...

    def open_texts(self) -> dict[str, str]: ...

    def window_show_message(self, params: types.ShowMessageParams) -> None: ...

    def window_log_message(self, params: types.LogMessageParams) -> None: ...

    def text_document_publish_diagnostics(self, params: types.PublishDiagnosticsParams) -> None: ...

    def workspace_diagnostic_refresh(self, params: None) -> Future[None]: ...

    async def window_show_document_async(self, params: types.ShowDocumentParams) -> types.ShowDocumentResult: ...

    async def workspace_apply_edit_async(
            self, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult: ...

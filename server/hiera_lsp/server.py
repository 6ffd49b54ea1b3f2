"""The HIERA language server: creates the pygls server and registers one handler per LSP method.

Each handler is thin: it finds the document snapshot and hands over to the feature's module.
Only the analysis thread and job children do slow work; the event loop keeps answering.

Start-up is what an editor waits for before anything works: importing this module loads pygls,
lsprotocol (its generated methods from attrs_code_cache) and the handlers' light modules only;
grammars, rules, the store and the job machinery load on first use.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from concurrent.futures import ThreadPoolExecutor

from hiera_lsp.attrs_code_cache import cached_compiles

with cached_compiles():  # the first import of lsprotocol.types: its classes' methods come precompiled
    from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path

import hiera_lsp
from hiera_lsp import code_actions, commands, hover
from hiera_lsp.diagnostics import LARGE_BYTES, DiagnosticsPublisher
from hiera_lsp.documents import Document, DocumentStore, load_analysis
from hiera_lsp.jobs import JobQueue
from hiera_lsp.kernel_resources import KernelResources
from hiera_lsp.progress import JobProgress
from hiera_lsp.records import workspace_root
from hiera_lsp.settings import SECTION, Settings

log = logging.getLogger(__name__)
STORE_WATCHERS = ("**/.hiera/index/*.json", "**/*_hiera.py")


class HieraProtocol(LanguageServerProtocol):
    """pygls's protocol without its own copy of every open document: the server keeps its
    snapshots (DocumentStore), and pygls's copy re-splits the whole text on every keystroke."""

    def _user_handler(self, method: str, params):
        if (handler := self.fm.features.get(method)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CLOSE, params)


class HieraLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("hiera-lsp", hiera_lsp.__version__,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=HieraProtocol)
        self.documents = DocumentStore()
        self.initial_settings = Settings()
        self.settings = Settings()
        self.pull_diagnostics = False
        # Set once the client's workspace/configuration is in: jobs never start on stale settings.
        self.configured = asyncio.Event()
        # Its own single thread: pygls's pool also reads stdin, and must never starve.
        self.analysis_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hiera-analysis")
        self.jobs = JobQueue(lambda job, event: commands.on_job_update(self, job, event))
        self.progress = JobProgress(self)
        self.diagnostics = DiagnosticsPublisher(self)
        self.kernel_resources = KernelResources(self)

    @property
    def encoding(self) -> str:
        return self.workspace.position_encoding or types.PositionEncodingKind.Utf16

    def workspace_root_for(self, path: str) -> str:
        """The client's workspace folder holding `path`, else the folder the CLI would use."""
        folders = [to_fs_path(folder.uri) for folder in self.workspace.folders.values()]
        if self.workspace.root_path:
            folders.append(self.workspace.root_path)
        inside = [folder for folder in folders
                  if folder and os.path.commonpath([folder, path]) == os.path.normpath(folder)]
        return max(inside, key=len) if inside else workspace_root(path)

    def open_texts(self) -> dict[str, str]:
        """Unsaved editor text wins over the disk when searching the workspace."""
        return {document.path: document.text for document in self.documents if document.path}

    def apply_settings(self, raw: object, base: Settings) -> None:
        self.settings, problems = base.merged(raw)
        self.jobs.set_max_parallel(self.settings.maxParallelJobs)
        for problem in problems:
            self.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Warning, message=f"HIERA settings: {problem} (ignored)"))

    async def fetch_configuration(self) -> None:
        workspace = self.client_capabilities.workspace
        if not (workspace and workspace.configuration):
            return
        try:
            values = await self.workspace_configuration_async(types.ConfigurationParams(
                items=[types.ConfigurationItem(section=SECTION)]))
        except Exception as error:  # a client that fails this request keeps the initial settings
            log.warning("workspace/configuration failed: %s", error)
            return
        if values:
            self.apply_settings(values[0], self.initial_settings)

    async def watch_store(self) -> None:
        """Runs started outside the editor (a terminal, CI) change `.hiera/` and proposals too:
        have the client report those files, and re-diagnose when they change."""
        workspace = self.client_capabilities.workspace
        watched = workspace and workspace.did_change_watched_files
        if not (watched and watched.dynamic_registration):
            return
        try:
            await self.client_register_capability_async(types.RegistrationParams(registrations=[
                types.Registration(id="hiera-store", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                   register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                                       types.FileSystemWatcher(glob_pattern=glob) for glob in STORE_WATCHERS]))]))
        except Exception as error:  # no watching: diagnostics still refresh on edits, saves and jobs
            log.warning("client/registerCapability for file watching failed: %s", error)


def create_server() -> HieraLanguageServer:
    server = HieraLanguageServer()

    async def pull_diagnostics(ls: HieraLanguageServer, params: types.DocumentDiagnosticParams):
        uri = params.text_document.uri
        document = _document(ls, uri)
        while True:
            items = await ls.diagnostics.compute(document)
            latest = ls.documents.get(uri)
            # Edited meanwhile: a report of older text would be shown against the newer one.
            if latest is None or latest is document:
                return types.RelatedFullDocumentDiagnosticReport(items=items)
            document = latest

    @server.feature(types.INITIALIZE)
    def initialize(ls: HieraLanguageServer, params: types.InitializeParams) -> None:
        ls.initial_settings, problems = Settings().merged(params.initialization_options)
        ls.settings = ls.initial_settings
        ls.jobs.set_max_parallel(ls.settings.maxParallelJobs)
        for problem in problems:
            log.warning("initializationOptions: %s", problem)
        # Pull or push, never both (clients would show every problem twice). Pull only when the
        # client can also be asked to re-pull: a job's results change diagnostics of documents
        # nobody edits, and Neovim 0.11 pulls without supporting workspace/diagnostic/refresh.
        text_document, workspace = params.capabilities.text_document, params.capabilities.workspace
        ls.pull_diagnostics = bool(text_document and text_document.diagnostic is not None
                                   and workspace and workspace.diagnostics
                                   and workspace.diagnostics.refresh_support)
        if ls.pull_diagnostics:  # registered here, so only pulling clients see diagnosticProvider
            ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, types.DiagnosticOptions(
                identifier="hiera", inter_file_dependencies=True, workspace_diagnostics=False))(pull_diagnostics)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: HieraLanguageServer, params: types.InitializedParams) -> None:
        # Loaded after initialize is answered, before the first document usually arrives.
        asyncio.get_running_loop().run_in_executor(ls.analysis_executor, load_analysis)
        try:
            await ls.fetch_configuration()
            await ls.watch_store()
        finally:
            ls.configured.set()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files_changed(ls: HieraLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.diagnostics.refresh_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(ls: HieraLanguageServer,
                                    params: types.DidChangeConfigurationParams) -> None:
        workspace = ls.client_capabilities.workspace
        if workspace and workspace.configuration:
            await ls.fetch_configuration()
        else:
            ls.apply_settings(params.settings, ls.initial_settings)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: HieraLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        document = ls.documents.open(params.text_document)
        ls.diagnostics.changed(document)
        ls.kernel_resources.changed(document)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: HieraLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        document = ls.documents.change(params, ls.encoding)
        if document is not None:
            ls.diagnostics.changed(document)
            ls.kernel_resources.changed(document)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: HieraLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        # Saving a reference can make its proposal stale (and the reverse): recheck every document.
        ls.diagnostics.refresh_all()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: HieraLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.documents.close(params.text_document.uri)
        ls.diagnostics.closed(params.text_document.uri)
        ls.kernel_resources.closed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: HieraLanguageServer, params: types.HoverParams) -> types.Hover | None:
        document = await _parsed(ls, _document(ls, params.text_document.uri))
        return hover.hover(document, params.position, ls.encoding, ls.kernel_resources.line_for)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=list(code_actions.KINDS)))
    async def on_code_action(ls: HieraLanguageServer, params: types.CodeActionParams):
        document = await _parsed(ls, _document(ls, params.text_document.uri))
        return code_actions.code_actions(ls, document, params)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: HieraLanguageServer, params: None) -> None:
        for job in ls.jobs.active():
            ls.jobs.cancel(job.id)
        ls.diagnostics.close()

    @server.feature(types.EXIT)
    def exit_(ls: HieraLanguageServer, params: None) -> None:
        ls.jobs.kill_all()
        ls.diagnostics.close()

    for name, handler in commands.HANDLERS.items():  # all advertised in executeCommandProvider
        server.command(name)(handler)
    return server


def _document(ls: HieraLanguageServer, uri: str) -> Document:
    document = ls.documents.get(uri)
    if document is None:
        # Requests for documents the client never opened are answered with an error, not a crash.
        raise JsonRpcInvalidParams(f"unknown document {uri!r}: open it first (textDocument/didOpen)")
    return document


async def _parsed(ls: HieraLanguageServer, document: Document) -> Document:
    """`document` with its view built. A large file's parse takes up to a second: it runs on the
    analysis thread, so the event loop keeps answering about other files meanwhile."""
    if len(document.data) > LARGE_BYTES and not document.parsed:
        await asyncio.get_running_loop().run_in_executor(ls.analysis_executor, lambda: document.view)
    return document


def main(args: list[str]) -> int:
    if args and args[0] in ("-h", "--help"):
        print("usage: hiera-lsp            the language server over stdio\n"
              "       hiera-lsp --check PATHS...   the editor's diagnostics, headless")
        return 0
    logging.basicConfig(level=os.environ.get("HIERA_LSP_LOG", "WARNING"),
                        format="hiera-lsp %(levelname)s %(name)s: %(message)s")
    server = create_server()
    # Everything alive now (pygls, lsprotocol, grammars) lives as long as the server: keep it out
    # of the collector's scans, which otherwise double the p95 of an analysis on a keystroke.
    gc.freeze()
    server.start_io()
    return 0

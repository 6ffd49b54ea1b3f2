"""Diagnostics: the shared analysis (CUDA rules, proposal and directive checks) plus what only the
editor knows from `.hiera/`, pushed or pulled depending on the client (never both).

Editor-only diagnostics, on a module class: its proposal is stale (the class's file changed since
the proposal was verified), the last run's verification failures with their reproducers, and no
inputs at all (says what to add). On a proposal file: each contract assumption of its header.

Analysis runs on the server's analysis thread. In push mode each document has at most one
analysis in flight; changes that arrive meanwhile are coalesced into one more run on the latest
snapshot, so fast typing never queues stale work, and the findings of a snapshot that was edited
while it was analysed are dropped, never published. The rules run on the snapshot's own
incremental parse, and a CUDA file's rules reuse the findings of the functions an edit left
unchanged (the document's rule cache). A file over LARGE_BYTES is analysed only once typing
pauses (LARGE_DEBOUNCE_S), and a large CUDA file in a child process, which keeps a rule cache per
file too, so that hovers and edits elsewhere are answered meanwhile.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import from_fs_path

from hiera_core.index_entry import LastRun
from hiera_core.propose.proposal_file import parse_header, proposal_path_for
from hiera_lsp.context import ServerContext
from hiera_lsp.documents import CUDA, MAX_PARSED_BYTES, Document
from hiera_lsp.proposals import current_text, read_text
from hiera_lsp.records import read_record

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from hiera_core.analysis.python_source import PyClass, PythonDocument

log = logging.getLogger(__name__)

SOURCE = "hiera"
TOO_LARGE = "HL200"
STALE_PROPOSAL = "HL201"
VERIFICATION_FAILURE = "HL202"
MISSING_INPUTS = "HL203"
CONTRACT_ASSUMPTION = "HL204"
MAX_FAILURES_SHOWN = 5
LARGE_BYTES = 256 << 10  # larger files are analysed after a pause in typing, CUDA ones in a child process
LARGE_DEBOUNCE_S = 0.3

_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
             "info": types.DiagnosticSeverity.Information}
_UNTITLED_NAMES = {"python": "untitled.py", CUDA: "untitled.cu"}


def _diagnostic(document: Document, start: int, end: int, encoding: str, message: str, code: str,
                severity: types.DiagnosticSeverity,
                related: list[types.DiagnosticRelatedInformation] | None = None) -> types.Diagnostic:
    return types.Diagnostic(range=document.range_of(start, end, encoding), message=message,
                            severity=severity, code=code, source=SOURCE, related_information=related)


TextOf = Callable[[str], "str | None"]  # a path's text as the user sees it (open buffer, else disk)


def analyze_here(path: str, document: Document, config) -> list:
    """The shared analysis's findings, on the snapshot's own (incremental) parse and rule cache."""
    from hiera_core.analysis import analyze_file

    return analyze_file(path, document.data, config, parsed=document.view, cache=document.rule_cache)


_CHILD_CACHES: dict[str, dict] = {}  # in the child process: a rule cache per file it analyses
MAX_CHILD_CACHES = 8


def analyze_in_child(path: str, data: bytes, config) -> list:
    """Runs in the child process: a large file's findings, with that file's rule cache."""
    from hiera_core.analysis import analyze_file

    cache = _CHILD_CACHES.pop(path, None)
    if cache is None:
        cache = {}
        while len(_CHILD_CACHES) >= MAX_CHILD_CACHES:  # the least recently analysed file's goes
            _CHILD_CACHES.pop(next(iter(_CHILD_CACHES)))
    _CHILD_CACHES[path] = cache
    return analyze_file(path, data, config, cache=cache)


Analyze = Callable[[str, Document, object], list]


def diagnostics_for(document: Document, encoding: str, text_of: TextOf = read_text,
                    analyze: Analyze = analyze_here) -> list[types.Diagnostic]:
    """Everything HIERA says about one snapshot (blocking: call it on the analysis thread)."""
    if document.language is None:
        return []
    if document.too_large:
        return [_diagnostic(document, 0, 0, encoding,
                            f"HIERA does not analyse files over {MAX_PARSED_BYTES >> 20} MB in the editor (this one "
                            f"is {len(document.data) / 1e6:.1f} MB); `hiera-lsp --check` still does",
                            TOO_LARGE, types.DiagnosticSeverity.Information)]
    path = _analysed_path(document)
    items = [_diagnostic(document, f.start_byte, f.end_byte, encoding,
                         f"{f.message}\n{f.hint}" if f.hint else f.message, f.code, _SEVERITY[f.severity])
             for f in analyze(path, document, _config_for(path))]
    view = document.python
    if view is not None:
        items += _proposal_assumptions(document, view, encoding)
        if document.path:
            for cls in view.classes:
                if cls.is_module:
                    items += _module_diagnostics(document, view, cls, encoding, text_of)
    return items


def _analysed_path(document: Document) -> str:
    return document.path or _UNTITLED_NAMES[document.language]


def _config_for(path: str):
    """`[tool.hiera.check]` of the file's project, as `hiera-lsp --check` would read it."""
    from hiera_core.analysis.config import ConfigError, load_config

    try:
        return load_config(os.path.dirname(os.path.abspath(path)))
    except ConfigError as error:
        log.warning("%s; using the default configuration", error)
        return None


def _proposal_assumptions(document: Document, view: PythonDocument, encoding: str) -> list[types.Diagnostic]:
    if view.proposal is None:
        return []
    items = []
    for line in range(min(view.proposal.header_lines, document.lines.line_count)):
        content = document.lines.line_bytes(line)
        if content.startswith(b"# contract: "):
            start = document.lines.starts[line]
            items.append(_diagnostic(document, start, start + len(content), encoding,
                                     f"proposal assumes: {content[len(b'# contract: '):].decode('utf-8', 'replace')}",
                                     CONTRACT_ASSUMPTION, types.DiagnosticSeverity.Information))
    return items


def _module_diagnostics(document: Document, view: PythonDocument, cls: PyClass,
                        encoding: str, text_of: TextOf) -> list[types.Diagnostic]:
    name = cls.name_span
    items = []

    def at_name(message: str, code: str, severity: types.DiagnosticSeverity, related=None) -> None:
        items.append(_diagnostic(document, name.start_byte, name.end_byte, encoding, message, code,
                                 severity, related))

    stale = _stale_proposal(document, cls, text_of)
    if stale:
        at_name(f"the proposal {os.path.basename(stale)} was verified against an earlier version of "
                "this file; it may no longer compute the same thing\nre-run HIERA: Optimize, or "
                "HIERA: Re-verify proposal", STALE_PROPOSAL, types.DiagnosticSeverity.Warning,
                [types.DiagnosticRelatedInformation(
                    location=types.Location(uri=from_fs_path(stale), range=types.Range(
                        start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))),
                    message="the stale proposal")])
    record = read_record(document.path, cls.name)
    last_run = record.last_run or LastRun()
    run_id = last_run.id or "?"
    failures = record.verification_failures
    # A run that still found a proposal rejected some candidates: worth knowing, not a warning.
    severity = (types.DiagnosticSeverity.Information if last_run.status == "proposal"
                else types.DiagnosticSeverity.Warning)
    for failure in failures[:MAX_FAILURES_SHOWN]:
        message = f"run {run_id}: candidate {failure.candidate} failed {failure.check}: {failure.message}"
        if failure.reproducer:
            message += f"\nreproduce: {_shortened(failure.reproducer)}"
        at_name(message, VERIFICATION_FAILURE, severity)
    if len(failures) > MAX_FAILURES_SHOWN:
        at_name(f"{len(failures) - MAX_FAILURES_SHOWN} more verification failures in run "
                f"{run_id} (.hiera/runs)", VERIFICATION_FAILURE, severity)
    if not cls.directives.inputs and not view.has_get_inputs:
        at_name(f"HIERA cannot run {cls.name}: it has no inputs\nadd `# hiera: inputs=make_inputs "
                f"init=make_init` directly above `class {cls.name}` (functions in this file returning "
                "the forward() arguments and the constructor arguments, as lists), or define "
                "get_inputs() and get_init_inputs() (KernelBench format)",
                MISSING_INPUTS, types.DiagnosticSeverity.Information)
    return items


def _shortened(text: str, limit: int = 300) -> str:
    """Reproducers of crashed candidates are log tails: keep the diagnostic readable."""
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]


def _stale_proposal(document: Document, cls: PyClass, text_of: TextOf) -> str | None:
    """Path of this class's proposal when it was verified against a different text of this file
    (the proposal as open in the editor, even never saved, else on disk)."""
    proposal_path = proposal_path_for(document.path)
    text = text_of(proposal_path)
    header = parse_header(text) if text else None
    if header is None or header.reference_class != cls.name:
        return None
    reference = os.path.normpath(os.path.join(os.path.dirname(proposal_path), header.reference))
    if reference != os.path.normpath(document.path):
        return None
    return proposal_path if hashlib.sha256(document.data).hexdigest() != header.reference_sha256 else None


def _reference_of_proposal(path: str | None) -> str | None:
    """`<stem>.py` for a `<stem>_hiera.py` proposal (as proposal_path_for names it)."""
    if path and path.endswith("_hiera.py") and os.path.basename(path) != "_hiera.py":
        return path[:-len("_hiera.py")] + ".py"
    return None


class DiagnosticsPublisher:
    def __init__(self, ls: ServerContext):
        self.ls = ls
        self._latest: dict[str, Document] = {}
        self._tasks: dict[str, asyncio.Task] = {}
        self._child: ProcessPoolExecutor | None = None

    def close(self) -> None:
        """End the analysis child now (shutdown, exit): a large file's analysis takes seconds, and
        the server would wait for findings nobody will see before it exits (at exit Python joins an
        executor's busy workers). The server's only multiprocessing children are the executor's."""
        if self._child is not None:
            import multiprocessing

            self._child.shutdown(wait=False, cancel_futures=True)
            for process in multiprocessing.active_children():
                process.kill()
            self._child = None

    async def _findings_in_child(self, document: Document) -> list:
        """A large CUDA file's findings from a child process: in a thread its rules would hold the
        GIL for seconds, and on the analysis thread every other document would wait for them."""
        if self._child is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            from hiera_core.worker.isolate import die_with_parent

            # It dies with the server however the server ends, not when its analysis is done.
            self._child = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                              initializer=die_with_parent, initargs=(os.getpid(),))
        # Seconds of work: the log says why this file's diagnostics lag behind the others'.
        name = os.path.basename(document.path or document.uri)
        self.ls.window_log_message(types.LogMessageParams(type=types.MessageType.Log, message=(
            f"HIERA: analysing {name} ({len(document.data) / 1e6:.1f} MB, version {document.version}) "
            "in a background process")))
        path = _analysed_path(document)
        return await asyncio.wrap_future(self._child.submit(analyze_in_child, path, document.data, _config_for(path)))

    async def compute(self, document: Document) -> list[types.Diagnostic]:
        loop = asyncio.get_running_loop()
        try:
            analyze = analyze_here
            if document.language == CUDA and len(document.data) > LARGE_BYTES and not document.too_large:
                findings = await self._findings_in_child(document)

                def analyze(path: str, document: Document, config) -> list:
                    return findings  # analysed already: the thread below only converts them
            return await loop.run_in_executor(self.ls.analysis_executor, diagnostics_for, document,
                                              self.ls.encoding, lambda path: current_text(self.ls, path), analyze)
        except Exception as error:  # a bug in one rule must not cost the user the server
            log.exception("analysis of %s failed", document.uri)
            return [types.Diagnostic(
                range=types.Range(start=types.Position(line=0, character=0),
                                  end=types.Position(line=0, character=0)),
                message=f"HIERA could not analyse this file ({type(error).__name__}: {error}); "
                        "see the server log", severity=types.DiagnosticSeverity.Information,
                source=SOURCE)]

    def changed(self, document: Document) -> None:
        # A proposal's buffer decides whether its reference's class is stale, saved or not.
        reference = _reference_of_proposal(document.path)
        partner = self.ls.documents.get(from_fs_path(reference)) if reference else None
        if self.ls.pull_diagnostics:
            if partner is not None:
                self.refresh_all()
            return
        self._schedule(document)
        if partner is not None:
            self._schedule(partner)

    def _schedule(self, document: Document) -> None:
        self._latest[document.uri] = document
        if document.uri not in self._tasks:
            self._tasks[document.uri] = asyncio.get_running_loop().create_task(self._publish(document.uri))

    def closed(self, uri: str) -> None:
        self._latest.pop(uri, None)
        if not self.ls.pull_diagnostics:
            self.ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def refresh_all(self) -> None:
        """After `.hiera/` or a file on disk changed: every open document may say something new."""
        if not self.ls.pull_diagnostics:
            for document in self.ls.documents:
                self.changed(document)
            return
        workspace = self.ls.client_capabilities.workspace
        if workspace and workspace.diagnostics and workspace.diagnostics.refresh_support:
            self.ls.workspace_diagnostic_refresh(None)

    async def _publish(self, uri: str) -> None:
        try:
            while (document := self._latest.pop(uri, None)) is not None:
                if len(document.data) > LARGE_BYTES:
                    # Someone typing in a large file: analyse only the text they pause on.
                    await asyncio.sleep(LARGE_DEBOUNCE_S)
                    if uri in self._latest:
                        continue
                items = await self.compute(document)
                if self.ls.documents.get(uri) is None:
                    return  # closed meanwhile; closing already cleared its diagnostics
                if uri in self._latest:
                    continue  # edited meanwhile: these findings are of text the user no longer has
                self.ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                    uri=uri, version=document.version, diagnostics=items))
        finally:
            self._tasks.pop(uri, None)

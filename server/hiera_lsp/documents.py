"""Open documents as immutable snapshots, each with a lazily parsed view (tree-sitter).

The view is hiera_core.analysis's `PythonDocument` (module classes, forward, directives, proposal
header) or `CudaDocument` (kernels, launches, shared memory). A change makes a new snapshot;
its range edits are replayed on a copy of the previous snapshot's tree (`Tree.edit`), so the
next parse is incremental, and it shares the document's rule cache (the findings of the
functions an edit did not change are reused: cuda_rules.check_cuda). A view is built on first use (hover, code action or the analysis
thread) under a lock, and old snapshots stay valid for whoever still holds them. Files with NUL
bytes are treated as binary, and files over MAX_PARSED_BYTES as too large: kept, never parsed
(the CUDA rules take seconds per megabyte, too slow to rerun as someone types).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import to_fs_path

from hiera_lsp.positions import LineIndex, encode

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # the grammars load on the first parse, not while the editor waits for initialize
    import tree_sitter

    from hiera_core.analysis.cuda_document import CudaDocument
    from hiera_core.analysis.python_source import PythonDocument

PYTHON = "python"
CUDA = "cuda"
_SUFFIXES = {".py": PYTHON, ".pyi": PYTHON, ".cu": CUDA, ".cuh": CUDA}
_LANGUAGE_IDS = {"python": PYTHON, "cuda": CUDA, "cuda-cpp": CUDA}
_BINARY_PROBE = 8192
MAX_PARSED_BYTES = 1 << 20


def parse(language: str, data: bytes, old: tree_sitter.Tree | None) -> PythonDocument | CudaDocument:
    if language == PYTHON:
        from hiera_core.analysis.python_source import parse_python

        return parse_python(data, old)
    from hiera_core.analysis.cuda_source import parse_cuda

    return parse_cuda(data, old)


def load_analysis() -> None:
    """Imports the grammars and rules ahead of the first document (on the analysis thread)."""
    try:
        import hiera_core.analysis
        import hiera_core.analysis.cuda_source
        import hiera_core.analysis.python_source  # noqa: F401
    except ImportError as error:  # each document's diagnostics then say what is missing
        log.warning("the source analysis cannot load: %s", error)


def language_of(path: str | None, language_id: str) -> str | None:
    """PYTHON, CUDA or None (not ours): by file suffix, else by the client's language id."""
    if path:
        suffix = os.path.splitext(path)[1].lower()
        if suffix in _SUFFIXES:
            return _SUFFIXES[suffix]
    return _LANGUAGE_IDS.get(language_id)


@dataclass(frozen=True)
class _Edit:
    start_byte: int
    old_end_byte: int
    new_end_byte: int
    start_point: tuple[int, int]
    old_end_point: tuple[int, int]
    new_end_point: tuple[int, int]


def _point(data: bytes, offset: int) -> tuple[int, int]:
    """tree-sitter's (row, byte column): rows are counted at `\\n` only."""
    row = data.count(b"\n", 0, offset)
    return row, offset - (data.rfind(b"\n", 0, offset) + 1)


class Document:
    def __init__(self, uri: str, language_id: str, version: int | None, text: str,
                 base_tree: tree_sitter.Tree | None = None, edits: tuple[_Edit, ...] = (),
                 rule_cache: dict | None = None):
        self.uri = uri
        self.path = to_fs_path(uri) if uri.startswith("file:") else None
        self.language_id = language_id
        self.version = version
        self.text = text
        self.data = encode(text)
        self.binary = b"\0" in self.data[:_BINARY_PROBE]
        self.language = None if self.binary else language_of(self.path, language_id)
        self.too_large = len(self.data) > MAX_PARSED_BYTES
        self._base_tree = base_tree
        self._edits = edits
        self._view: PythonDocument | CudaDocument | None = None
        self._view_lock = threading.Lock()
        # kept by content, so every snapshot of the document may use it (on the one analysis thread)
        self.rule_cache: dict = {} if rule_cache is None else rule_cache

    @cached_property
    def lines(self) -> LineIndex:
        return LineIndex(self.data)

    @property
    def view(self) -> PythonDocument | CudaDocument | None:
        """The parsed view (None for binary, foreign and too large files); built once, incrementally if it can."""
        if self.language is None or self.too_large:
            return None
        with self._view_lock:
            if self._view is None:
                old = None
                if self._base_tree is not None:
                    old = self._base_tree.copy()
                    for edit in self._edits:
                        old.edit(**edit.__dict__)
                self._view = parse(self.language, self.data, old)
                self._base_tree = None
                self._edits = ()
            return self._view

    @property
    def parsed(self) -> bool:
        """Whether `view` is ready (or never will be): reading it then costs no parse."""
        return self._view is not None or self.language is None or self.too_large

    @property
    def python(self) -> PythonDocument | None:
        return self.view if self.language == PYTHON else None

    @property
    def cuda(self) -> CudaDocument | None:
        return self.view if self.language == CUDA else None

    def changed(self, version: int | None,
                changes: Iterable[types.TextDocumentContentChangeEvent], encoding: str) -> Document:
        """The snapshot after a didChange's content changes, applied in order."""
        data = self.data
        edits: list[_Edit] = []
        replaced = False
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                lines = self.lines if data is self.data else LineIndex(data)
                start = lines.offset(change.range.start, encoding)
                end = max(start, lines.offset(change.range.end, encoding))
                inserted = encode(change.text)
                new_data = data[:start] + inserted + data[end:]
                edits.append(_Edit(start, end, start + len(inserted), _point(data, start),
                                   _point(data, end), _point(new_data, start + len(inserted))))
                data = new_data
            else:  # the whole text: parse from scratch
                data, edits, replaced = encode(change.text), [], True
        view = self._view
        incremental = not replaced and view is not None
        return Document(self.uri, self.language_id, version, data.decode("utf-8", "surrogatepass"),
                        base_tree=view.tree if incremental else None,
                        edits=tuple(edits) if incremental else (), rule_cache=self.rule_cache)

    def offset_at(self, position: types.Position, encoding: str) -> int:
        return self.lines.offset(position, encoding)

    def range_of(self, start: int, end: int, encoding: str) -> types.Range:
        return self.lines.range(start, end, encoding)


class DocumentStore:
    """The latest snapshot of every open document."""

    def __init__(self) -> None:
        self._documents: dict[str, Document] = {}

    def open(self, item: types.TextDocumentItem) -> Document:
        document = Document(item.uri, item.language_id, item.version, item.text)
        self._documents[item.uri] = document
        return document

    def change(self, params: types.DidChangeTextDocumentParams, encoding: str) -> Document | None:
        current = self._documents.get(params.text_document.uri)
        if current is None:
            return None
        document = current.changed(params.text_document.version, params.content_changes, encoding)
        self._documents[document.uri] = document
        return document

    def close(self, uri: str) -> None:
        self._documents.pop(uri, None)

    def get(self, uri: str) -> Document | None:
        return self._documents.get(uri)

    def __iter__(self):
        return iter(list(self._documents.values()))

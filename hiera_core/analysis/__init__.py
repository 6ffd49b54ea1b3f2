"""Source analysis shared by `hiera-lsp --check` and the language server: one implementation.

Pure: tree-sitter only; never torch, pygls or lsprotocol.

    findings = analyze_file("kernels/add.cu")                  # reads the file
    findings = analyze_file("model.py", editor_text, config)   # text of an open buffer

`analyze_file` never raises on bad input: an unreadable path is an HC001 finding, invalid UTF-8 an
HC002 finding, and parse errors only hide what the parser could not read. A path that is not a
regular file (a FIFO, a device, a socket) is refused without being opened for a blocking read, and a
file over `max_bytes` is refused unread (HC001 both). Findings are filtered by the configuration
(select/ignore/severity/exclude) and by the suppression comments (`// hiera: ignore[CODE]` on the
finding's first line or alone on the line above it, `// hiera: ignore-file[CODE]`; `#` in Python),
and sorted by position.

The parsed views are public for the server's other features:
`python_source.parse_python` (classes, directives, inputs, proposal header) and
`cuda_source.parse_cuda` (kernels, launches, shared memory, annotations).
"""

from __future__ import annotations

import errno
import os
import stat

from hiera_core.analysis.config import CheckConfig, ConfigError, load_config
from hiera_core.analysis.findings import SEVERITIES, Finding, Span, char_column, line_starts, severity_rank
from hiera_core.analysis.rules import RULES, Rule, finding
from hiera_core.task.directives import suppressions

PYTHON_EXTENSIONS = (".py",)
CUDA_EXTENSIONS = (".cu", ".cuh")
EXTENSIONS = PYTHON_EXTENSIONS + CUDA_EXTENSIONS
MAX_FILE_SIZE = 2 * 1024 * 1024  # bytes; larger files are refused unread (--max-file-size)

__all__ = ["EXTENSIONS", "MAX_FILE_SIZE", "RULES", "SEVERITIES", "CheckConfig", "ConfigError", "Finding", "Rule",
           "Span", "UnreadableFile", "analyze_file", "analyze_source", "apply_config", "char_column", "line_starts",
           "load_analyzers", "load_config", "read_source", "severity_rank", "size_limit_message",
           "unreadable"]

_SPECIAL_FILES = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
                  (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class UnreadableFile(Exception):
    """Why a path cannot be checked as a source file: its message and a hint, for an HC001 finding."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


def read_source(path: str, max_bytes: int | None = MAX_FILE_SIZE) -> bytes:
    """The bytes of the regular file `path`, at most `max_bytes` (None: no limit). Raises UnreadableFile.

    Never blocks and never reads without bound: anything but a regular file (a FIFO, a device such
    as /dev/zero, a socket) is refused before it is opened (opening some devices has effects), the
    open is non-blocking and checked again (a FIFO swapped in meanwhile cannot stall it), and no
    more than the limit is read (a file may grow after the check).
    """
    try:
        _check_kind(path, os.stat(path), max_bytes)
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise UnreadableFile(f"cannot read {path}: {error.strerror or error}") from error
    try:
        _check_kind(path, os.fstat(descriptor), max_bytes)
        os.set_blocking(descriptor, True)
        chunks, size = [], 0
        limit = None if max_bytes is None else max_bytes + 1  # one byte more shows a file that grew
        while limit is None or size < limit:
            chunk = os.read(descriptor, 1 << 20 if limit is None else min(1 << 20, limit - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise UnreadableFile(f"cannot read {path}: {error.strerror or error}") from error
    finally:
        os.close(descriptor)
    if max_bytes is not None and size > max_bytes:
        raise UnreadableFile(*size_limit_message(path, size, max_bytes))
    return b"".join(chunks)


def _check_kind(path: str, info: os.stat_result, max_bytes: int | None) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise UnreadableFile(f"cannot read {path}: {os.strerror(errno.EISDIR)}")
    for is_kind, kind in _SPECIAL_FILES:
        if is_kind(info.st_mode):
            raise UnreadableFile(f"cannot read {path}: it is {kind}, not a regular file",
                                 "only regular files are checked; to check a stream, pipe it to "
                                 "`hiera-lsp --check - --stdin-filename NAME.cu`")
    if max_bytes is not None and info.st_size > max_bytes:
        raise UnreadableFile(*size_limit_message(path, info.st_size, max_bytes))


def size_limit_message(path: str, size: int, max_bytes: int) -> tuple[str, str]:
    return (f"{path} not checked: {_human_size(size)} is over the file size limit of {_human_size(max_bytes)}",
            ("raise the limit with --max-file-size (e.g. --max-file-size 8MB; 0 for none), or exclude the "
             "file ([tool.hiera.check] exclude)"))


def _human_size(size: int) -> str:
    """Sizes as --max-file-size takes them (1 KB = 1024 bytes)."""
    if size >= 2**20:
        return f"{size / 2**20:.1f} MB"
    return f"{size / 2**10:.1f} KB" if size >= 2**10 else f"{size} bytes"


def unreadable(path: str, message: str, hint: str = "") -> Finding:
    """The HC001 finding for a path that was not checked, at the start of the file."""
    return finding("HC001", message, path, Span(0, 0, 0, 0, 0, 0), hint)


def load_analyzers(python: bool = False) -> None:
    """Import the analysers `analyze_source` imports lazily (the CUDA ones, which Python files need
    too for embedded sources; `python`: the Python one as well), so that a process forking workers
    imports them once, before forking, instead of once per worker."""
    from hiera_core.analysis import contract_rules, cuda_rules, cuda_source  # noqa: F401

    if python:
        from hiera_core.analysis import python_source  # noqa: F401


def analyze_file(path: str, text: str | bytes | None = None, config: CheckConfig | None = None,
                 parsed: object | None = None, max_bytes: int | None = MAX_FILE_SIZE,
                 cache: dict | None = None) -> list[Finding]:
    """Findings for one file; `text` is the content (read from `path` when None, up to `max_bytes`).
    `parsed` is the text's PythonDocument or CudaDocument when the caller has one (the editor's
    incremental parse), so it is not parsed again. `cache`: a dict kept between analyses of one
    `.cu` file as it is edited, in which the findings of its unchanged functions are reused
    (cuda_rules.check_cuda)."""
    config = config or CheckConfig()
    if not path.endswith(EXTENSIONS) or config.excludes(path):
        return []
    if text is None:
        try:
            source = read_source(path, max_bytes)
        except UnreadableFile as error:
            return apply_config([unreadable(path, str(error), error.hint)], b"", config)
    else:
        source = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)
    return apply_config(analyze_source(path, source, parsed, config.arch, cache), source, config)


def analyze_source(path: str, source: bytes, parsed: object | None = None, arch: str | None = None,
                   cache: dict | None = None) -> list[Finding]:
    """Every finding of every rule for `source` (named `path`), before configuration and
    suppressions; `arch` (e.g. "sm_52"): the target the arch-dependent rules check against;
    `cache`: see analyze_file."""
    findings = _utf8_problem(path, source)
    if path.endswith(PYTHON_EXTENSIONS):
        findings += _analyze_python(path, source, parsed, arch)
    elif path.endswith(CUDA_EXTENSIONS):
        findings += _analyze_cuda(path, source, parsed, arch, cache)
    return findings


def _analyze_cuda(path: str, source: bytes, doc=None, arch: str | None = None,
                  cache: dict | None = None) -> list[Finding]:
    from hiera_core.analysis.contract_rules import check_cuda_annotations
    from hiera_core.analysis.cuda_rules import check_cuda
    from hiera_core.analysis.cuda_source import parse_cuda

    doc = doc or parse_cuda(source)
    return check_cuda(doc, path, arch, cache) + check_cuda_annotations(doc, path)


def _analyze_python(path: str, source: bytes, doc=None, arch: str | None = None) -> list[Finding]:
    from hiera_core.analysis.contract_rules import check_python
    from hiera_core.analysis.python_source import parse_python

    doc = doc or parse_python(source)
    findings = check_python(doc, path)
    # CUDA sources embedded in string literals (load_inline, NVRTC) get the CUDA rules too
    for span in doc.embedded_cuda:
        for item in _analyze_cuda(path, source[span.start_byte:span.end_byte], arch=arch):
            moved = item.span.inside(span)
            findings.append(Finding.at(item.code, item.severity, item.message, path, moved, item.hint))
    return findings


def _utf8_problem(path: str, source: bytes) -> list[Finding]:
    try:
        source.decode("utf-8")
    except UnicodeDecodeError as error:
        line = source.count(b"\n", 0, error.start)
        line_start = source.rfind(b"\n", 0, error.start) + 1
        column = error.start - line_start
        span = Span(error.start, error.start + 1, line, column, line, column + 1)
        return [finding("HC002", f"not valid UTF-8: byte 0x{source[error.start]:02x} at offset {error.start}",
                        path, span, "save the file as UTF-8")]
    return []


def apply_config(findings: list[Finding], source: bytes, config: CheckConfig) -> list[Finding]:
    """Apply select/ignore, severity overrides and suppression comments; sort by position."""
    suppressed = suppressions(source)
    kept = []
    for item in findings:
        if not config.enabled(item.code) or suppressed.suppresses(item.code, item.start_line):
            continue
        item.severity = config.severity_of(item.code, item.severity)
        kept.append(item)
    return sorted(kept, key=lambda item: (item.start_byte, item.code, item.end_byte))

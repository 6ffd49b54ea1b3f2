"""Source analysis shared by `hiera-lsp --check` and the language server: one implementation.

Pure: tree-sitter only; never torch, pygls or lsprotocol.

    findings = analyze_file("kernels/add.cu")                  # reads the file
    findings = analyze_file("model.py", editor_text, config)   # text of an open buffer

`analyze_file` never raises on bad input: an unreadable path is an HC001 finding, invalid UTF-8 an
HC002 finding, and parse errors only hide what the parser could not read. Findings are filtered by
the configuration (select/ignore/severity/exclude) and by `# hiera: ignore[CODE]` or
`// hiera: ignore[CODE]` on the finding's first line, and sorted by position.

The parsed views are public for the server's other features:
`python_source.parse_python` (classes, directives, inputs, proposal header) and
`cuda_source.parse_cuda` (kernels, launches, shared memory, annotations).
"""

from __future__ import annotations

from hiera_core.analysis.config import CheckConfig, ConfigError, load_config
from hiera_core.analysis.findings import SEVERITIES, Finding, Span, char_column, line_starts, severity_rank
from hiera_core.analysis.rules import RULES, Rule, finding
from hiera_core.directives import ignored_codes

PYTHON_EXTENSIONS = (".py",)
CUDA_EXTENSIONS = (".cu", ".cuh")
EXTENSIONS = PYTHON_EXTENSIONS + CUDA_EXTENSIONS

__all__ = ["analyze_file", "analyze_source", "CheckConfig", "ConfigError", "load_config", "Finding", "Span",
           "Rule", "RULES", "SEVERITIES", "severity_rank", "char_column", "line_starts", "EXTENSIONS"]


def analyze_file(path: str, text: str | bytes | None = None, config: CheckConfig | None = None,
                 parsed: object | None = None) -> list[Finding]:
    """Findings for one file; `text` is the content (read from `path` when None). `parsed` is the
    text's PythonDocument or CudaDocument when the caller has one (the editor's incremental parse),
    so it is not parsed again."""
    config = config or CheckConfig()
    if not path.endswith(EXTENSIONS) or config.excludes(path):
        return []
    if text is None:
        try:
            with open(path, "rb") as handle:
                source = handle.read()
        except OSError as error:
            reason = error.strerror or str(error)
            return _configured([finding("HC001", f"cannot read {path}: {reason}", path, Span(0, 0, 0, 0, 0, 0))],
                               b"", config)
    else:
        source = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)
    return _configured(analyze_source(path, source, parsed), source, config)


def analyze_source(path: str, source: bytes, parsed: object | None = None) -> list[Finding]:
    """Every finding of every rule for `source` (named `path`), before configuration and suppressions."""
    findings = _utf8_problem(path, source)
    if path.endswith(PYTHON_EXTENSIONS):
        findings += _analyze_python(path, source, parsed)
    elif path.endswith(CUDA_EXTENSIONS):
        findings += _analyze_cuda(path, source, parsed)
    return findings


def _analyze_cuda(path: str, source: bytes, doc=None) -> list[Finding]:
    from hiera_core.analysis.contract_rules import check_cuda_annotations
    from hiera_core.analysis.cuda_rules import check_cuda
    from hiera_core.analysis.cuda_source import parse_cuda

    doc = doc or parse_cuda(source)
    return check_cuda(doc, path) + check_cuda_annotations(doc, path)


def _analyze_python(path: str, source: bytes, doc=None) -> list[Finding]:
    from hiera_core.analysis.contract_rules import check_python
    from hiera_core.analysis.python_source import parse_python

    doc = doc or parse_python(source)
    findings = check_python(doc, path)
    # CUDA sources embedded in string literals (load_inline, NVRTC) get the CUDA rules too
    for span in doc.embedded_cuda:
        for item in _analyze_cuda(path, source[span.start_byte:span.end_byte]):
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


def _configured(findings: list[Finding], source: bytes, config: CheckConfig) -> list[Finding]:
    """Apply select/ignore, severity overrides and line suppressions; sort by position."""
    starts = line_starts(source)
    kept = []
    for item in findings:
        if not config.enabled(item.code):
            continue
        if item.start_line < len(starts):
            end = source.find(b"\n", starts[item.start_line])
            line = source[starts[item.start_line]:end if end >= 0 else len(source)].decode("utf-8", "replace")
            if any(item.code.startswith(code) for code in ignored_codes(line)):
                continue
        item.severity = config.severity_of(item.code, item.severity)
        kept.append(item)
    return sorted(kept, key=lambda item: (item.start_byte, item.code, item.end_byte))

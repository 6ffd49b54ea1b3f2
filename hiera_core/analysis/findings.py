"""What the analyzers report: findings located in bytes, with no editor or CLI types.

Lines are 0-based and columns are UTF-8 byte offsets, as tree-sitter gives them. Each consumer
converts once, at its edge: the language server to the client's position units (UTF-16 by
default), the `--check` formats to 1-based character columns (`char_column`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

SEVERITIES = ("info", "warning", "error")  # ascending


def severity_rank(severity: str) -> int:
    return SEVERITIES.index(severity)


@dataclass(frozen=True)
class Span:
    """A byte range and its (line, byte column) end points, 0-based."""

    start_byte: int
    end_byte: int
    start_line: int
    start_col: int
    end_line: int
    end_col: int

    @classmethod
    def of(cls, node) -> Span:
        """The span of a tree-sitter node (duck-typed, so this module needs no tree-sitter)."""
        start, end = node.start_point, node.end_point
        return cls(node.start_byte, node.end_byte, start[0], start[1], end[0], end[1])

    @classmethod
    def between(cls, first, last) -> Span:
        """From the start of node `first` to the end of node `last`."""
        start, end = first.start_point, last.end_point
        return cls(first.start_byte, last.end_byte, start[0], start[1], end[0], end[1])

    @classmethod
    def line_range(cls, source: bytes, line: int, start_col: int = 0, end_col: int | None = None) -> Span:
        """A span on one 0-based line of `source`; `end_col` defaults to the end of the line."""
        offset = 0
        for _ in range(line):
            newline = source.find(b"\n", offset)
            if newline < 0:
                break
            offset = newline + 1
        line_end = source.find(b"\n", offset)
        line_len = (len(source) if line_end < 0 else line_end) - offset
        start_col = min(start_col, line_len)
        end_col = line_len if end_col is None else min(max(end_col, start_col), line_len)
        return cls(offset + start_col, offset + end_col, line, start_col, line, end_col)

    def inside(self, outer: Span) -> Span:
        """This span, given relative to the start of `outer`, made absolute (embedded sources)."""
        def col(line: int, column: int) -> int:
            return column + outer.start_col if line == 0 else column
        return Span(self.start_byte + outer.start_byte, self.end_byte + outer.start_byte,
                    self.start_line + outer.start_line, col(self.start_line, self.start_col),
                    self.end_line + outer.start_line, col(self.end_line, self.end_col))


@dataclass
class Finding:
    code: str  # e.g. "HC101"; see hiera_core.analysis.rules.RULES
    severity: str  # "error" | "warning" | "info"
    message: str
    path: str
    start_byte: int
    end_byte: int
    start_line: int  # 0-based
    start_col_byte: int  # 0-based, UTF-8 bytes into the line
    end_line: int
    end_col_byte: int
    hint: str = ""

    @classmethod
    def at(cls, code: str, severity: str, message: str, path: str, span: Span, hint: str = "") -> Finding:
        return cls(code, severity, message, path, span.start_byte, span.end_byte, span.start_line,
                   span.start_col, span.end_line, span.end_col, hint)

    @property
    def span(self) -> Span:
        return Span(self.start_byte, self.end_byte, self.start_line, self.start_col_byte,
                    self.end_line, self.end_col_byte)

    def to_dict(self) -> dict:
        return asdict(self)


def char_column(source: bytes, line_start: int, col_byte: int) -> int:
    """1-based character column of byte column `col_byte` on the line starting at `line_start`."""
    return len(source[line_start:line_start + col_byte].decode("utf-8", "replace")) + 1


def line_starts(source: bytes) -> list[int]:
    """Byte offset where each 0-based line begins (lines end at b"\\n", like tree-sitter rows)."""
    starts = [0]
    index = source.find(b"\n")
    while index >= 0:
        starts.append(index + 1)
        index = source.find(b"\n", index + 1)
    return starts


def utf8_safe(source: bytes) -> bytes:
    """`source` with each byte of an invalid UTF-8 sequence replaced by b"?".

    Lengths and offsets are kept, so positions found on the result are positions in `source`;
    tree-sitter's query predicates decode node text strictly and would fail on the raw bytes.
    """
    try:
        source.decode("utf-8")
        return source
    except UnicodeDecodeError:
        text = source.decode("utf-8", "surrogateescape")
        return "".join("?" if "\udc80" <= char <= "\udcff" else char for char in text).encode("utf-8")

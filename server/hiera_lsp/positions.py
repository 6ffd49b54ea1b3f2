"""Byte offsets (tree-sitter, analysis findings) <-> LSP positions in the client's units.

The analysis speaks UTF-8 byte offsets; LSP positions count UTF-16 code units unless the client
negotiated UTF-8 or UTF-32 (pygls picks the encoding at initialize). Lines end at `\\n`, `\\r\\n` or
`\\r`, as the LSP specification says (not at the other separators `str.splitlines` knows).

Text is encoded with `surrogatepass`, so a lone surrogate sent by a client survives the round
trip instead of failing the whole document.
"""

from __future__ import annotations

import bisect
import re

from lsprotocol import types

UTF8 = types.PositionEncodingKind.Utf8
UTF16 = types.PositionEncodingKind.Utf16
UTF32 = types.PositionEncodingKind.Utf32

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def decode(data: bytes) -> str:
    """Decode a slice that may end inside a character (it then loses that partial character)."""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "ignore")


def units(text: str, encoding: str) -> int:
    """Length of `text` in the client's position units."""
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(encode(text))
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class LineIndex:
    """Start offsets of the lines of one UTF-8 buffer."""

    def __init__(self, data: bytes):
        self.data = data
        self.starts = [0] + [match.end() for match in _LINE_BREAK.finditer(data)]

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_bytes(self, line: int) -> bytes:
        """The line's content without its line break."""
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.data)
        return self.data[start:end].rstrip(b"\r\n")

    def position(self, offset: int, encoding: str) -> types.Position:
        offset = max(0, min(offset, len(self.data)))
        line = bisect.bisect_right(self.starts, offset) - 1
        content = self.line_bytes(line)
        column = min(offset - self.starts[line], len(content))
        if encoding == UTF8:
            return types.Position(line=line, character=column)
        return types.Position(line=line, character=units(decode(content[:column]), encoding))

    def range(self, start: int, end: int, encoding: str) -> types.Range:
        return types.Range(start=self.position(start, encoding), end=self.position(end, encoding))

    def offset(self, position: types.Position, encoding: str) -> int:
        """Byte offset of a client position; positions past a line's end clamp to it."""
        if position.line >= len(self.starts):
            return len(self.data)
        line = max(position.line, 0)
        content = self.line_bytes(line)
        wanted = max(position.character, 0)
        if encoding == UTF8 or content.isascii():
            column = min(wanted, len(content))
            if encoding == UTF8:
                # Never split a character: back up to the start of the one we landed in.
                while 0 < column < len(content) and content[column] & 0xC0 == 0x80:
                    column -= 1
            return self.starts[line] + column
        column = 0
        counted = 0
        for char in decode(content):
            if counted >= wanted:
                break
            counted += units(char, encoding)
            column += len(encode(char))
        return self.starts[line] + column

    def end_position(self, encoding: str) -> types.Position:
        return self.position(len(self.data), encoding)

"""What check_cuda keeps between analyses of one edited file: each GPU function's findings, and the
key of everything they were computed from."""

from __future__ import annotations

import dataclasses
import re

from hiera_core.analysis.cuda_document import CudaDocument, CudaFunction, Launch
from hiera_core.analysis.findings import Finding


@dataclasses.dataclass(frozen=True)
class CallNames:
    """What syncing_functions reads of a FunctionFlow (its function's name, its calls' names), kept
    per function so that the flows of unchanged functions need not be built again."""

    function: CudaFunction
    calls: tuple


@dataclasses.dataclass(frozen=True)
class Named:
    name: str


_LINE_RE = re.compile(r"\bline (\d+)")


@dataclasses.dataclass(frozen=True)
class CachedFindings:
    """One function's findings as first found: at `start_byte`/`start_line`, moved from there on reuse.
    Not `movable` when one lies outside the function or names a line outside it in other words
    than `line N`: then it is reused only in place."""

    start_byte: int
    start_line: int
    findings: tuple[Finding, ...]
    unguarded: tuple[Finding, ...]  # HC101, reported unless the file launches the kernel exactly
    movable: bool

    @classmethod
    def of(cls, function: CudaFunction, findings: list[Finding], unguarded: list[Finding]) -> CachedFindings:
        span = function.span
        lines = range(span.start_line + 1, span.end_line + 2)
        movable = all(span.start_byte <= item.start_byte and item.end_byte <= span.end_byte
                      and "lines" not in item.message + item.hint
                      and all(int(number) in lines for number in _LINE_RE.findall(item.message + item.hint))
                      for item in findings + unguarded)
        return cls(span.start_byte, span.start_line, tuple(findings), tuple(unguarded), movable)

    def fits(self, function: CudaFunction) -> bool:
        return self.movable or (self.start_byte, self.start_line) == (function.span.start_byte,
                                                                      function.span.start_line)

    def at(self, function: CudaFunction, path: str, items: tuple[Finding, ...]) -> list[Finding]:
        """Copies of `items` (the caller may change them: apply_config sets severities) moved to `function`."""
        moved_bytes = function.span.start_byte - self.start_byte
        moved_lines = function.span.start_line - self.start_line

        def renumber(text: str) -> str:
            return _LINE_RE.sub(lambda match: f"line {int(match.group(1)) + moved_lines}", text) if moved_lines else text

        return [dataclasses.replace(item, path=path, message=renumber(item.message), hint=renumber(item.hint),
                                    start_byte=item.start_byte + moved_bytes, end_byte=item.end_byte + moved_bytes,
                                    start_line=item.start_line + moved_lines, end_line=item.end_line + moved_lines)
                for item in items]


def function_key(doc: CudaDocument, function: CudaFunction, launches: list[Launch], shared_reads: bool) -> tuple:
    """Everything _function_findings reads: the function's text and shape (its start column: the
    columns of its findings; its node count: the same text parsed alike), where it sits (#if
    branches, namespaces), the file's macros, constants and file-scope shared memory, and the
    launches of it (their block sizes decide HC121's active lanes)."""
    span, node = function.span, function.node
    launched = tuple((launch.syntax, launch.grid and launch.grid.text,
                      launch.block and (launch.block.text, launch.block.dims),
                      launch.shared_bytes and (launch.shared_bytes.text, launch.shared_bytes.value),
                      launch.argument_list is not None and launch.argument_list.text) for launch in launches)
    return (doc.source[span.start_byte:span.end_byte], span.start_col, node.descendant_count, node.has_error,
            function.surroundings(), doc.file_context, launched, shared_reads)

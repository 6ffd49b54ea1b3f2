"""`# hiera:` directive comments: parsing shared by the task loader, `--check` and the editor.

Pure text processing (no torch, no tree-sitter) so every consumer agrees on the syntax:

    # hiera: inputs=make_inputs init=make_init
    # hiera: dynamic=x:0,y:0 precision=tf32
    class Block(nn.Module): ...

Directive lines directly above a class (above its decorators, with no blank line between)
belong to that class. `# hiera: ignore[CODE,...]` is a suppression, not a class directive: at the
end of a line it applies to that line, alone on its line to the next line, and
`# hiera: ignore-file[CODE,...]` (anywhere, alone on its line) to the whole file (`//` in C++).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

DIRECTIVE_RE = re.compile(r"^\s*#\s*hiera:\s*(?P<body>.*?)\s*$")
IGNORE_RE = re.compile(r"(?:#|//)\s*hiera:\s*ignore\[(?P<codes>[A-Za-z0-9_,\s]+)\]")
# the same, on the bytes of a whole file; `scope` is "" (a line) or "-file"
_SUPPRESSION_RE = re.compile(rb"(?:#|//)[ \t]*hiera:[ \t]*ignore(?P<scope>-file)?\[(?P<codes>[A-Za-z0-9_, \t]+)\]")
PRECISIONS = ("strict", "tf32", "bf16", "fp16")

KNOWN_KEYS = {
    "inputs": "name of a function in this file returning the forward() inputs (a list)",
    "init": "name of a function in this file returning the constructor arguments (a list)",
    "dynamic": "input dims that vary at run time, as NAME:DIM[,NAME:DIM]; verification varies them",
    "precision": "numerics the proposal may use: strict (default), tf32, bf16 or fp16",
}


@dataclass
class DirectiveProblem:
    line: int  # 1-based
    column: int  # 0-based, in characters
    message: str
    hint: str


@dataclass
class Directives:
    inputs: str | None = None
    init: str | None = None
    dynamic: list[tuple[str, int]] = field(default_factory=list)
    precision: str = "strict"
    lines: list[int] = field(default_factory=list)  # 1-based lines the directives came from
    problems: list[DirectiveProblem] = field(default_factory=list)

    @property
    def declared(self) -> bool:
        return bool(self.lines)


def parse_directive_body(body: str, line: int, col: int, into: Directives) -> None:
    """Parse `key=value key=value` pairs of one directive line into `into`."""
    body = body.split("#", 1)[0]  # a trailing comment, e.g. '# hiera: ignore[...]', is not an item
    if is_suppression(body):
        return
    for match in re.finditer(r"(\S+?)=(\S+)|(\S+)", body):
        if match.group(3) is not None:
            into.problems.append(DirectiveProblem(
                line, col + match.start(), f"malformed hiera directive item '{match.group(3)}'",
                "write key=value pairs, e.g. '# hiera: inputs=make_inputs init=make_init'"))
            continue
        key, value = match.group(1), match.group(2)
        at = col + match.start()
        if key not in KNOWN_KEYS:
            into.problems.append(DirectiveProblem(
                line, at, f"unknown hiera directive key '{key}'",
                "known keys: " + ", ".join(f"{k} ({v})" for k, v in KNOWN_KEYS.items())))
        elif key == "dynamic":
            for item in value.split(","):
                name, _, dim = item.partition(":")
                if not name.isidentifier() or not dim.lstrip("-").isdigit():
                    into.problems.append(DirectiveProblem(
                        line, at, f"bad dynamic dim '{item}'", "write NAME:DIM, e.g. dynamic=x:0"))
                else:
                    into.dynamic.append((name, int(dim)))
        elif key == "precision":
            if value not in PRECISIONS:
                into.problems.append(DirectiveProblem(
                    line, at, f"unknown precision '{value}'", "use one of " + ", ".join(PRECISIONS)))
            else:
                into.precision = value
        else:
            if not value.isidentifier():
                into.problems.append(DirectiveProblem(
                    line, at, f"'{key}' must name a function, got '{value}'",
                    f"write {key}=function_name"))
            else:
                setattr(into, key, value)


def directives_above(lines: list[str], class_line: int) -> Directives:
    """Directives for the class whose `class` keyword (or first decorator) is on 1-based `class_line`."""
    found = Directives()
    index = class_line - 2
    while index >= 0 and lines[index].lstrip().startswith("@"):
        index -= 1
    block: list[int] = []
    while index >= 0 and lines[index].lstrip().startswith("#"):
        block.append(index)
        index -= 1
    for i in reversed(block):
        match = DIRECTIVE_RE.match(lines[i])
        if match:
            found.lines.append(i + 1)
            parse_directive_body(match.group("body"), i + 1, match.start("body"), found)
    return found


def ignored_codes(line_text: str) -> set[str]:
    """Codes suppressed on this line by `# hiera: ignore[A,B]` or `// hiera: ignore[A]`."""
    match = IGNORE_RE.search(line_text)
    if not match:
        return set()
    return _codes(match.group("codes"))


def is_suppression(body: str) -> bool:
    """Whether the text after `hiera:` is a suppression (`ignore[...]`, `ignore-file[...]`), which
    the directive and annotation parsers must leave alone."""
    return body.lstrip().startswith(("ignore[", "ignore-file["))


def _codes(text: str) -> set[str]:
    return {code.strip() for code in text.split(",") if code.strip()}


@dataclass
class Suppressions:
    """The suppression comments of one file: codes (or prefixes) per 0-based line, and for the file."""

    by_line: dict[int, set[str]] = field(default_factory=dict)
    whole_file: set[str] = field(default_factory=set)

    def suppresses(self, code: str, line: int) -> bool:
        return any(code.startswith(prefix) for prefix in self.whole_file | self.by_line.get(line, set()))


def suppressions(source: bytes) -> Suppressions:
    """Every `hiera: ignore[...]` / `hiera: ignore-file[...]` comment of `source` (one pass over it).

    A comment after code applies to its own line; a comment alone on its line applies to the next
    line that is not itself such a comment, so several can stack above one line. `ignore-file`
    must be alone on its line (so a stray mention inside code or a string does not silence a file).
    """
    found = Suppressions()
    if b"hiera:" not in source:
        return found
    own_line_targets: list[tuple[int, set[str]]] = []
    own_lines: set[int] = set()
    line, counted_to = 0, 0  # one forward pass: linear in the file, however many comments
    for match in _SUPPRESSION_RE.finditer(source):
        line += source.count(b"\n", counted_to, match.start())
        counted_to = match.start()
        before = match.start() - 1  # alone on its line: only blanks back to the newline
        while before >= 0 and source[before] in b" \t\r\f\v":
            before -= 1
        alone = before < 0 or source[before] == 0x0A
        codes = _codes(match.group("codes").decode("ascii"))
        if match.group("scope"):
            if alone:
                found.whole_file |= codes
        elif alone:
            own_lines.add(line)
            own_line_targets.append((line, codes))
        else:
            found.by_line.setdefault(line, set()).update(codes)
    target_of: dict[int, int] = {}  # own-line comment -> the line it applies to; bottom up, so linear
    for line, codes in reversed(own_line_targets):
        target = target_of[line] = target_of.get(line + 1, line + 1)
        for covered in (line, target):
            found.by_line.setdefault(covered, set()).update(codes)
    return found

"""`# hiera:` directive comments: parsing shared by the task loader, `--check` and the editor.

Pure text processing (no torch, no tree-sitter) so every consumer agrees on the syntax:

    # hiera: inputs=make_inputs init=make_init
    # hiera: dynamic=x:0,y:0 precision=tf32
    class Block(nn.Module): ...

Directive lines directly above a class (above its decorators, with no blank line between)
belong to that class. `# hiera: ignore[CODE,...]` is a line suppression, not a class directive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

DIRECTIVE_RE = re.compile(r"^\s*#\s*hiera:\s*(?P<body>.*?)\s*$")
IGNORE_RE = re.compile(r"(?:#|//)\s*hiera:\s*ignore\[(?P<codes>[A-Za-z0-9_,\s]+)\]")
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
    if body.startswith("ignore["):
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
    return {code.strip() for code in match.group("codes").split(",") if code.strip()}

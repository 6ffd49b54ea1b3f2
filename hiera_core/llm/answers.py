"""Reading model answers: the planner's JSON choice, and the one Python module of a candidate.

Prose around fenced blocks is tolerated; everything else that makes an answer unusable is a
`BadAnswer` whose one-line reason goes into the record and back to the model as feedback.
Pure: no torch.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<tag>[\w+.#-]*)[^\n]*\n", re.MULTILINE)
PYTHON_TAGS = {"python", "py", "python3", ""}
# Names the file already defines: the answer is appended after the verbatim reference.
RESERVED_NAMES = ("get_inputs", "get_init_inputs")


class BadAnswer(ValueError):
    """The answer cannot become a candidate; str() is the reason."""


@dataclass
class Block:
    tag: str
    code: str
    closed: bool


def fenced_blocks(text: str) -> list[Block]:
    """Fenced code blocks in order; an unclosed last block runs to the end of the text."""
    blocks: list[Block] = []
    position = 0
    while True:
        opening = _FENCE.search(text, position)
        if not opening:
            return blocks
        fence, indent = opening["fence"], opening["indent"]
        closing = re.compile(rf"^{re.escape(indent)}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
        end = closing.search(text, opening.end())
        body = text[opening.end(): end.start() if end else len(text)]
        if indent:
            body = "\n".join(line[len(indent):] if line.startswith(indent) else line for line in body.split("\n"))
        blocks.append(Block(opening["tag"].lower(), body, end is not None))
        if not end:
            return blocks
        position = end.end()


def parse_choice(text: str) -> dict:
    """The JSON object of a space-selection answer: bare, or in a fenced (json) block."""
    candidates = [b.code for b in fenced_blocks(text) if b.tag in ("json", "")] or [text]
    for candidate in candidates:
        candidate = candidate.strip()
        start, end = candidate.find("{"), candidate.rfind("}")
        if start < 0 or end < start:
            continue
        try:
            value = json.loads(candidate[start:end + 1])
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    raise BadAnswer("no JSON object found (expected {\"space\": ..., \"strategy\": ..., \"reason\": ...})")


def extract_module(text: str, reference_class: str, finish_reason: str | None = None) -> str:
    """The code of the single Python module defining ModelNew (lines in messages are its lines)."""
    blocks = [b for b in fenced_blocks(text) if b.tag in PYTHON_TAGS]
    if not blocks:
        cut = " (the answer was cut off at the token limit)" if finish_reason == "length" else ""
        raise BadAnswer("no fenced python code block in the answer" + cut)
    if len(blocks) > 1:
        raise BadAnswer(f"{len(blocks)} python code blocks: answer with exactly one complete module")
    block = blocks[0]
    if not block.closed and finish_reason == "length":
        raise BadAnswer("the code block was cut off at the token limit: write a shorter module")
    try:
        tree = ast.parse(block.code)
    except SyntaxError as error:
        raise BadAnswer(f"the code does not parse: line {error.lineno or 1} of your module: {error.msg}") from None
    defined = _top_level_names(tree)
    if "ModelNew" not in defined:
        raise BadAnswer("the module does not define ModelNew at top level")
    clashes = [name for name in (reference_class, *RESERVED_NAMES) if name in defined]
    if clashes:
        raise BadAnswer(f"the module redefines {', '.join(clashes)}: the reference is already in the file; "
                        "define ModelNew and its helpers only")
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            raise BadAnswer(f"line {node.lineno} of your module: `from __future__` imports cannot follow the "
                            "reference source; remove them")
    return block.code


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


@dataclass
class KernelString:
    source: str
    line: int  # line of the module where the string starts: its line 1 (a leading newline included)


def cuda_strings(code: str) -> list[KernelString]:
    """String constants holding CUDA kernels for NVRTC (those for load_inline include torch headers
    NVRTC cannot compile, and are left to the evaluation)."""
    return [KernelString(node.value, node.lineno) for node in ast.walk(ast.parse(code))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "__global__" in node.value
            and "torch/extension.h" not in node.value]

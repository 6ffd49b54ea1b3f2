"""Contract rules (HC2xx): proposal headers, `# hiera:` directives, `// hiera:` annotations in CUDA."""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator

from hiera_core.analysis import cexpr
from hiera_core.analysis.cuda_document import Annotation, CudaDocument, CudaFunction
from hiera_core.analysis.findings import Finding, Span
from hiera_core.analysis.python_source import PythonDocument
from hiera_core.analysis.rules import finding
from hiera_core.propose import proposal_file as proposal

ANNOTATION_KEYS = {
    "requires": "a C condition over the kernel's integer parameters, e.g. `requires n % 4 == 0`",
    "block": "the block shape the kernel is written for, e.g. `block 256` or `block 16x16`",
}
_BLOCK_RE = re.compile(r"^\s*(\d+)(?:\s*[x,]\s*(\d+))?(?:\s*[x,]\s*(\d+))?\s*$")


# -- Python: proposals and directives ------------------------------------------------------------
def check_python(doc: PythonDocument, path: str) -> list[Finding]:
    findings = [finding("HC003", f"syntax error: {doc.syntax_error.message}", path, doc.syntax_error.span,
                        "fix the syntax; `python -m py_compile FILE` shows the same error")] if doc.syntax_error else []
    findings.extend(_proposal_status(doc, path))
    findings.extend(_duplicate_classes(doc, path))
    findings.extend(_directives(doc, path))
    return findings


def _proposal_status(doc: PythonDocument, path: str) -> Iterator[Finding]:
    header = doc.proposal
    if header is None:
        return
    status = proposal.check(path, doc.source.decode("utf-8", "replace"))
    lines = doc.source.split(b"\n")[:header.header_lines]

    def at(key: str) -> Span:
        prefix = f"# {key}:".encode()
        line = next((index for index, text in enumerate(lines) if text.startswith(prefix)), 0)
        return Span.line_range(doc.source, line)

    if status.reference_missing:
        yield finding("HC201", f"proposal reference {header.reference} does not exist", path, at("reference"),
                      f"restore {status.reference_path} or delete this proposal")
    elif status.stale:
        yield finding("HC201", f"reference {header.reference} changed since this proposal was verified", path,
                      at("reference-sha256"), f"re-run `hiera optimize {header.reference}`")
    # The reference as the user named the proposal (relative stays relative), so the command runs as shown.
    reference = os.path.normpath(os.path.join(os.path.dirname(path), header.reference))
    verify = f"hiera verify {shlex.quote(f'{reference}::{header.reference_class}')} {shlex.quote(path)}"
    if status.hand_edited:
        yield finding("HC202", "proposal edited after verification (body-sha256 differs)", path,
                      at("body-sha256"), f"re-run `{verify}` or revert the edit")
    if status.unverified:
        message = (f"proposal is not verified: {header.verification}" if header.verification
                   else "proposal has no verification record")
        yield finding("HC203", message, path, at("verification" if header.verification else "hiera-proposal"),
                      f"run `{verify}`")


def _directive_span(doc: PythonDocument, line: int, char_col: int) -> Span:
    """The directive item starting at a 1-based line and 0-based character column."""
    text = doc.source.split(b"\n")[line - 1].decode("utf-8", "replace")
    end = char_col + len(text[char_col:].split(None, 1)[0]) if text[char_col:].strip() else len(text)
    return Span.line_range(doc.source, line - 1, len(text[:char_col].encode()), len(text[:end].encode()))


def _item_span(doc: PythonDocument, lines: list[int], key: str) -> Span:
    """Where `key=` appears in a class's directive lines (the first line if not found)."""
    for line in lines:
        text = doc.source.split(b"\n")[line - 1].decode("utf-8", "replace")
        match = re.search(rf"\b{key}=", text)
        if match:
            return _directive_span(doc, line, match.start())
    return _directive_span(doc, lines[0], 0)


def _duplicate_classes(doc: PythonDocument, path: str) -> Iterator[Finding]:
    """Top-level module classes (column 0) whose name an earlier one already has."""
    first: dict[str, int] = {}
    for cls in doc.classes:
        if not cls.is_module or cls.span.start_col != 0:
            continue
        if cls.name in first:
            yield finding("HC207", f"a second class {cls.name} (the first is on line {first[cls.name] + 1}): "
                          "Python keeps only this one", path, cls.name_span,
                          "rename or delete all but one (a rewrite of Model is named ModelNew)")
        else:
            first[cls.name] = cls.name_span.start_line


def _directives(doc: PythonDocument, path: str) -> Iterator[Finding]:
    attached: set[int] = set()
    for cls in doc.classes:
        directives = cls.directives
        attached.update(directives.lines)
        for problem in directives.problems:
            yield finding("HC205", problem.message, path, _directive_span(doc, problem.line, problem.column),
                          problem.hint)
        for key in ("inputs", "init"):
            name = getattr(directives, key)
            if name is not None and name not in doc.top_level_names:
                yield finding("HC204", f"{key}={name}: this file defines no function '{name}'", path,
                              _item_span(doc, directives.lines, key),
                              f"add `def {name}():` at the top level returning the "
                              f"{'forward() inputs' if key == 'inputs' else 'constructor arguments'} as a list")
        forward = cls.forward
        if forward is not None and not forward.has_varargs:
            for name, _ in directives.dynamic:
                if name not in forward.params:
                    yield finding("HC206", f"dynamic={name}: {cls.name}.forward() has no parameter '{name}'", path,
                                  _item_span(doc, directives.lines, "dynamic"),
                                  "forward() takes " + (", ".join(forward.params) or "no inputs"))
    for line, span in doc.directive_comments:
        if line + 1 not in attached:
            yield finding("HC205", "hiera directive is not attached to a class", path, span,
                          "put it on the lines directly above the class (above its decorators), without a blank line")


# -- CUDA: `// hiera:` annotations ---------------------------------------------------------------
def check_cuda_annotations(doc: CudaDocument, path: str) -> list[Finding]:
    findings: list[Finding] = []
    for annotation in doc.annotations:
        findings.extend(_annotation(doc, annotation, path))
    return findings


def _annotation(doc: CudaDocument, annotation: Annotation, path: str) -> Iterator[Finding]:
    key = annotation.key
    if key not in ANNOTATION_KEYS:
        yield finding("HC210", f"unknown hiera annotation '{key}'" if key else "empty hiera annotation", path,
                      annotation.span, "known: " + "; ".join(f"{k}: {v}" for k, v in ANNOTATION_KEYS.items()))
        return
    kernel = annotation.function
    if kernel is None:
        yield finding("HC210", f"'hiera: {key}' is not attached to a kernel", path, annotation.span,
                      "put it in the comment lines directly above the __global__ function")
        return
    if key == "block":
        match = _BLOCK_RE.match(annotation.argument)
        if match is None:
            yield finding("HC210", f"bad block shape '{annotation.argument}'", path, annotation.argument_span,
                          ANNOTATION_KEYS["block"])
            return
        dims = tuple(int(group) if group else 1 for group in match.groups())
        yield from _block_violations(doc, kernel, dims, path)  # type: ignore[arg-type]
        return
    try:
        expression = cexpr.parse(annotation.argument)
    except cexpr.CExprError as error:
        column = len(annotation.argument[:error.offset].encode())
        span = annotation.argument_span
        yield finding("HC210", f"bad requires condition: {error}", path,
                      Span(span.start_byte + column, span.end_byte, span.start_line, span.start_col + column,
                           span.end_line, span.end_col), ANNOTATION_KEYS["requires"])
        return
    params = [param.name for param in kernel.params]
    unknown = sorted(expression.names - set(params))
    if unknown:
        yield finding("HC210", f"requires names {', '.join(unknown)}, not parameters of {kernel.name}", path,
                      annotation.argument_span, f"{kernel.name} takes {', '.join(params) or 'no parameters'}")
        return
    yield from _requires_violations(doc, kernel, expression, params, path)


def _block_violations(doc: CudaDocument, kernel: CudaFunction, dims: tuple[int, int, int],
                      path: str) -> Iterator[Finding]:
    for launch in doc.launches:
        if launch.kernel == kernel.name and launch.block is not None and launch.block.dims is not None \
                and launch.block.dims != dims:
            yield finding("HC211", f"{kernel.name} is written for block {_shape(dims)} (hiera: block) but is "
                          f"launched with {_shape(launch.block.dims)}", path, launch.block.span,
                          f"launch with block {_shape(dims)}")


def _requires_violations(doc: CudaDocument, kernel: CudaFunction, expression: cexpr.CExpr, params: list[str],
                         path: str) -> Iterator[Finding]:
    for launch in doc.launches:
        if launch.kernel != kernel.name or launch.syntax != "chevron" or len(launch.args) != len(params):
            continue
        values = {name: arg.value for name, arg in zip(params, launch.args, strict=True)}
        if expression.evaluate(values.get) == 0:
            shown = ", ".join(f"{name}={values[name]}" for name in sorted(expression.names))
            yield finding("HC211", f"launch of {kernel.name} breaks 'requires {expression.text}' ({shown})", path,
                          launch.span, "change the arguments or the kernel's contract")


def _shape(dims: tuple[int, int, int]) -> str:
    x, y, z = dims
    return str(x) if (y, z) == (1, 1) else (f"{x}x{y}" if z == 1 else f"{x}x{y}x{z}")

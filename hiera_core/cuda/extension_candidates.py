"""Extension candidates written by a model: the extensions a candidate's `_hiera_extension(...)` calls
name with constant arguments (`candidate_specs`), and the C++/CUDA sources a module hands to torch's
compilers (`extension_strings`).

`prebuild` builds those extensions in a child process before the candidate runs; compile errors
come back with their lines mapped to lines of the candidate's file (`map_to_candidate`), and the
candidate's own call is then a cache hit. Importing this module imports no torch.
"""

from __future__ import annotations

import ast
import multiprocessing
import re
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from hiera_core.cuda.extensions import (
    _GUTTER_RE,
    ExtensionBuildError,
    ExtensionSpec,
    _build_in_worker,
    build_key,
    cuda_arch_for,
    extensions_dir,
    module_name,
)

HELPER = "_hiera_extension"  # the runtime helper candidates call (hiera_core/cuda/extension_runtime.py)
# Its parameters in order; load_inline's first three are the same.
PARAMETERS = ("name", "cpp_sources", "cuda_sources", "functions", "extra_cflags", "extra_cuda_cflags")


class _Unresolved(Exception):
    """An argument whose value is known only when the candidate runs."""


@dataclass(frozen=True)
class _Literal:
    value: str
    line: int  # line of the candidate's source where the literal starts
    faithful: bool  # its lines are the source's lines (no escaped newlines, no implicit concatenation)


def candidate_specs(source: str) -> list[ExtensionSpec]:
    """The extensions a candidate builds through `_hiera_extension(...)` calls whose arguments are
    constants: string literals, lists of them, `+` of them, and module-level names bound once to
    such a value (the label `name` may be anything). Other calls are left out: they build when the
    candidate runs."""
    tree = ast.parse(source)
    constants = _module_constants(tree)
    specs: list[ExtensionSpec] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == HELPER):
            continue
        try:
            values = _arguments(node, constants)
        except _Unresolved:
            continue
        name = values.pop("name", None)
        if not isinstance(values.get("cpp_sources"), (str, tuple)):
            continue
        spec = ExtensionSpec(name if isinstance(name, str) and name else "extension",
                             **{key: value for key, value in values.items() if value is not None})
        if spec not in specs:
            specs.append(spec)
    return specs


def extension_strings(source: str) -> set[str]:
    """The string values a module passes as C++/CUDA sources to `_hiera_extension` or `load_inline`
    (resolved as in `candidate_specs`, argument by argument): sources for torch's compilers, which
    NVRTC must not be asked to compile."""
    tree = ast.parse(source)
    constants = _module_constants(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if called not in (HELPER, "load_inline"):
            continue
        given: dict[str, ast.AST] = {}
        for parameter, argument in zip(PARAMETERS[:3], node.args):
            if isinstance(argument, ast.Starred):
                break
            given[parameter] = argument
        given.update({keyword.arg: keyword.value for keyword in node.keywords if keyword.arg})
        for parameter in ("cpp_sources", "cuda_sources"):
            try:
                value = _resolve(given[parameter], constants) if parameter in given else None
            except _Unresolved:
                continue
            found.update([value] if isinstance(value, str) else value or ())
    return found


def map_to_candidate(message: str, spec: ExtensionSpec, source: str, first_line: int = 1) -> str:
    """A `trim_compiler_log` message with `cpp_sources:N` / `cuda_sources:N` rewritten to `line M`,
    M the line of the candidate's file (whose `source` starts at its line `first_line`) holding that
    source line in one of its string literals; the excerpt under a rewritten error loses its gutter
    number (it counted lines of the source string). Lines that cannot be placed keep their label."""
    literals = _literals(source)
    mapped: list[str] = []
    placed = False
    for text in message.splitlines():
        match = _LABELLED_RE.match(text)
        if match:
            joined = spec.cpp_text if match["label"] == "cpp_sources" else spec.cuda_text
            line = _place(joined, int(match["line"]), literals)
            placed = line is not None
            if placed:
                text = f"line {line + first_line - 1}: {text[match.end():]}"
        elif not text[:1].isspace():  # another error (in a header, say) or a summary line
            placed = False
        elif placed:
            text = _GUTTER_RE.sub(lambda m: f"{m['indent']}{' ' * len(m['line'])}{m['bar']}", text)
        mapped.append(text)
    return "\n".join(mapped)


def prebuild(source: str, first_line: int = 1, cache_dir: Path | str | None = None) -> str:
    """Build the extensions of a candidate (`candidate_specs`) that are not built yet, in a child
    process, before any of the candidate runs (no library of it is loaded here); '' when all built
    or had been built, else the first failure: the compiler's errors with lines mapped to lines of
    the candidate's file (`source` starts at its line `first_line`). A failure that is no compile
    error (no compiler or CUDA toolkit here) gives '': the candidate's own call meets it and reports
    it when the candidate is loaded."""
    if HELPER not in source:
        return ""
    specs = [spec for spec in candidate_specs(source) if not _is_built(spec, cache_dir)]
    if not specs:
        return ""
    # spawn, not fork: this process may hold torch threads or a CUDA context.
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        for spec in specs:
            try:
                pool.submit(_build_in_worker, spec, cache_dir).result()
            except ExtensionBuildError as error:
                where = map_to_candidate(error.message, spec, source, first_line)
                return f"the extension '{spec.name}' did not build (load_inline): {where}"
            except Exception:
                continue
    return ""


_LABELLED_RE = re.compile(r"^(?P<label>cpp_sources|cuda_sources):(?P<line>\d+): ")


def _is_built(spec: ExtensionSpec, cache_dir: Path | str | None) -> bool:
    try:
        import torch

        name = module_name(build_key(spec, torch.__version__, cuda_arch_for(spec)))
    except Exception:
        return False
    return (extensions_dir(cache_dir) / name / f"{name}.so").exists()


def _module_constants(tree: ast.Module) -> dict[str, ast.AST]:
    """Module-level names bound exactly once, by a plain assignment, to the expression bound."""
    counts: dict[str, int] = {}
    values: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    counts[name.id] = counts.get(name.id, 0) + 1
        if (not isinstance(node, ast.AugAssign) and node.value is not None and len(targets) == 1
                and isinstance(targets[0], ast.Name)):
            values[targets[0].id] = node.value
    return {name: value for name, value in values.items() if counts[name] == 1}


def _resolve(node: ast.AST, constants: dict[str, ast.AST], depth: int = 0):
    """The constant value (str, tuple of str, or None) of an expression, or `_Unresolved`."""
    if depth > 20:
        raise _Unresolved
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, str)):
        return node.value
    if isinstance(node, ast.JoinedStr) and all(isinstance(part, ast.Constant) for part in node.values):
        return "".join(part.value for part in node.values)
    if isinstance(node, (ast.List, ast.Tuple)):
        items = tuple(_resolve(item, constants, depth + 1) for item in node.elts)
        if all(isinstance(item, str) for item in items):
            return items
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _resolve(node.left, constants, depth + 1), _resolve(node.right, constants, depth + 1)
        if type(left) is type(right) and isinstance(left, (str, tuple)):
            return left + right
    if isinstance(node, ast.Name) and node.id in constants:
        return _resolve(constants[node.id], constants, depth + 1)
    raise _Unresolved


def _arguments(call: ast.Call, constants: dict[str, ast.AST]) -> dict:
    given: dict[str, ast.AST] = {}
    for index, argument in enumerate(call.args):
        if isinstance(argument, ast.Starred) or index >= len(PARAMETERS):
            raise _Unresolved
        given[PARAMETERS[index]] = argument
    for keyword in call.keywords:
        if keyword.arg not in PARAMETERS or keyword.arg in given:
            raise _Unresolved
        given[keyword.arg] = keyword.value
    values = {}
    for parameter, node in given.items():
        if parameter == "name":  # a label only: any expression will do
            try:
                values[parameter] = _resolve(node, constants)
            except _Unresolved:
                values[parameter] = None
        else:
            values[parameter] = _resolve(node, constants)
    return values


def _literals(source: str) -> list[_Literal]:
    """The module's string literals, longest first."""
    tree = ast.parse(source)
    in_fstrings = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    literals = [_Literal(node.value, node.lineno,
                         node.value.count("\n") == (node.end_lineno or node.lineno) - node.lineno)
                for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value
                and id(node) not in in_fstrings]
    return sorted(literals, key=lambda literal: -len(literal.value))


def _place(joined: str, line: int, literals: list[_Literal]) -> int | None:
    """The source line holding line `line` of `joined` (a spec's sources), through the literal it came from."""
    for literal in literals:
        if not literal.faithful:
            continue
        start = joined.find(literal.value)
        while start >= 0:
            if start == 0 or joined[start - 1] == "\n":  # literals that start a line of the sources
                first = joined.count("\n", 0, start) + 1
                if first <= line <= first + literal.value.count("\n"):
                    return literal.line + line - first
            start = joined.find(literal.value, start + 1)
    return None

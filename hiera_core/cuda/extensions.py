"""Extension candidates: torch C++/CUDA extensions built with `load_inline`, cached on disk.

A candidate's module name is derived from sha256(sources, bound functions, flags, torch version,
CUDA architecture, Python ABI), so the build directory `$HIERA_CACHE_DIR/extensions/<name>` (default
`~/.cache/hiera/extensions/<name>`) holds exactly one build: a second build of the same candidate, in
this process or another, finds the library there and ninja has nothing to do. Builds of one key are
serialised across processes with an `fcntl` lock; `build_many` builds several candidates in parallel
processes (one ninja per build directory) and then loads them in the caller. The key, the lock and
the `load_inline` call are those of `extension_runtime`, the helper inlined into candidates
(`_hiera_extension`), so HIERA's builds and a candidate's own share one cache entry.

Compile failures raise `ExtensionBuildError`, whose message keeps only the compiler's error lines
and their excerpts, with line numbers mapped to the candidate's `cpp_sources` / `cuda_sources`.

For model-written candidates, `prebuild` builds the extensions a candidate's `_hiera_extension(...)`
calls name with constant arguments, in a child process, before the candidate runs; compile errors
come back with their lines mapped to lines of the candidate's file (`map_to_candidate`), and the
candidate's own call is then a cache hit. Importing this module imports no torch.
"""

from __future__ import annotations

import ast
import multiprocessing
import os
import re
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType

from hiera_core.cuda.extension_runtime import (_hiera_extension_arch, _hiera_extension_build, _hiera_extension_key,
                                               _hiera_extension_name, _hiera_extension_root)

MAX_ERRORS_SHOWN = 8
HELPER = "_hiera_extension"  # the runtime helper candidates call (hiera_core/cuda/extension_runtime.py)
# Its parameters in order; load_inline's first three are the same.
PARAMETERS = ("name", "cpp_sources", "cuda_sources", "functions", "extra_cflags", "extra_cuda_cflags")

# g++/clang: `path:line:col: error: msg`; nvcc: `path(line): error: msg`.
_GCC_DIAGNOSTIC_RE = re.compile(
    r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<message>.*)$")
_NVCC_DIAGNOSTIC_RE = re.compile(r"^(?P<path>\S+)\((?P<line>\d+)\): (?:catastrophic )?error: (?P<message>.*)$")
_GUTTER_RE = re.compile(r"^(?P<indent>\s*)(?P<line>\d+)(?P<bar> \|)")
# One module per key per process: Python cannot usefully import the same extension twice.
_LOADED: dict[str, "BuiltExtension"] = {}


@dataclass(frozen=True)
class ExtensionSpec:
    """One extension candidate; `functions` are the names `load_inline` binds from `cpp_sources`."""

    name: str
    cpp_sources: str | Sequence[str] = ()
    cuda_sources: str | Sequence[str] = ()
    functions: Sequence[str] = ()
    extra_cflags: Sequence[str] = ()
    extra_cuda_cflags: Sequence[str] = ()

    @property
    def cpp_text(self) -> str:
        return _joined(self.cpp_sources)

    @property
    def cuda_text(self) -> str:
        return _joined(self.cuda_sources)


@dataclass
class BuiltExtension:
    spec: ExtensionSpec
    module_name: str  # hiera_ext_<key16>
    module: ModuleType
    cached: bool  # the library was already built (nothing was compiled for this call)
    seconds: float  # time of this call: build plus load, or load alone when cached
    library: Path


class ExtensionBuildError(RuntimeError):
    """A candidate that does not compile; `str()` is the trimmed compiler message, `log` the whole."""

    def __init__(self, spec_name: str, module_name: str, message: str, log: str):
        super().__init__(f"extension '{spec_name}' ({module_name}) failed to build:\n{message}")
        self.spec_name = spec_name
        self.module_name = module_name
        self.message = message
        self.log = log

    def __reduce__(self):  # picklable across the process pool despite the custom __init__
        return (type(self), (self.spec_name, self.module_name, self.message, self.log))


@dataclass
class BuildOutcome:
    """One spec's result in `build_many`: an extension, or the error that stopped it."""

    spec: ExtensionSpec
    extension: BuiltExtension | None = None
    error: Exception | None = None

    @property
    def ok(self) -> bool:
        return self.extension is not None


def build_key(spec: ExtensionSpec, torch_version: str, cuda_arch: str) -> str:
    """sha256 over everything that changes the built library (not the spec's display name)."""
    return _hiera_extension_key(spec.cpp_text, spec.cuda_text, spec.functions, spec.extra_cflags,
                                spec.extra_cuda_cflags, torch_version, cuda_arch)


def module_name(key: str) -> str:
    return _hiera_extension_name(key)


def extensions_dir(cache_dir: Path | str | None = None) -> Path:
    """`<cache_dir>/extensions`; by default the NVRTC cache's root: `$HIERA_CACHE_DIR`, else
    `$XDG_CACHE_HOME/hiera` (`~/.cache/hiera`)."""
    return Path(_hiera_extension_root(cache_dir))


def cuda_arch_for(spec: ExtensionSpec) -> str:
    """The architecture a build targets: `cpu` for C++-only specs, else what torch will compile for."""
    return _hiera_extension_arch(bool(spec.cuda_text))


def build(spec: ExtensionSpec, cache_dir: Path | str | None = None, verbose: bool = False) -> BuiltExtension:
    """Build (or load from the cache) one candidate; raises `ExtensionBuildError` if it does not compile."""
    import torch

    key = build_key(spec, torch.__version__, cuda_arch_for(spec))
    name = module_name(key)
    if key in _LOADED:
        loaded = _LOADED[key]
        return BuiltExtension(spec, name, loaded.module, True, 0.0, loaded.library)

    started = time.perf_counter()
    try:
        # The runtime's own build: same key, lock (which also clears a lock file torch left behind
        # in a killed build) and load_inline arguments as a candidate's `_hiera_extension` call.
        module, library, cached = _hiera_extension_build(
            spec.cpp_sources, spec.cuda_sources, spec.functions, spec.extra_cflags, spec.extra_cuda_cflags,
            cache_dir=cache_dir, verbose=verbose)
    except RuntimeError as error:
        log = str(error)
        if "Error building extension" not in log:
            raise
        raise ExtensionBuildError(spec.name, name, trim_compiler_log(log, spec, extensions_dir(cache_dir) / name),
                                  log) from None
    built = BuiltExtension(spec, name, module, cached, time.perf_counter() - started, Path(library))
    _LOADED[key] = built
    return built


def build_many(specs: Sequence[ExtensionSpec], max_workers: int | None = None,
               cache_dir: Path | str | None = None) -> list[BuildOutcome]:
    """Build `specs` in parallel processes, then load each built one here; one failure stops no other.

    Outcomes come back in the order of `specs`; `extension.cached` says whether the worker found
    the library already built.
    """
    outcomes = [BuildOutcome(spec) for spec in specs]
    # spawn, not fork: the caller may hold torch threads or a CUDA context, which fork does not copy safely.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=max_workers, mp_context=context) as pool:
        futures = [pool.submit(_build_in_worker, spec, cache_dir) for spec in specs]
        for outcome, future in zip(outcomes, futures):
            try:
                worker_cached = future.result()
                # A module cannot cross processes: load it here, a cache hit now that the worker built it.
                outcome.extension = replace(build(outcome.spec, cache_dir), cached=worker_cached)
            except Exception as error:  # noqa: BLE001 - reported per spec, as the API promises
                outcome.error = error
    return outcomes


def trim_compiler_log(log: str, spec: ExtensionSpec, build_dir: Path) -> str:
    """The error lines of a build log with their excerpts, lines mapped to the spec's sources."""
    offsets = _source_offsets(spec, build_dir)
    shown: list[str] = []
    errors = 0
    current = False  # inside a shown error's excerpt
    offset = 0  # of the current error's file
    for text in log.splitlines():
        match = _GCC_DIAGNOSTIC_RE.match(text) or _NVCC_DIAGNOSTIC_RE.match(text)
        if match:
            errors += 1
            current = errors <= MAX_ERRORS_SHOWN
            if current:
                where, offset = _map_location(match["path"], int(match["line"]), offsets)
                shown.append(f"{where}: error: {match['message']}")
        elif current and text.startswith(" ") and text.strip():
            # g++ echoes the line as `  12 | code`: renumber the gutter like the error line.
            shown.append(_GUTTER_RE.sub(
                lambda m: f"{m['indent']}{int(m['line']) - offset}{m['bar']}", text))
        else:
            current = False
    if not errors:  # e.g. a link error: the log's tail is all there is
        return "\n".join(log.strip().splitlines()[-MAX_ERRORS_SHOWN:])
    if errors > MAX_ERRORS_SHOWN:
        shown.append(f"... and {errors - MAX_ERRORS_SHOWN} more errors")
    return "\n".join(shown)


def _build_in_worker(spec: ExtensionSpec, cache_dir: Path | str | None) -> bool:
    return build(spec, cache_dir).cached


def _source_offsets(spec: ExtensionSpec, build_dir: Path) -> dict[str, int]:
    """Per generated file, how many lines load_inline put before the spec's source (its includes)."""
    offsets = {}
    for file_name, source in (("main.cpp", spec.cpp_text), ("cuda.cu", spec.cuda_text)):
        path = build_dir / file_name
        written = path.read_text() if source and path.exists() else ""
        at = written.find(source) if written else -1
        if at >= 0:
            offsets[file_name] = written.count("\n", 0, at)
    return offsets


def _map_location(path: str, line: int, offsets: dict[str, int]) -> tuple[str, int]:
    """`sources:line` for a line of the candidate's own source; headers keep their path and line."""
    file_name = os.path.basename(path)
    if file_name in offsets and line > offsets[file_name]:
        label = "cpp_sources" if file_name == "main.cpp" else "cuda_sources"
        return f"{label}:{line - offsets[file_name]}", offsets[file_name]
    return f"{path}:{line}", 0


def _joined(sources: str | Sequence[str]) -> str:
    return sources if isinstance(sources, str) else "\n".join(sources)


# ---- extension candidates written by a model ---------------------------------------------------
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
            except Exception:  # noqa: BLE001 - not a compile error: the candidate's own build reports it
                continue
    return ""


_LABELLED_RE = re.compile(r"^(?P<label>cpp_sources|cuda_sources):(?P<line>\d+): ")


def _is_built(spec: ExtensionSpec, cache_dir: Path | str | None) -> bool:
    try:
        import torch

        name = module_name(build_key(spec, torch.__version__, cuda_arch_for(spec)))
    except Exception:  # noqa: BLE001 - e.g. CUDA sources on a torch without CUDA: not built here
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

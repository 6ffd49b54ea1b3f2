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

The extensions of model-written candidates are read and prebuilt by `extension_candidates`.
Importing this module imports no torch.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType

from hiera_core.cuda.extension_runtime import (
    _hiera_extension_arch,
    _hiera_extension_build,
    _hiera_extension_key,
    _hiera_extension_name,
    _hiera_extension_root,
)

MAX_ERRORS_SHOWN = 8
# g++/clang: `path:line:col: error: msg`; nvcc: `path(line): error: msg`.
_GCC_DIAGNOSTIC_RE = re.compile(
    r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<message>.*)$")
_NVCC_DIAGNOSTIC_RE = re.compile(r"^(?P<path>\S+)\((?P<line>\d+)\): (?:catastrophic )?error: (?P<message>.*)$")
_GUTTER_RE = re.compile(r"^(?P<indent>\s*)(?P<line>\d+)(?P<bar> \|)")
# One module per key per process: Python cannot usefully import the same extension twice.
_LOADED: dict[str, BuiltExtension] = {}


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
            except Exception as error:
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
                lambda m, offset=offset: f"{m['indent']}{int(m['line']) - offset}{m['bar']}", text))
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

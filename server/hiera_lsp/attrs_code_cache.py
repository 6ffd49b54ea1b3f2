"""The methods attrs generates for lsprotocol's classes, compiled once and kept across server starts.

Importing `lsprotocol.types` defines some 570 attrs classes, and attrs compiles the source of
each one's `__init__`, `__eq__`, `__repr__`...: a third of the time an editor waits for the
initialize answer. `cached_compiles()` hands attrs the code objects compiled by an earlier start
when the generated source is the same, and stores what it had to compile: one marshal file per
Python bytecode version, `$HIERA_CACHE_DIR/lsp` (default `~/.cache/hiera/lsp`). A missing,
unreadable or outdated file only means compiling as attrs always does.
"""

from __future__ import annotations

import builtins
import contextlib
import logging
import marshal
import os
import sys
import tempfile
from collections.abc import Iterator
from importlib.util import MAGIC_NUMBER
from types import CodeType

log = logging.getLogger(__name__)


def cache_path() -> str:
    root = os.environ.get("HIERA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "hiera")
    return os.path.join(root, "lsp", f"attrs-code-{sys.implementation.cache_tag}.marshal")


def _load(path: str) -> dict[str, tuple[str, CodeType]]:
    try:
        with open(path, "rb") as handle:
            magic, entries = marshal.load(handle)
    except FileNotFoundError:
        return {}
    except (OSError, EOFError, ValueError, TypeError) as error:  # a torn or foreign file: compile afresh
        log.info("ignoring the attrs code cache %s: %s", path, error)
        return {}
    return entries if magic == MAGIC_NUMBER and isinstance(entries, dict) else {}


def _store(path: str, entries: dict[str, tuple[str, CodeType]]) -> None:
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".attrs-code-")
    except OSError as error:  # a read-only home: every start compiles, as without the cache
        log.info("cannot write the attrs code cache %s: %s", path, error)
        return
    try:
        with os.fdopen(descriptor, "wb") as handle:
            marshal.dump((MAGIC_NUMBER, entries), handle)
        os.replace(temporary, path)  # atomic: servers starting meanwhile read the old or the new file
    except OSError as error:
        log.info("cannot write the attrs code cache %s: %s", path, error)
        with contextlib.suppress(OSError):
            os.unlink(temporary)


@contextlib.contextmanager
def cached_compiles(path: str | None = None) -> Iterator[None]:
    """Within the block, attrs takes its compiled methods from the cache at `path` (cache_path())."""
    import attr._make as attrs_make

    path = path or cache_path()
    cached = _load(path)
    used: dict[str, tuple[str, CodeType]] = {}
    compiled = False

    def compile_cached(source, filename, mode, *args, **kwargs):
        nonlocal compiled
        entry = cached.get(filename)
        # attrs names each script after its class and method; the source must match exactly.
        if entry is None or entry[0] != source or args or kwargs or mode != "exec":
            entry = (source, builtins.compile(source, filename, mode, *args, **kwargs))
            compiled = True
        used[filename] = entry
        return entry[1]

    # attrs calls the builtin `compile` by its global name: shadowing it in attr._make reaches
    # exactly those calls, and only for the duration of the block.
    attrs_make.compile = compile_cached
    try:
        yield
    finally:
        del attrs_make.compile
    if compiled:  # only what this start used: entries of older attrs or lsprotocol versions drop out
        _store(path, used)

"""The files that decide every later verdict: the reference's source, the local modules it imports,
and HIERA's own. A candidate runs as the user, so it can write them: a sleep written into the
reference's forward slows the user's module for good (a later run prepares its spec from the slowed
file and times every candidate faster against it), and an edited judge passes whatever comes
after. The judge hashes them before a candidate's runner starts and again after, and a change
rejects that candidate (hiera_core.worker.ops). Content hashes, not times: a write can keep a
file's mtime.
"""

from __future__ import annotations

import hashlib
import os
import site
import sys
from pathlib import Path

import hiera_core

PACKAGE = Path(hiera_core.__file__).resolve().parent


def snapshot(reference: str | Path, modules: list[Path] = ()) -> dict[str, str]:
    """sha256 of the reference file, of `modules` (`local_sources`) and of each Python file of the
    hiera_core package, by path ("" for a file that cannot be read)."""
    paths = dict.fromkeys([Path(reference).resolve(), *modules, *sorted(PACKAGE.rglob("*.py"))])
    return {str(path): _digest(path) for path in paths}


def changed(before: dict[str, str]) -> list[str]:
    """The files of `before` whose content differs now, and package files added since."""
    after = {path: _digest(Path(path)) for path in before}
    after.update((str(path), _digest(path)) for path in PACKAGE.rglob("*.py") if str(path) not in after)
    return [path for path in sorted(set(before) | set(after)) if before.get(path) != after.get(path)]


def local_sources() -> list[Path]:
    """The source files of the modules loaded now that are the user's own (the reference's imports
    from its project): not the standard library's, not an installed package's, not HIERA's."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, *site.getsitepackages(), site.getusersitepackages()}
    skipped = tuple(os.path.join(root, "") for path in roots for root in {path, os.path.realpath(path)})
    skipped += (os.path.join(PACKAGE, ""),)
    # __file__ tested first, so most modules' paths are never resolved; their real paths then again
    files = {os.path.realpath(module.__file__) for module in list(sys.modules.values())
             if isinstance(getattr(module, "__file__", None), str) and os.path.isabs(module.__file__)
             and module.__file__.endswith(".py") and not module.__file__.startswith(skipped)}
    return sorted(Path(path) for path in files if not path.startswith(skipped))


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""

"""The `.hiera/` store at the workspace root: run records, specs, profiles, candidates, proposals.

Layout:
    .hiera/runs/<run-id>/run.json          the run record (status, stages, candidates, best, error)
    .hiera/runs/<run-id>/spec.json         the contract-augmented spec
    .hiera/runs/<run-id>/plan.json         the plan
    .hiera/runs/<run-id>/candidates/<name>.py / <name>.json   source, verification and profile
    .hiera/runs/<run-id>/proposal.py       the winning proposal (when one was found)
    .hiera/runs/<run-id>/events.jsonl      every progress event
    .hiera/index/<task-key>.json           latest run, spec, profile and proposal per task (hiera_core.index_entry)
    .hiera/cache/spec/<key>.json           the reference's measured spec, plan and candidates, by content key
    .hiera/cache/outcome/<key>.json        a candidate's verdict, checks and timing (hiera_core.loop.outcome_cache)
    .hiera/cache/confirmation/<key>.json   the fresh-process re-timing of a run's best candidates
    .hiera/cache/inductor/, cache/triton/  torch inductor's and Triton's caches for the workers (FX graphs,
                                           autotuning, kernels), unless the user set their own folders

Every write is atomic (temp file in the same folder + os.replace), so readers never see half a
file, even while a run is in progress; index updates take an flock so two processes writing at
once never lose each other's entries. A cache entry is keyed by a digest of what it depends on
(`cache_key`); one that does not parse reads as absent, and is replaced by the next write (two
processes writing one key write the same thing: the last rename wins). Files get the mode the
user's umask gives (a file replaced keeps its own). A store that cannot be written is one HieraError naming it. Pure: no torch.
"""

from __future__ import annotations

import ast
import contextlib
import fcntl
import hashlib
import json
import os
import re
import secrets
import stat
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.index_entry import IndexEntry

STORE_DIR = ".hiera"
CACHE_DIR = "cache"
WORKSPACE_MARKERS = (".hiera", ".git", "pyproject.toml")


def find_workspace_root(start: str | os.PathLike) -> Path:
    """Nearest ancestor of `start` holding a .hiera/, .git or pyproject.toml; else start's folder."""
    path = Path(start).resolve()
    folder = path if path.is_dir() else path.parent
    for candidate in (folder, *folder.parents):
        if any((candidate / marker).exists() for marker in WORKSPACE_MARKERS):
            return candidate
    return folder


def task_key(workspace: Path, file: str | os.PathLike, class_name: str) -> str:
    """A file-name-safe key for FILE::Class, relative to the workspace."""
    try:
        relative = Path(file).resolve().relative_to(workspace)
    except ValueError:
        relative = Path(file).resolve()
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{relative.as_posix()}__{class_name}").strip("_")


def iso_time() -> str:
    """The local time as records write it, e.g. 2026-11-29T11:54:41+0000."""
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def _umask() -> int:
    """The process's umask, read without changing it (os.umask sets it, racing other threads)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode_for(path: Path) -> int:
    """An existing file's mode, else what open() would give a new one (mkstemp's is 0600)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


def atomic_write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(handle, _mode_for(path))
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=False, default=str) + "\n")


def read_json(path: Path) -> Any | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


@contextlib.contextmanager
def _writing(root: Path) -> Iterator[None]:
    """OSErrors of writing into the store as one HieraError that names it (no traceback)."""
    try:
        yield
    except OSError as error:
        where = f" ({error.filename})" if error.filename and str(error.filename) != str(root) else ""
        raise HieraError(f"cannot write HIERA's store {root}: {error.strerror or error}{where}", kind=ErrorKind.STORE,
                         hint="HIERA records every run there (the editor reads it too): make it a folder you can "
                              "write, or remove it") from None


class Store:
    def __init__(self, root: str | os.PathLike):
        self.workspace = Path(root).resolve()
        self.root = self.workspace / STORE_DIR

    @classmethod
    def for_file(cls, file: str | os.PathLike) -> Store:
        return cls(find_workspace_root(file))

    # ---- locking -------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        with _writing(self.root):
            self.root.mkdir(parents=True, exist_ok=True)
            handle = open(self.root / ".lock", "a+")
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    # ---- runs ----------------------------------------------------------------------------
    def new_run(self, kind: str) -> Run:
        run_id = time.strftime("%Y%m%d-%H%M%S") + f"-{kind}-{os.getpid()}-{secrets.token_hex(3)}"
        return Run(self, run_id)

    def run(self, run_id: str) -> Run:
        return Run(self, run_id)

    def runs(self) -> list[str]:
        folder = self.root / "runs"
        return sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []

    # ---- content-keyed caches ----------------------------------------------------------------
    @property
    def cache_root(self) -> Path:
        return self.root / CACHE_DIR

    def cache_path(self, kind: str, key: str) -> Path:
        return self.cache_root / kind / f"{key}.json"

    def read_cache(self, kind: str, key: str) -> dict | None:
        """The entry under `key`, or None when there is none or it does not parse (a partial or
        corrupt file: the caller recomputes, and its write replaces it)."""
        entry = read_json(self.cache_path(kind, key))
        return entry if isinstance(entry, dict) else None

    def write_cache(self, kind: str, key: str, entry: dict) -> Path:
        target = self.cache_path(kind, key)
        with _writing(self.root):
            atomic_write_json(target, entry)
        return target

    # ---- per-task index ----------------------------------------------------------------------
    def index_path(self, key: str) -> Path:
        return self.root / "index" / f"{key}.json"

    def read_index(self, key: str) -> IndexEntry:
        """The task's index entry; the empty one when there is none or it does not parse."""
        return IndexEntry.from_dict(read_json(self.index_path(key)))

    def index_entries(self) -> list[IndexEntry]:
        """Every task's index entry, in the order of their keys."""
        folder = self.root / "index"
        try:
            names = sorted(name for name in os.listdir(folder) if name.endswith(".json"))
        except OSError:
            return []
        return [IndexEntry.from_dict(read_json(folder / name)) for name in names]

    def update_index(self, key: str, **parts: Any) -> IndexEntry:
        """Set `parts` (IndexEntry's fields) of the task's index entry under the store lock, and its
        `updated` time. Only those keys of the file change: its other parts stay as they are on disk,
        those only another version of HIERA knows too (a malformed file is replaced)."""
        with self.lock():
            path = self.index_path(key)
            stored = read_json(path)
            stored = stored if isinstance(stored, dict) else {}
            entry = replace(IndexEntry.from_dict(stored), **parts, updated=time.time())
            written = entry.to_dict()
            changed = {name: written[name] for name in map(IndexEntry.json_key, [*parts, "updated"])}
            with _writing(self.root):
                atomic_write_json(path, {**stored, **changed})
            return entry


def cache_key(parts: dict) -> str:
    """A file-name-safe digest of `parts` (JSON-able): equal parts, equal keys."""
    canonical = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


def source_digest(path: str | os.PathLike) -> str:
    """sha256 of a module file and of every module it imports from its own folder (which the task
    loader puts on sys.path), transitively: a change to any of them changes the digest. A sibling
    package counts with all its .py files. Files that cannot be read or parsed count by what could
    be read of them."""
    module = Path(path).resolve()
    root = module.parent
    pending, seen = [module], set()
    digest = hashlib.sha256()
    while pending:
        file = pending.pop()
        if file in seen:
            continue
        seen.add(file)
        try:
            data = file.read_bytes()
        except OSError:
            data = b""
        # The module itself by its content alone, so a renamed copy keys the same; its siblings by name too.
        name = "" if file == module else file.relative_to(root).as_posix()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
        pending.extend(sorted(_sibling_modules(data, root) - seen))
    return digest.hexdigest()


def _sibling_modules(source: bytes, root: Path) -> set[Path]:
    """The files under `root` that the imports in `source` name (by their first component)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.module:
                names.add(node.module.split(".")[0])
            elif node.level:  # from . import a, b
                names.update(alias.name for alias in node.names)
    found: set[Path] = set()
    for name in names:
        if (root / f"{name}.py").is_file():
            found.add(root / f"{name}.py")
        elif (root / name).is_dir():
            found.update(p for p in (root / name).rglob("*.py") if "__pycache__" not in p.parts)
    return found


class Run:
    def __init__(self, store: Store, run_id: str):
        self.store = store
        self.id = run_id
        self.path = store.root / "runs" / run_id

    def write_json(self, name: str, data: Any) -> Path:
        target = self.path / name
        with _writing(self.store.root):
            atomic_write_json(target, data)
        return target

    def write_text(self, name: str, text: str) -> Path:
        target = self.path / name
        with _writing(self.store.root):
            atomic_write_text(target, text)
        return target

    def read_json(self, name: str) -> Any | None:
        return read_json(self.path / name)

    def append_event(self, line: str) -> None:
        """Append one JSON line; appends of a single short write are atomic on POSIX."""
        with _writing(self.store.root):
            self.path.mkdir(parents=True, exist_ok=True)
            with open(self.path / "events.jsonl", "a", encoding="utf-8") as handle:
                handle.write(line.rstrip("\n") + "\n")

"""Which tasks a bench run covers.

A suite is a folder in KernelBench's layout (`level1/*.py`, `level2/*.py`, ...; the KernelBench
repository's own `KernelBench/` folder is one), a single `levelN/` folder, or task files named
one by one. Within a level, files run in the order of their number prefix (`2_` before `10_`).
The level filter applies to tasks found in folders; files named one by one always run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hiera_core.errors import ErrorKind, HieraError

LEVEL_FOLDER = re.compile(r"^level(\d+)$")
DEFAULT_LEVELS = (1, 2, 3)


@dataclass(frozen=True)
class BenchTask:
    id: str  # "level2/6_Bias_Tanh_Clamp_Residual.py": stable between runs, the key --resume uses
    path: str  # absolute
    level: int | None


def parse_levels(text: str) -> tuple[int, ...]:
    """'1,2,3' -> (1, 2, 3); raises ValueError on anything else."""
    try:
        levels = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        levels = ()
    if not levels or any(level < 0 for level in levels):
        raise ValueError(f"expected levels such as 1,2,3, got {text!r}")
    return levels


def _level_of(folder: str) -> int | None:
    match = LEVEL_FOLDER.match(os.path.basename(os.path.normpath(folder)))
    return int(match.group(1)) if match else None


def _natural_key(name: str) -> tuple:
    """Sort '2_x.py' before '10_x.py' (KernelBench numbers its tasks)."""
    return tuple(int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name))


def _is_task_file(name: str) -> bool:
    # Skips packages' __init__.py, hidden files and proposals written next to a task (<stem>_hiera.py).
    return name.endswith(".py") and not name.startswith(("_", ".")) and not name.endswith("_hiera.py")


def _folder_tasks(folder: str, level: int) -> list[BenchTask]:
    names = sorted((name for name in os.listdir(folder) if _is_task_file(name)
                    and os.path.isfile(os.path.join(folder, name))), key=_natural_key)
    return [BenchTask(f"level{level}/{name}", os.path.abspath(os.path.join(folder, name)), level) for name in names]


def _suite_tasks(folder: str, levels: Sequence[int]) -> list[BenchTask]:
    own_level = _level_of(folder)
    if own_level is not None:
        return _folder_tasks(folder, own_level) if own_level in levels else []
    found = {level: os.path.join(folder, entry) for entry in os.listdir(folder)
             if (level := _level_of(entry)) is not None and os.path.isdir(os.path.join(folder, entry))}
    if not found:
        raise HieraError(f"{folder} is not a suite in KernelBench's layout (no level1/, level2/, ... folders)",
                         file=folder, kind=ErrorKind.USAGE,
                         hint="give a folder holding levelN/ folders of task files, a levelN/ folder, or task files")
    return [task for level in sorted(found) if level in levels for task in _folder_tasks(found[level], level)]


def _file_task(path: str) -> BenchTask:
    if not path.endswith(".py"):
        raise HieraError(f"{path} is not a Python task file", file=path, kind=ErrorKind.USAGE,
                         hint="give .py files in KernelBench format, or a suite folder")
    level = _level_of(os.path.dirname(os.path.abspath(path)))
    name = os.path.basename(path)
    return BenchTask(f"level{level}/{name}" if level is not None else os.path.relpath(path), os.path.abspath(path),
                     level)


def discover(sources: Iterable[str], levels: Sequence[int] = DEFAULT_LEVELS,
             limit: int | None = None) -> list[BenchTask]:
    """The tasks of the given folders and files, at most `limit` per level (in order)."""
    tasks: list[BenchTask] = []
    for source in sources:
        if os.path.isdir(source):
            tasks.extend(_suite_tasks(source, levels))
        elif os.path.isfile(source):
            tasks.append(_file_task(source))
        else:
            raise HieraError(f"no such file or folder: {source}", kind=ErrorKind.USAGE,
                             hint="give a suite folder (KernelBench layout) or task files")
    unique: dict[str, BenchTask] = {}
    for task in tasks:
        other = unique.get(task.id)
        if other is not None and other.path != task.path:
            raise HieraError(f"two tasks share the id {task.id}: {other.path} and {task.path}", kind=ErrorKind.USAGE,
                             hint="run the two suites into separate --out folders")
        unique[task.id] = task
    if limit is None:
        return list(unique.values())
    kept: list[BenchTask] = []
    per_level: dict[int | None, int] = {}
    for task in unique.values():
        per_level[task.level] = per_level.get(task.level, 0) + 1
        if per_level[task.level] <= limit:
            kept.append(task)
    return kept

"""What `.hiera/` knows about a module: its index record (last run, profile, proposal, failures).

The store is found the way the CLI finds it (nearest folder with .hiera/, .git or
pyproject.toml), so the editor reads what the jobs wrote. Read-only here: only the CLI writes.
"""

from __future__ import annotations

import json
import os

# hiera_core.store loads on the first read, not while the editor waits for initialize.


def workspace_root(path: str) -> str:
    from hiera_core.store import find_workspace_root

    return str(find_workspace_root(path))


def read_record(path: str, class_name: str) -> dict:
    from hiera_core.store import Store, task_key

    store = Store.for_file(path)
    return store.read_index(task_key(store.workspace, path, class_name))


def all_records(path: str) -> list[dict]:
    """Every index record of the workspace that `path` belongs to."""
    from hiera_core.store import Store

    folder = Store.for_file(path).root / "index"
    records = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    for name in names:
        if name.endswith(".json"):
            try:
                records.append(json.loads((folder / name).read_text(encoding="utf-8")))
            except (OSError, ValueError):
                continue
    return records

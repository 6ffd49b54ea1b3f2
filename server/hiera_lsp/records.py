"""What `.hiera/` knows about a module: its index entry (last run, profile, proposal, failures).

The store is found the way the CLI finds it (nearest folder with .hiera/, .git or
pyproject.toml), so the editor reads what the jobs wrote. Read-only here: only the CLI writes.
An entry written by another version of HIERA reads as much as this one knows of it
(hiera_core.index_entry).
"""

from __future__ import annotations

from hiera_core.index_entry import IndexEntry

# hiera_core.store loads on the first read, not while the editor waits for initialize.


def workspace_root(path: str) -> str:
    from hiera_core.store import find_workspace_root

    return str(find_workspace_root(path))


def read_record(path: str, class_name: str) -> IndexEntry:
    from hiera_core.store import Store, task_key

    store = Store.for_file(path)
    return store.read_index(task_key(store.workspace, path, class_name))


def all_records(path: str) -> list[IndexEntry]:
    """Every index entry of the workspace that `path` belongs to."""
    from hiera_core.store import Store

    return Store.for_file(path).index_entries()

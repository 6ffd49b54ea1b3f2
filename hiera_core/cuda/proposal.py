"""Source text of the runtime a custom-CUDA proposal carries: only the helpers it calls.

The helpers live in `proposal_runtime` as ordinary functions; this module copies the imports,
the cache dictionaries and the needed functions (and, transitively, the helpers they call) out
of that file.
"""

from __future__ import annotations

import ast
from pathlib import Path

_RUNTIME_FILE = Path(__file__).with_name("proposal_runtime.py")


def runtime_source(entry_points: list[str] | set[str]) -> str:
    """Imports, caches and the helpers `entry_points` (e.g. `_hiera_pointwise`) need, as source."""
    text = _RUNTIME_FILE.read_text()
    tree = ast.parse(text)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    unknown = set(entry_points) - set(functions)
    if unknown:
        raise ValueError(f"no runtime helper {', '.join(sorted(unknown))}")
    needed: set[str] = set()
    pending = list(entry_points)
    while pending:
        name = pending.pop()
        if name in needed:
            continue
        needed.add(name)
        pending += [n.id for n in ast.walk(functions[name]) if isinstance(n, ast.Name) and n.id in functions]
    preamble = [ast.get_source_segment(text, node) for node in tree.body
                if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign))]
    bodies = [ast.get_source_segment(text, node) for name, node in functions.items() if name in needed]
    return "\n".join(preamble) + "\n\n\n" + "\n\n\n".join(bodies) + "\n"

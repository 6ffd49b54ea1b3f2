"""Source text of the runtime a custom-kernel proposal carries: only the helpers it calls.

The helpers live as ordinary functions in `proposal_runtime` with `proposal_leaves` and
`proposal_convolutions` (NVRTC kernels: torch, cuda.core) and `extension_runtime` (load_inline
extensions: torch only); this module copies the needed functions (and, transitively, the helpers
they call) out of those files, with the module-level imports and caches they use and nothing else,
so an extension-only proposal does not import cuda.core.
"""

from __future__ import annotations

import ast
from pathlib import Path

NVRTC_RUNTIME_FILE = Path(__file__).with_name("proposal_runtime.py")
LEAVES_RUNTIME_FILE = Path(__file__).with_name("proposal_leaves.py")
CONVOLUTIONS_RUNTIME_FILE = Path(__file__).with_name("proposal_convolutions.py")
EXTENSION_RUNTIME_FILE = Path(__file__).with_name("extension_runtime.py")
_RUNTIME_FILES = (NVRTC_RUNTIME_FILE, LEAVES_RUNTIME_FILE, CONVOLUTIONS_RUNTIME_FILE, EXTENSION_RUNTIME_FILE)


def runtime_source(entry_points: list[str] | set[str], present: set[str] = frozenset()) -> str:
    """Imports, caches and the helpers `entry_points` (e.g. `_hiera_pointwise`) need, as source; less
    the helpers in `present` (and what only they need), which the code it joins defines already."""
    functions: dict[str, tuple[str, ast.FunctionDef]] = {}
    modules: list[tuple[str, ast.Module]] = []
    for path in _RUNTIME_FILES:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        modules.append((text, tree))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                if node.name in functions:
                    raise ValueError(f"runtime helper {node.name} is defined twice")
                functions[node.name] = (text, node)
    unknown = set(entry_points) - set(functions)
    if unknown:
        raise ValueError(f"no runtime helper {', '.join(sorted(unknown))}")
    needed: set[str] = set()
    pending = list(entry_points)
    while pending:
        name = pending.pop()
        if name in needed or name in present:
            continue
        needed.add(name)
        pending += [n.id for n in ast.walk(functions[name][1]) if isinstance(n, ast.Name) and n.id in functions]
    used = set().union(*(_free_names(functions[name][1]) for name in needed))
    imports: list[str] = []
    caches: list[str] = []
    for text, tree in modules:
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                # a helper one runtime file imports from another is copied itself, not imported
                kept = [alias for alias in node.names if (alias.asname or alias.name).split(".")[0] in used
                        and alias.name not in functions]
                if kept:
                    statement = (ast.Import(names=kept) if isinstance(node, ast.Import)
                                 else ast.ImportFrom(module=node.module, names=kept, level=node.level))
                    line = ast.unparse(statement)
                    if line not in imports:
                        imports.append(line)
            elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in used for t in node.targets):
                caches.append(ast.get_source_segment(text, node))
    bodies = [ast.get_source_segment(text, node) for name, (text, node) in functions.items() if name in needed]
    imports.sort(key=lambda line: (line.startswith("from "), line))
    return "\n".join(imports + caches) + "\n\n\n" + "\n\n\n".join(bodies) + "\n"


def _free_names(function: ast.FunctionDef) -> set[str]:
    """Names a function reads that it does not import itself (`import torch` in its body needs no
    module-level import)."""
    local = {(alias.asname or alias.name).split(".")[0] for node in ast.walk(function)
             if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    return {node.id for node in ast.walk(function) if isinstance(node, ast.Name)} - local

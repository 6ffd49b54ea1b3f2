"""The layout docs/architecture.md describes holds: no import cycle among the engine's or the
server's modules (counting imports under TYPE_CHECKING and inside functions), and no module too
long to read in one sitting."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = [REPO / "hiera_core", REPO / "server" / "hiera_lsp"]
MAX_LINES = 450


def _modules(package: Path) -> dict[str, Path]:
    found = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that `path` imports, wherever the import statement is. `from pkg
    import sub` names the submodule, not pkg's __init__ (which every submodule import runs anyway)."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            targets = submodules if all(s in known for s in submodules) else [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph`, as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == 1:
                return path[path.index(imported):] + [imported]
            if imported not in state and (cycle := visit(imported)):
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_import_cycle(package):
    modules = _modules(package)
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_module_over_the_line_limit(package):
    long = {str(path.relative_to(REPO)): lines for path in _modules(package).values()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines, split along its seams: {long}"


def test_the_cycle_finder_finds_a_cycle_through_a_type_checking_import(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import B\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import A\n")
    (package / "c.py").write_text("def late():\n    from pkg import a\n")
    modules = _modules(package)
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    assert _cycle(graph) == ["pkg.a", "pkg.b", "pkg.a"]
    assert graph["pkg.c"] == {"pkg.a"}

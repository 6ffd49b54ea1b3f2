"""A HieraError's kind is an ErrorKind member at every raise site, and on the wire (JSON, events,
bench records) it is the member's plain string, which another HIERA version may not know."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from hiera_core.errors import ErrorKind, HieraError

REPO = Path(__file__).resolve().parents[2]
SOURCES = [path for package in (REPO / "hiera_core", REPO / "server" / "hiera_lsp") for path in package.rglob("*.py")]


def _error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """HieraError and the classes that derive from it, by name."""
    names = {"HieraError"}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(getattr(base, "id", None) in names for base in node.bases):
                names.add(node.name)
    return names


def test_every_raise_site_names_its_kind_by_an_error_kind_member():
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in SOURCES}
    classes = _error_classes(trees)
    wrong = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            where = f"{path.relative_to(REPO)}:{getattr(node, 'lineno', '?')}"
            # ErrorKind.X only fails when its line runs: a misspelt member is caught here instead.
            if (isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "ErrorKind"
                    and node.attr not in ErrorKind.__members__):
                wrong.append(f"{where}: no member ErrorKind.{node.attr}")
            called = getattr(node.func, "id", getattr(node.func, "attr", None)) if isinstance(node, ast.Call) else None
            if called in classes or called == "user_error":  # Task.user_error passes its kind on, 5th argument
                kinds = [keyword.value for keyword in node.keywords if keyword.arg == "kind"]
                kinds += node.args[4:5] if called == "user_error" else []
                wrong += [f"{where}: kind={ast.unparse(kind)}" for kind in kinds if isinstance(kind, ast.Constant)]
    assert not wrong, "pass kind=ErrorKind.<MEMBER>, not a string:\n" + "\n".join(wrong)


@pytest.mark.parametrize("kind", list(ErrorKind))
def test_an_error_of_each_kind_round_trips_through_json_as_its_string(kind):
    error = HieraError("the forward hangs", file="m.py", line=7, hint="fix the loop", kind=kind,
                       details={"log": "tail"})
    text = json.dumps(error.to_dict())
    assert json.loads(text)["kind"] == kind.value and f'"kind": "{kind.value}"' in text
    back = HieraError.from_dict(json.loads(text))
    assert back.kind is kind and back.to_dict() == error.to_dict()
    assert f"{back.kind}" == str(back.kind) == kind.value


def test_the_default_kind_is_the_general_one_and_reads_error_on_the_wire():
    assert json.loads(json.dumps(HieraError("failed").to_dict()))["kind"] == "error"


def test_a_kind_from_another_version_falls_back_to_the_general_kind_and_keeps_the_rest():
    error = HieraError.from_dict({"message": "the GPU fell off the bus", "file": "m.py", "line": 3,
                                  "hint": "reseat it", "kind": "gpu-lost", "details": {}})
    assert error.kind is ErrorKind.GENERAL
    assert str(error) == "m.py:3: the GPU fell off the bus\n  hint: reseat it"

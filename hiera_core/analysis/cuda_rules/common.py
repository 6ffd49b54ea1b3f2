"""Helpers the CUDA rule families share: barrier names, comparisons and node text."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from hiera_core.analysis.cuda_syntax import node_text

BARRIERS = {"__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or"}


_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def comparisons(condition: Node, joined: str = "&&", negated: bool = False) -> Iterator[tuple[Node, str, Node]]:
    """(left, "<" | "<=", right) of each comparison joined by `joined` in `condition`; `negated`: of
    each comparison's negation (what an early exit on an `||` chain leaves true: `if (i > n || j >= m)
    return;` leaves i <= n and j < m)."""
    todo = [condition]
    while todo:
        node = unparen(todo.pop())
        if node.type == "condition_clause" and node.named_children:
            todo.append(node.named_children[-1])
            continue
        if node.type != "binary_expression":
            continue
        operator = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if operator is None or left is None or right is None:
            continue
        if operator.type == joined:
            todo += [left, right]
        elif operator.type in _NEGATED:
            kind = _NEGATED[operator.type] if negated else operator.type
            yield (left, kind, right) if kind in ("<", "<=") else (right, {">": "<", ">=": "<="}[kind], left)


def operator_text(node: Node) -> str | None:
    operator = node.child_by_field_name("operator")
    return None if operator is None else operator.type


def unparen(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def short(node: Node, limit: int = 60) -> str:
    text = " ".join(node_text(node).split())
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return text if len(text) <= limit else text[:limit - 3] + "..."

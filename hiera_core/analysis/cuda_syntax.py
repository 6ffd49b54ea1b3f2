"""tree-sitter-cuda basics that the CUDA views share: the language, query captures in linear time,
and reading declarators."""

from __future__ import annotations

import tree_sitter_cuda
from tree_sitter import Language, Node, Query, QueryCursor

CUDA = Language(tree_sitter_cuda.language())
MAX_QUERY_CHILDREN = 256


def bounded_captures(query: Query, root: Node) -> dict[str, list[Node]]:
    """`QueryCursor(query).captures(root)`, in time linear in the tree: tree-sitter's query cursor
    takes time quadratic in the number of children of an ERROR node (100,000 unmatched `{` took
    40 s), so such nodes are not queried whole but child by child. An ERROR node split so is still
    reported under the capture name "error" when the query has one."""
    names = {query.capture_name(index) for index in range(query.capture_count)}
    merged: dict[str, list[Node]] = {}
    todo = [root]
    while todo:
        node = todo.pop()
        if node.type == "ERROR" and node.child_count > MAX_QUERY_CHILDREN:
            if "error" in names:
                merged.setdefault("error", []).append(node)
            todo.extend(node.children)
            continue
        for name, nodes in QueryCursor(query).captures(node).items():
            merged.setdefault(name, []).extend(nodes)
    return merged


RESTRICT_KEYWORDS = {"__restrict__", "__restrict", "restrict"}


def node_text(node: Node) -> str:
    return node.text.decode("utf-8", "replace")


def function_name_node(declarator: Node | None) -> Node | None:
    """The identifier naming a function, through pointer/reference/template/qualified wrappers."""
    while declarator is not None:
        kind = declarator.type
        if kind in ("identifier", "field_identifier", "destructor_name", "operator_name"):
            return declarator
        if kind == "function_declarator" or kind in ("pointer_declarator", "reference_declarator"):
            declarator = declarator.child_by_field_name("declarator") or (
                declarator.named_children[-1] if declarator.named_children else None)
        elif kind in ("template_function", "qualified_identifier"):
            declarator = declarator.child_by_field_name("name")
        else:
            return None
    return None


def unwrap_declarator(declarator: Node | None) -> tuple[Node | None, int, bool, bool, list[Node]]:
    """(identifier, pointer depth, restrict, reference, array size nodes) of a declarator."""
    depth, restrict, reference, sizes = 0, False, False, []
    while declarator is not None and declarator.type != "identifier":
        kind = declarator.type
        if kind == "pointer_declarator":
            depth += 1
            restrict = restrict or any(child.type == "type_qualifier" and node_text(child) in RESTRICT_KEYWORDS
                                       for child in declarator.children)
        elif kind == "reference_declarator":
            reference = True
        elif kind == "array_declarator":
            size = declarator.child_by_field_name("size")
            sizes.insert(0, size)
        elif kind not in ("init_declarator", "parenthesized_declarator"):
            return None, depth, restrict, reference, sizes
        declarator = declarator.child_by_field_name("declarator") or next(
            (child for child in declarator.named_children if child.type != "type_qualifier"), None)
    return declarator, depth, restrict, reference, sizes

"""Which values and branches of a GPU function depend on the thread: the facts behind the CUDA rules.

Flow-insensitive and per function, on purpose: a name depends on threadIdx if any of its
definitions or assignments reads threadIdx or such a name. Control is tracked as byte ranges: an
`if`/loop/ternary/`switch` condition controls the bytes after it up to the end of the statement,
and an early exit (`if (c) return;`) controls the rest of the enclosing block.

Two kinds of thread dependence matter:
- *thread*: differs between threads of a block (threadIdx.x/y/z); barriers care about this.
- *lane*: differs between lanes of one warp: threadIdx.x, except inside `/ 32` or `>> 5`.
  threadIdx.y/z are taken as warp-uniform, assuming blockDim.x is a multiple of 32 (HC106).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from tree_sitter import Node, Query, QueryCursor

from hiera_core.analysis.cuda_source import CUDA, WARP_SIZE, CudaDocument, CudaFunction, node_text, unwrap_declarator

_QUERY = Query(CUDA, """
(identifier) @ident
(init_declarator declarator: (_) @def.name value: (_) @def.value) @def
(assignment_expression left: (identifier) @set.name right: (_) @set.value)
(if_statement condition: (_) @cond) @if
(for_statement condition: (_) @cond) @for
(while_statement condition: (_) @cond) @while
(do_statement condition: (_) @cond) @do
(switch_statement condition: (_) @cond) @switch
(conditional_expression condition: (_) @cond) @ternary
[(return_statement) (continue_statement) (break_statement)] @exit
(call_expression function: (identifier) @call.name arguments: (argument_list)) @call
(subscript_expression argument: (identifier) @sub.base indices: (_) @sub.index) @sub
(binary_expression operator: ["*" "/" ">>"]) @binary
(number_literal) @number
""")

THREAD = "threadIdx"  # threadIdx.x (and bare threadIdx)
THREAD_YZ = "threadIdx.yz"  # threadIdx.y / threadIdx.z
UNIFORM_BUILTINS = {"blockDim", "gridDim", "warpSize"}
_CONTROL_KINDS = ("if", "for", "while", "do", "switch", "ternary")
_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")


@dataclass
class Region:
    """Bytes [start, end) that run only when `condition` holds (or, for an exit, did not fire)."""

    kind: str  # "if", "for", "while", "do", "switch", "ternary" or "exit"
    condition: Node
    start: int
    end: int


class FunctionFlow:
    def __init__(self, doc: CudaDocument, function: CudaFunction):
        self.doc = doc
        self.function = function
        body = function.body
        captures = QueryCursor(_QUERY).captures(body) if body is not None else {}

        def captured(name: str) -> list[Node]:
            return sorted(captures.get(name, []), key=lambda node: node.start_byte)

        self.idents: list[tuple[int, str]] = [(node.start_byte, _ident_name(node)) for node in captured("ident")]
        self._ident_starts = [start for start, _ in self.idents]
        self.calls: list[tuple[str, Node]] = [(node_text(name), name.parent) for name in captured("call.name")
                                               if name.parent is not None]
        self.subscripts: list[tuple[str, Node, Node]] = [
            (node_text(base), base.parent, base.parent.child_by_field_name("indices"))
            for base in captured("sub.base") if base.parent is not None]
        self.binaries: list[Node] = captured("binary")
        self.numbers: list[Node] = captured("number")
        self.var_types: dict[str, str] = {param.name: param.base_type for param in function.params
                                          if param.pointer_depth == 0}
        self._warp_divisions = self._warp_division_ranges()
        self.defs: dict[str, set[str]] = {}
        self.lane_defs: dict[str, set[str]] = {}
        self.declarations: list[tuple[str, Node, Node, str]] = []  # (name, init_declarator, value, type)
        local_pointers: set[str] = set()
        for init in captured("def"):
            name_node, value = init.child_by_field_name("declarator"), init.child_by_field_name("value")
            ident, depth, *_ = unwrap_declarator(name_node)
            if ident is None or value is None:
                continue
            name = node_text(ident)
            type_node = init.parent.child_by_field_name("type") if init.parent is not None else None
            type_text = " ".join(node_text(type_node).split()) if type_node is not None else ""
            self.declarations.append((name, init, value, type_text))
            self.var_types.setdefault(name, type_text if depth == 0 else type_text + "*")
            self._add_def(name, value)
            if depth > 0 or type_text == "auto":
                local_pointers.add(name)
        for name_node in captured("set.name"):
            value = name_node.parent.child_by_field_name("right") if name_node.parent is not None else None
            if value is not None:
                self._add_def(node_text(name_node), value)
        self.thread_vars = self._closure_of_seeds(self.defs, {THREAD, THREAD_YZ})
        self.lane_vars = self._closure_of_seeds(self.lane_defs, {THREAD})
        self.global_pointers = self._global_pointers(local_pointers)
        self.regions = self._regions(captures)
        self.exits = self._exits(captured("exit"))

    # -- names -------------------------------------------------------------------------------
    def names_in(self, node: Node) -> set[str]:
        """Identifiers read inside `node` (threadIdx.y/z appear as THREAD_YZ)."""
        return {name for _, name in self._idents_in(node)}

    def lane_names_in(self, node: Node) -> set[str]:
        """Identifiers inside `node` that are not under a warp division (`tid / 32`, `tid >> 5`)."""
        return {name for start, name in self._idents_in(node)
                if not any(lo <= start < hi for lo, hi in self._warp_divisions)}

    def closure(self, names: set[str]) -> set[str]:
        """`names` and every name they are computed from, transitively."""
        seen, todo = set(names), list(names)
        while todo:
            for dep in self.defs.get(todo.pop(), ()):
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        return seen

    def is_thread_dependent(self, node: Node) -> bool:
        return bool(self.names_in(node) & self.thread_vars)

    def is_lane_divergent(self, condition: Node) -> bool:
        """Whether `condition` can differ between lanes of one warp."""
        kind = condition.type
        if kind in ("parenthesized_expression", "condition_clause") and condition.named_children:
            return any(self.is_lane_divergent(child) for child in condition.named_children)
        if kind == "binary_expression":
            operator = condition.child_by_field_name("operator")
            left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
            op = operator.type if operator is not None else ""
            if op in ("&&", "||") and left is not None and right is not None:
                return self.is_lane_divergent(left) or self.is_lane_divergent(right)
            if op in ("<", ">=", "<=", ">") and left is not None and right is not None:
                # `tid < 64` splits the block at a warp boundary: every warp is all in or all out
                bound = self.doc.constants.int_at(right, right.start_byte)
                if bound is None:
                    bound = self.doc.constants.int_at(left, left.start_byte)
                    op = {"<": ">", ">=": "<=", "<=": ">=", ">": "<"}[op]
                if bound is not None:
                    edge = bound if op in ("<", ">=") else bound + 1
                    if edge % WARP_SIZE == 0:
                        return False
        return bool(self.lane_names_in(condition) & self.lane_vars)

    # -- control -----------------------------------------------------------------------------
    def controlling(self, byte: int, with_exits: bool = True) -> list[Region]:
        """Regions whose condition decides whether `byte` runs, innermost first."""
        found = [region for region in self.regions if region.start <= byte < region.end]
        if with_exits:
            found += [region for region in self.exits if region.start <= byte < region.end]
        return sorted(found, key=lambda region: region.end - region.start)

    def guarded(self, byte: int, index_names: set[str]) -> bool:
        """Whether a controlling condition bounds any local or thread variable of the index."""
        wanted = self.closure(index_names) - UNIFORM_BUILTINS - {p.name for p in self.function.params}
        return any(self.closure(self.names_in(region.condition)) & wanted for region in self.controlling(byte))

    # -- construction helpers ----------------------------------------------------------------
    def _idents_in(self, node: Node) -> list[tuple[int, str]]:
        lo = bisect_left(self._ident_starts, node.start_byte)
        hi = bisect_left(self._ident_starts, node.end_byte)
        return self.idents[lo:hi]

    def _add_def(self, name: str, value: Node) -> None:
        self.defs.setdefault(name, set()).update(self.names_in(value))
        self.lane_defs.setdefault(name, set()).update(self.lane_names_in(value))

    @staticmethod
    def _closure_of_seeds(defs: dict[str, set[str]], seeds: set[str]) -> set[str]:
        dependent = set(seeds)
        changed = True
        while changed:
            changed = False
            for name, deps in defs.items():
                if name not in dependent and deps & dependent:
                    dependent.add(name)
                    changed = True
        return dependent

    def _global_pointers(self, local_pointers: set[str]) -> set[str]:
        pointers = {param.name for param in self.function.params if param.pointer_depth > 0}
        changed = True
        while changed:
            changed = False
            for name in local_pointers - pointers:
                if self.defs.get(name, set()) & pointers and self._is_pointer_valued(name):
                    pointers.add(name)
                    changed = True
        return pointers

    def _is_pointer_valued(self, name: str) -> bool:
        # `auto` locals count only when initialised with pointer arithmetic, not with a loaded value
        if not self.var_types.get(name, "").startswith("auto"):
            return True
        for declared, _, value, _ in self.declarations:
            if declared == name:
                return value.type in ("identifier", "binary_expression", "pointer_expression", "cast_expression")
        return False

    def _warp_division_ranges(self) -> list[tuple[int, int]]:
        ranges = []
        for node in self.binaries:
            operator, left, right = (node.child_by_field_name(f) for f in ("operator", "left", "right"))
            if operator is None or left is None or right is None or operator.type == "*":
                continue
            divisor = WARP_SIZE if node_text(right) == "warpSize" else self.doc.constants.int_at(right, node.start_byte)
            if (operator.type == "/" and divisor == WARP_SIZE) or (operator.type == ">>" and divisor == 5):
                ranges.append((left.start_byte, left.end_byte))
        return ranges

    def _regions(self, captures: dict[str, list[Node]]) -> list[Region]:
        regions = []
        for kind in _CONTROL_KINDS:
            for statement in captures.get(kind, []):
                condition = statement.child_by_field_name("condition")
                if condition is None:
                    continue
                if kind == "do":  # the body runs once before the condition is tested
                    body = statement.child_by_field_name("body")
                    start = body.end_byte if body is not None else condition.start_byte
                else:
                    start = condition.end_byte
                regions.append(Region(kind, condition, start, statement.end_byte))
        return regions

    def _exits(self, exits: list[Node]) -> list[Region]:
        """`if (cond) return;` (or continue/break in a loop): the rest of the scope depends on cond."""
        regions = []
        body = self.function.body
        for exit_node in exits:
            guard, node = None, exit_node
            scope_end = body.end_byte if body is not None else exit_node.end_byte
            while node.parent is not None and node != body:
                parent = node.parent
                if parent.type == "if_statement" and node != parent.child_by_field_name("condition") and guard is None:
                    guard = parent
                if parent.type == "switch_statement" and exit_node.type == "break_statement":
                    guard = None
                    break
                if parent.type in _LOOPS and exit_node.type != "return_statement":
                    loop_body = parent.child_by_field_name("body")
                    scope_end = loop_body.end_byte if loop_body is not None else parent.end_byte
                    break
                if parent.type in ("lambda_expression", "function_definition"):
                    break
                node = parent
            condition = guard.child_by_field_name("condition") if guard is not None else None
            if guard is not None and condition is not None and guard.end_byte < scope_end:
                regions.append(Region("exit", condition, guard.end_byte, scope_end))
        return regions


def _ident_name(node: Node) -> str:
    name = node_text(node)
    if name == THREAD:
        parent = node.parent
        if parent is not None and parent.type == "field_expression":
            field = parent.child_by_field_name("field")
            if field is not None and node_text(field) in ("y", "z"):
                return THREAD_YZ
    return name

"""Which values and branches of a GPU function depend on the thread: the facts behind the CUDA rules.

FunctionFlow derives them from one walk of the function's body (cuda_walk.FlowWalk).
Flow-insensitive per variable, on purpose: a variable depends on threadIdx if any of its
definitions or assignments reads threadIdx or such a variable. Control is a chain of regions per
node: the `if`/loop/ternary/`switch` conditions around it, innermost first, and the early exits
(`if (c) return;`, `continue`, `break`) that come before it in its scope.

Two kinds of thread dependence matter:
- *thread*: differs between threads of a block (threadIdx.x/y/z); barriers care about this.
- *lane*: differs between lanes of one warp: threadIdx.x, except inside `/ 32` or `>> 5`.
  threadIdx.y/z are taken as warp-uniform, assuming blockDim.x is a multiple of 32 (HC106).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator

from tree_sitter import Node

from hiera_core.analysis import cexpr
from hiera_core.analysis.cuda_document import WARP_SIZE, CudaDocument, CudaFunction
from hiera_core.analysis.cuda_regions import THREAD, THREAD_YZ, Access, Region
from hiera_core.analysis.cuda_syntax import node_text
from hiera_core.analysis.cuda_walk import FlowWalk

UNIFORM_BUILTINS = {"blockDim", "gridDim", "warpSize"}
_END = float("inf")
MAX_CONDITION_TERMS = 10_000  # terms of one &&/|| chain looked at for lane divergence
# macros only a HIP/ROCm build defines (USE_ROCM, __HIP_PLATFORM_AMD__, __HIPCC__, MMCV_WITH_HIP, ...)
_HIP_MACRO_RE = re.compile(r"(?:^|_)(?:HIP|HIPCC|ROCM|HCC)(?:_|$)")
_DEFINED_RE = re.compile(r"\bdefined\s*(?:\(\s*(\w+)\s*\)|(\w+))")
_CONDITIONALS = frozenset(("preproc_if", "preproc_elif", "preproc_ifdef", "preproc_elifdef"))
MAX_PREPROCESSOR_DEPTH = 256  # ancestors looked at for an #if; deeper code is taken as compiled


def _cuda_value(conditional: Node) -> int | None:
    """The value of a preprocessor condition in a CUDA build: HIP/ROCm macros are undefined (0),
    anything else unknown (None), so only conditions decided by HIP macros get a value."""
    if conditional.type in ("preproc_ifdef", "preproc_elifdef"):
        name = conditional.child_by_field_name("name")
        if name is None or not _HIP_MACRO_RE.search(node_text(name)):
            return None
        return int(conditional.children[0].type in ("#ifndef", "#elifndef"))
    condition = conditional.child_by_field_name("condition")
    if condition is None:
        return None
    text = _DEFINED_RE.sub(lambda match: "0" if _HIP_MACRO_RE.search(match.group(1) or match.group(2))
                           else "__defined_elsewhere__", node_text(condition))
    try:
        parsed = cexpr.parse(text)
    except cexpr.CExprError:
        return None
    return parsed.evaluate(lambda name: 0 if _HIP_MACRO_RE.search(name) else None)


def inactive_for_cuda(node: Node) -> bool:
    """Whether `node` sits in a preprocessor branch a CUDA build never compiles: under
    `#if defined(USE_ROCM)`, `#ifdef __HIP_PLATFORM_AMD__`, the `#else` of `#ifndef USE_ROCM`, ...
    There the code is HIP, and CUDA rules do not apply. Walks the ancestors: call it on findings only."""
    child, parent = node, node.parent
    for _ in range(MAX_PREPROCESSOR_DEPTH):
        if parent is None:
            break
        if parent.type in _CONDITIONALS:
            alternative = parent.child_by_field_name("alternative")
            in_alternative = alternative is not None and alternative.id == child.id
            value = _cuda_value(parent)
            if value is not None and bool(value) == in_alternative:
                return True
        child, parent = parent, parent.parent
    return False


_ROUND_UP_RE = re.compile(r"round_?up|align_?up|ceil_?to|next_?multiple", re.IGNORECASE)
_CAST_RE = re.compile(r"^(?:static_cast<[^<>]+>|\([\w: ]+\))\((.*)\)$|^\((.*)\)$|^\([\w: ]+\)([\w.]+)$")


def _operator(node: Node) -> str | None:
    operator = node.child_by_field_name("operator")
    return None if operator is None else operator.type


def _compact(node: Node) -> str:
    """The text of `node` without spaces, casts or outer parentheses: `static_cast<int>(blockDim.x)` -> `blockDim.x`."""
    text = "".join(node_text(node).split())
    while (match := _CAST_RE.match(text)) is not None:
        text = next(group for group in match.groups() if group is not None)
    return text


def _multiple_of(node: Node, step: str) -> bool:
    """Whether `node` is a multiple of `step` by its form: `round_up(n, step)` or `... / step * step`."""
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    if node.type == "call_expression":
        function, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        return function is not None and args is not None and bool(_ROUND_UP_RE.search(node_text(function))) \
            and any(_compact(arg) == step for arg in args.named_children)
    if node.type == "binary_expression" and _operator(node) == "*":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        return left is not None and right is not None and step in (_compact(left), _compact(right))
    return False


class FunctionFlow(FlowWalk):
    def __init__(self, doc: CudaDocument, function: CudaFunction):
        super().__init__(doc, function)
        self._ident_starts = [start for start, _ in self.idents]
        for variable, value in self._assignments:
            self.defs.setdefault(variable, set()).update(self.names_in(value))
            self.lane_defs.setdefault(variable, set()).update(self.lane_names_in(value))
        self.thread_vars = self._dependents(self.defs, {THREAD, THREAD_YZ})
        self.lane_vars = self._dependents(self.lane_defs, {THREAD})
        self.global_pointers = self._global_pointers()
        self._thread_dependent: dict[int, bool] = {}
        self._closures: dict[frozenset[str], frozenset[str]] = {}
        self._bounds: dict[int, frozenset[str]] = {}
        self._uniform = frozenset(UNIFORM_BUILTINS | set(self.params.values()) | {"blockIdx"})

    # -- names -------------------------------------------------------------------------------
    def names_in(self, node: Node) -> set[str]:
        """Variables read inside `node` (threadIdx.y/z appear as THREAD_YZ)."""
        return {name for _, name in self._idents_in(node)}

    def lane_names_in(self, node: Node) -> set[str]:
        """Variables inside `node` that are not under a warp division (`tid / 32`, `tid >> 5`)."""
        if not self._lane_blind:
            return self.names_in(node)
        blind = self._lane_blind
        names = set()
        for start, name in self._idents_in(node):
            at = bisect_right(blind, (start, _END)) - 1
            if at < 0 or not blind[at][0] <= start < blind[at][1]:
                names.add(name)
        return names

    def variable_at(self, ident: Node) -> str:
        """The variable an identifier of the function reads (its text when it is not a read)."""
        at = bisect_left(self._ident_starts, ident.start_byte)
        if at < len(self.idents) and self.idents[at][0] == ident.start_byte:
            return self.idents[at][1]
        return node_text(ident)

    def closure(self, names: set[str] | frozenset[str]) -> frozenset[str]:
        """`names` and every variable they are computed from, transitively."""
        key = frozenset(names)
        cached = self._closures.get(key)
        if cached is None:
            cached = self._closures[key] = frozenset(self._closure(key))
        return cached

    def _closure(self, names: frozenset[str]) -> set[str]:
        seen, todo = set(names), list(names)
        while todo:
            for dep in self.defs.get(todo.pop(), ()):
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        return seen

    def is_thread_dependent(self, node: Node) -> bool:
        return bool(self.names_in(node) & self.thread_vars)

    def region_is_thread_dependent(self, region: Region) -> bool:
        key = region.condition.id
        if key not in self._thread_dependent:
            self._thread_dependent[key] = self.is_thread_dependent(region.condition)
        return self._thread_dependent[key]

    def is_lane_divergent(self, condition: Node) -> bool:
        """Whether `condition` can differ between lanes of one warp."""
        todo, terms = [condition], 0
        while todo and terms < MAX_CONDITION_TERMS:
            node = todo.pop()
            terms += 1
            kind = node.type
            if kind in ("parenthesized_expression", "condition_clause") and node.named_children:
                todo.extend(node.named_children)
                continue
            if kind == "binary_expression":
                operator = node.child_by_field_name("operator")
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                op = operator.type if operator is not None else ""
                if op in ("&&", "||") and left is not None and right is not None:
                    todo += [left, right]
                    continue
                if op in ("<", ">=", "<=", ">") and left is not None and right is not None \
                        and self._splits_at_warp_boundary(op, left, right):
                    continue
            if self.lane_names_in(node) & self.lane_vars:
                return True
        return False

    def _splits_at_warp_boundary(self, op: str, left: Node, right: Node) -> bool:
        # `tid < 64` splits the block at a warp boundary: every warp is all in or all out
        bound = self.doc.constants.int_at(right, right.start_byte)
        if bound is None:
            bound = self.doc.constants.int_at(left, left.start_byte)
            op = {"<": ">", ">=": "<=", "<=": ">=", ">": "<"}[op]
        if bound is None:
            return False
        edge = bound if op in ("<", ">=") else bound + 1
        return edge % WARP_SIZE == 0

    def lane_bound(self, condition: Node) -> int | None:
        """K when `condition` is `lane < K` (or `<= K - 1`) with K a constant below 32: lanes 0..K-1 run."""
        node = condition
        while node.type in ("parenthesized_expression", "condition_clause") and node.named_children:
            node = node.named_children[-1]
        if node.type != "binary_expression":
            return None
        operator, left, right = (node.child_by_field_name(name) for name in ("operator", "left", "right"))
        if operator is None or left is None or right is None or operator.type not in ("<", "<="):
            return None
        bound = self.doc.constants.int_at(right, right.start_byte)
        if bound is None or not self.lane_names_in(left) & self.lane_vars:
            return None
        bound += operator.type == "<="
        return bound if 0 < bound < WARP_SIZE else None

    # -- control -----------------------------------------------------------------------------
    @staticmethod
    def controlling(access: Access, with_exits: bool = True) -> Iterator[Region]:
        """Regions whose condition decides whether `access` runs, innermost first."""
        if access.control is None:
            return
        for region in access.control.chain():
            if with_exits or region.kind != "exit":
                yield region

    def guarded(self, access: Access, index_names: set[str]) -> bool:
        """Whether controlling conditions bound the index: each thread-dependent variable of it (a 2D
        index needs its column and its row bounded), or else any local or thread variable of it."""
        uniform = self._uniform
        bounded = [self._bounded_by(region) for region in self.controlling(access)]
        parts = [name for name in index_names if name in self.thread_vars]
        # the parts that mix block and thread (a row `threadIdx.y + blockDim.y * blockIdx.y`) are the ones
        # a rounded-up grid pushes past the end; a column of the block's own tile (`threadIdx.x`) is not
        global_parts = [name for name in parts if "blockIdx" in self.closure({name})]
        parts = global_parts or parts
        if not parts:
            wanted = self.closure(index_names) - uniform
            return any(names & wanted for names in bounded)
        return all(any(names & (self.closure({part}) - uniform) for names in bounded) for part in parts)

    def _bounded_by(self, region: Region) -> frozenset[str]:
        """The non-uniform variables a region's condition compares, with what they are computed from."""
        key = region.condition.id
        if key not in self._bounds:
            self._bounds[key] = self.closure(self.names_in(region.condition)) - self._uniform
        return self._bounds[key]

    def values_of(self, variable: str) -> list[Node]:
        """Every value `variable` is initialised or assigned with."""
        return [value for assigned, value in self._assignments if assigned == variable]

    def has_uniform_trip_count(self, region: Region) -> bool:
        """A block-stride loop `for (i = threadIdx.x; i < B; i += S)` whose bound B is a multiple of S
        (`round_up(n, S)`, `(n + S - 1) / S * S`): every thread of the block makes B / S trips."""
        loop, condition = region.condition.parent, region.condition
        if region.kind != "for" or loop is None or loop.type != "for_statement" \
                or condition.type != "binary_expression" or _operator(condition) not in ("<", "!="):
            return False
        counter, bound = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        update = next((child for child in loop.named_children if child.type == "assignment_expression"
                       and _operator(child) == "+=" and child.start_byte > condition.end_byte), None)
        if counter is None or bound is None or counter.type != "identifier" or update is None:
            return False
        target, step = update.child_by_field_name("left"), update.child_by_field_name("right")
        counter_variable = self.variable_at(counter)
        if target is None or step is None or self.variable_at(target) != counter_variable:
            return False
        starts = [value for value in self.values_of(counter_variable) if value.id != step.id]
        if len(starts) != 1 or _compact(starts[0]) != "threadIdx.x" or _compact(step) != "blockDim.x":
            return False
        if bound.type == "identifier":
            values = self.values_of(self.variable_at(bound))
            if len(values) != 1:
                return False
            bound = values[0]
        return _multiple_of(bound, _compact(step))


    # -- dataflow ------------------------------------------------------------------------------
    def _idents_in(self, node: Node) -> list[tuple[int, str]]:
        lo = bisect_left(self._ident_starts, node.start_byte)
        hi = bisect_left(self._ident_starts, node.end_byte)
        return self.idents[lo:hi]

    @staticmethod
    def _dependents(defs: dict[str, set[str]], seeds: set[str]) -> set[str]:
        """Variables computed, transitively, from any of `seeds` (one pass over reversed edges)."""
        readers: dict[str, list[str]] = {}
        for name, deps in defs.items():
            for dep in deps:
                readers.setdefault(dep, []).append(name)
        dependent, todo = set(seeds), list(seeds)
        while todo:
            for reader in readers.get(todo.pop(), ()):
                if reader not in dependent:
                    dependent.add(reader)
                    todo.append(reader)
        return dependent

    def _global_pointers(self) -> set[str]:
        pointers = {variable for variable in self.params.values() if self.var_types[variable].endswith("*")}
        candidates = [d for d in self.declarations if d.pointer_depth > 0 or d.type.endswith("auto")]
        changed = True
        while changed:
            changed = False
            for declaration in candidates:
                if declaration.variable in pointers:
                    continue
                # `auto` locals count only when initialised with pointer arithmetic, not with a loaded value
                if declaration.pointer_depth == 0 and declaration.value.type not in (
                        "identifier", "binary_expression", "pointer_expression", "cast_expression"):
                    continue
                if self.defs.get(declaration.variable, set()) & pointers:
                    pointers.add(declaration.variable)
                    changed = True
        return pointers

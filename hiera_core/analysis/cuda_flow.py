"""Which values and branches of a GPU function depend on the thread: the facts behind the CUDA rules.

One iterative walk per function body (no recursion, no `Node.parent`, which tree-sitter computes
by descending from the root), so the cost is linear in the size of the function whatever its
nesting. The walk resolves every identifier to its declaration with C++ scoping (blocks, `for`
headers, lambdas, parameters): each declaration is its own variable, named `name@byte`; names
declared nowhere in the function (builtins, globals, macros, callees) keep their plain name.

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
from dataclasses import dataclass, field

from tree_sitter import Node

from hiera_core.analysis import cexpr
from hiera_core.analysis.cuda_source import (
    WARP_SIZE,
    CudaDocument,
    CudaFunction,
    node_text,
    unwrap_declarator,
)

THREAD = "threadIdx"  # threadIdx.x (and bare threadIdx)
THREAD_YZ = "threadIdx.yz"  # threadIdx.y / threadIdx.z
UNIFORM_BUILTINS = {"blockDim", "gridDim", "warpSize"}
_BLOCKS = frozenset(("compound_statement", "case_statement"))
_WRAPPERS = frozenset(("parenthesized_expression", "unary_expression"))
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


def display(variable: str) -> str:
    """The source name of a variable (`i@120` -> `i`)."""
    return variable.split("@", 1)[0]


@dataclass(eq=False)
class Region:
    """Bytes [start, end) that run only when `condition` holds (or, for an exit, did not fire)."""

    kind: str  # "if", "for", "while", "do", "switch", "ternary", "operand" (of && / ||) or "exit"
    condition: Node
    start: int
    end: int
    parent: Region | None = None  # the next enclosing region of the chain
    exit_kind: str = ""  # for exits: "return_statement", "continue_statement" or "break_statement"

    def chain(self) -> Iterator[Region]:
        region: Region | None = self
        while region is not None:
            yield region
            region = region.parent


@dataclass(eq=False)
class Access:
    """A use of a node of interest with the control chain in force where it runs."""

    node: Node
    control: Region | None


@dataclass(eq=False)
class Subscript(Access):
    base: str = ""  # the variable subscripted
    indices: list[Node] = field(default_factory=list)  # one per dimension: `s[i][j]` -> [i], [j]
    is_write: bool = False  # the element is assigned (`a[i] = v`, `a[i] += v`, `a[i]++`, `&a[i]`)
    is_update: bool = False  # a write that reads the old value first (`a[i] += v`, `a[i]++`)
    stored_at: int = 0  # for a write: where the store takes effect (the end of the assignment)


@dataclass(eq=False)
class Call(Access):
    name: str = ""  # the callee's text, e.g. "__syncthreads", "block.sync"


@dataclass
class Declaration:
    variable: str
    name: str
    node: Node  # the init_declarator
    value: Node
    type: str  # the declared type without the name, e.g. "int", "const int64_t"
    pointer_depth: int


@dataclass
class _Context:
    """A statement sequence (block, case) whose later statements see the early exits before them."""

    node: Node
    control: Region | None
    outer: _Context | None
    exits: list[Region] = field(default_factory=list)


class FunctionFlow:
    def __init__(self, doc: CudaDocument, function: CudaFunction):
        self.doc = doc
        self.function = function
        self.idents: list[tuple[int, str]] = []  # (byte, variable) of every identifier read, in order
        self._lane_blind: list[tuple[int, int]] = []  # byte ranges under a warp division (`x / 32`)
        self.calls: list[Call] = []
        self.subscripts: list[Subscript] = []
        self.binaries: list[Node] = []
        self.numbers: list[tuple[Node, Node]] = []  # (literal, first ancestor that is not ( ) or unary)
        self.declarations: list[Declaration] = []
        self.var_types: dict[str, str] = {}  # variable -> declared type ("float*" for pointers)
        self.defs: dict[str, set[str]] = {}  # variable -> variables its values read
        self.lane_defs: dict[str, set[str]] = {}
        self.params: dict[str, str] = {}  # parameter name -> variable
        self.exits: list[Region] = []
        self._assignments: list[tuple[str, Node]] = []
        self._writes: dict[int, int] = {}  # id of an assigned subscript -> end of its assignment
        self.assigned: set[str] = set()  # variables assigned, incremented or whose address is taken
        self._updates: set[int] = set()  # ids of subscripts updated in place (`+=`, `++`)
        self._visible: dict[str, list[str]] = {}  # name -> variables in scope, innermost last
        self._scopes: list[list[str]] = []  # names declared in each open scope
        self._pending_exits: dict[int, list[tuple[int, str]]] = {}  # guarding if id -> [(scope end, kind)]
        self._walk()
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

    # -- the walk ----------------------------------------------------------------------------
    def _walk(self) -> None:
        body = self.function.body
        if body is None:
            return
        for param in self.function.params:
            variable = f"{param.name}@{param.span.start_byte}"
            self.params[param.name] = variable
            self._visible.setdefault(param.name, []).append(variable)
            self.var_types[variable] = param.base_type + "*" * param.pointer_depth
        # jumps: (if guarding a return, return scope end, if guarding a break, break scope end,
        # if guarding a continue, continue scope end); a scope end of None: no region (a switch's break)
        jumps = (None, body.end_byte, None, None, None, None)
        # a frame: (node, block context, control or INHERIT, jumps, under a warp division, nearest
        # ancestor that is not a parenthesis or unary operator); (None, method, args) leaves a construct
        stack: list = [(body, None, None, jumps, False, body)]
        while stack:
            frame = stack.pop()
            node = frame[0]
            if node is None:
                frame[1](*frame[2])
                continue
            _, context, control, jumps, blind, anchor = frame
            if control is INHERIT:
                control = context.control
            kind = node.type
            if kind == "identifier":
                self.idents.append((node.start_byte, self._resolve(node_text(node))))
                if blind:
                    self._lane_blind.append((node.start_byte, node.end_byte))
                continue
            if kind == "number_literal":
                self.numbers.append((node, anchor))
                continue
            if kind in _SKIPPED:
                continue
            if kind not in _WRAPPERS:
                anchor = node
            if kind in _BLOCKS:
                inner = _Context(node, control, context)
                self._open_scope()
                stack.append((None, self._leave_block, (inner,)))
                stack.extend((child, inner, INHERIT, jumps, blind, anchor) for child in reversed(node.named_children))
                continue
            handler = _HANDLERS.get(kind)
            if handler is not None:
                handler(self, node, (context, control, jumps, blind, anchor), stack)
                continue
            children = node.named_children
            if kind == "binary_expression":
                self.binaries.append(node)
                operator = node.child_by_field_name("operator")
                if operator is not None and operator.type in ("&&", "||"):
                    _short_circuit(self, node, (context, control, jumps, blind, anchor), stack)
                    continue
                if self._is_warp_division(node):
                    left = node.child_by_field_name("left")
                    stack.extend((child, context, control, jumps, blind or child == left, anchor)
                                 for child in reversed(children))
                    continue
            # identifiers directly under an expression resolve in its scope: read them now, not via the stack
            idents = self.idents
            for child in reversed(children):
                if child.type == "identifier":
                    idents.append((child.start_byte, self._resolve(node_text(child))))
                    if blind:
                        self._lane_blind.append((child.start_byte, child.end_byte))
                else:
                    stack.append((child, context, control, jumps, blind, anchor))
        # identifiers read ahead of their siblings were appended out of order
        self.idents.sort(key=_first)
        self._lane_blind.sort()

    @staticmethod
    def _push(stack: list, children: list, state: tuple, control=None, jumps=None) -> None:
        """Push `children` (in source order) to be walked with `state`, changing control or jumps."""
        context, own_control, own_jumps, blind, anchor = state
        control = own_control if control is None else control
        jumps = own_jumps if jumps is None else jumps
        for child in reversed(children):
            if child is not None:
                stack.append((child, context, control, jumps, blind, anchor))

    def _open_scope(self) -> None:
        self._scopes.append([])

    def _close_scope(self) -> None:
        for name in self._scopes.pop():
            self._visible[name].pop()

    def _declare_name(self, ident: Node) -> str:
        name = node_text(ident)
        variable = f"{name}@{ident.start_byte}"
        self._visible.setdefault(name, []).append(variable)
        if self._scopes:
            self._scopes[-1].append(name)
        return variable

    def _resolve(self, name: str) -> str:
        visible = self._visible.get(name)
        return visible[-1] if visible else name

    def _leave_block(self, context: _Context) -> None:
        self._close_scope()
        if context.outer is None:
            return
        for region in context.exits:  # an exit that reaches past this block applies to the rest of the outer one
            if region.end > context.node.end_byte:
                self._add_exit(context.outer, region.condition, context.node.end_byte, region.end, region.exit_kind)

    def _add_exit(self, context: _Context | None, condition: Node, start: int, end: int, exit_kind: str) -> None:
        if context is None:
            return
        region = Region("exit", condition, start, end, context.control, exit_kind)
        context.control = region
        context.exits.append(region)
        self.exits.append(region)

    def _leave_if(self, node: Node, context: _Context | None, condition: Node | None) -> None:
        self._close_scope()
        for scope_end, exit_kind in self._pending_exits.pop(node.id, ()):
            if condition is not None and node.end_byte < scope_end:
                self._add_exit(context, condition, node.end_byte, scope_end, exit_kind)

    def _declare(self, node: Node, state: tuple, stack: list) -> None:
        """A declaration: each declarator is a new variable from here to the end of the scope."""
        type_node = node.child_by_field_name("type")
        type_text = " ".join(node_text(type_node).split()) if type_node is not None else ""
        qualifiers = [node_text(child) for child in node.children if child.type == "type_qualifier"
                      and node_text(child) in ("const", "constexpr", "volatile")]
        declared_type = " ".join(qualifiers + [type_text])
        later: list[Node] = []
        for declarator in node.children_by_field_name("declarator"):
            value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
            target = declarator.child_by_field_name("declarator") if declarator.type == "init_declarator" \
                else declarator
            ident, depth, _, _, sizes = unwrap_declarator(target)
            later += [size for size in sizes if size is not None]
            if ident is None:
                continue
            variable = self._declare_name(ident)
            self.var_types[variable] = type_text + "*" * depth
            if value is not None:
                self.declarations.append(Declaration(variable, node_text(ident), declarator, value,
                                                     declared_type, depth))
                self._assignments.append((variable, value))
                # a literal initialiser's anchor is its declarator (HC111: converted at compile time)
                stack.append((value, state[0], state[1], state[2], state[3], declarator))
        self._push(stack, later, state)

    def _is_warp_division(self, node: Node) -> bool:
        operator, right = node.child_by_field_name("operator"), node.child_by_field_name("right")
        if operator is None or right is None or operator.type not in ("/", ">>"):
            return False
        divisor = WARP_SIZE if node_text(right) == "warpSize" else self.doc.constants.int_at(right, node.start_byte)
        return (operator.type == "/" and divisor == WARP_SIZE) or (operator.type == ">>" and divisor == 5)

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


INHERIT = object()  # a frame's control: the block context's, read when the frame is walked
_SKIPPED = frozenset(("comment", "string_literal", "raw_string_literal", "char_literal", "primitive_type",
                      "type_identifier", "field_identifier", "template_argument_list", "sized_type_specifier",
                      "type_descriptor", "namespace_identifier", "statement_identifier"))


def _first(pair: tuple[int, str]) -> int:
    return pair[0]


def _field_expression(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    argument = node.child_by_field_name("argument")
    if argument is not None and argument.type == "identifier" and node_text(argument) == THREAD:
        axis = node.child_by_field_name("field")
        flow.idents.append((argument.start_byte, THREAD_YZ if axis is not None and node_text(axis) in ("y", "z")
                            else THREAD))
        if state[3]:
            flow._lane_blind.append((argument.start_byte, argument.end_byte))
        return
    flow._push(stack, [argument], state)


def _if(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    context, control, jumps = state[0], state[1], state[2]
    condition = node.child_by_field_name("condition")
    flow._open_scope()  # `if (int x = ...)`
    stack.append((None, flow._leave_if, (node, context, condition)))
    inner = control
    if condition is not None:
        inner = Region("if", condition, condition.end_byte, node.end_byte, control)
    # an exit directly in a branch is guarded by this if
    branch_jumps = (node, jumps[1], node, jumps[3], node, jumps[5])
    flow._push(stack, [child for child in node.named_children if child != condition], state, inner, branch_jumps)
    flow._push(stack, [condition], state)


def _loop(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    control, jumps = state[1], state[2]
    kind = node.type
    condition = node.child_by_field_name("condition")
    body = node.child_by_field_name("body")
    scope_end = body.end_byte if body is not None else node.end_byte
    loop_jumps = (jumps[0], jumps[1], None, scope_end, None, scope_end)
    flow._open_scope()
    stack.append((None, flow._close_scope, ()))
    inner = control
    if condition is not None:
        # a do-while body runs again when the condition holds, so the condition controls it too
        start = node.start_byte if kind == "do_statement" else condition.end_byte
        inner = Region(_REGION_KINDS[kind], condition, start, node.end_byte, control)
    if kind == "for_range_loop":
        for declarator in node.children_by_field_name("declarator"):
            ident, *_ = unwrap_declarator(declarator)
            if ident is not None:
                flow._declare_name(ident)
        flow._push(stack, [body], state, inner, loop_jumps)
        flow._push(stack, [node.child_by_field_name("right")], state)
        return
    if kind == "for_statement":
        initializer = node.child_by_field_name("initializer")
        updates = [child for child in node.named_children if child not in (initializer, condition, body)]
        flow._push(stack, updates + [body], state, inner, loop_jumps)
        flow._push(stack, [initializer, condition], state)
    elif kind == "do_statement":
        flow._push(stack, [body, condition], state, inner, loop_jumps)
    else:
        flow._push(stack, [body], state, inner, loop_jumps)
        flow._push(stack, [condition], state)


_REGION_KINDS = {"for_statement": "for", "while_statement": "while", "do_statement": "do", "for_range_loop": "for"}


def _switch(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    control, jumps = state[1], state[2]
    condition = node.child_by_field_name("condition")
    inner = control
    if condition is not None:
        inner = Region("switch", condition, condition.end_byte, node.end_byte, control)
    flow._push(stack, [node.child_by_field_name("body")], state, inner, (jumps[0], jumps[1], None, None) + jumps[4:])
    flow._push(stack, [condition], state)


def _ternary(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    condition = node.child_by_field_name("condition")
    inner = state[1]
    if condition is not None:
        inner = Region("ternary", condition, condition.end_byte, node.end_byte, inner)
    flow._push(stack, [child for child in node.named_children if child != condition], state, inner)
    flow._push(stack, [condition], state)


def _short_circuit(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    """`a && b`, `a || b`: b runs only when a allows it, so a controls b (`i < n && x[i] > 0` is guarded)."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        flow._push(stack, node.named_children, state)
        return
    inner = Region("operand", left, left.end_byte, node.end_byte, state[1])
    flow._push(stack, [right], state, inner)
    flow._push(stack, [left], state)


def _exit(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    jumps = state[2]
    guard, scope_end = {"return_statement": (jumps[0], jumps[1]), "break_statement": (jumps[2], jumps[3]),
                        "continue_statement": (jumps[4], jumps[5])}[node.type]
    if guard is not None and scope_end is not None:
        flow._pending_exits.setdefault(guard.id, []).append((scope_end, node.type))
    flow._push(stack, node.named_children, state)


def _lambda(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    body = node.child_by_field_name("body")
    if body is None:
        return
    flow._open_scope()
    stack.append((None, flow._close_scope, ()))
    flow._push(stack, [body], state, jumps=(None, body.end_byte, None, None, None, None))
    flow._push(stack, [node.child_by_field_name("declarator")], state)


def _call(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    function = node.child_by_field_name("function")
    if function is not None:
        flow.calls.append(Call(node, state[1], " ".join(node_text(function).split())))
    flow._push(stack, node.named_children, state)


def _subscript(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    indices, base = [], node
    while base is not None and base.type == "subscript_expression":  # `s[i][j]`: one access of s
        indices.append(base.child_by_field_name("indices"))
        base = base.child_by_field_name("argument")
    indices = [index for index in reversed(indices) if index is not None]
    if base is not None and base.type == "identifier":
        stored_at = flow._writes.get(node.id)
        flow.subscripts.append(Subscript(node, state[1], flow._resolve(node_text(base)), indices,
                                         stored_at is not None, node.id in flow._updates,
                                         stored_at or node.end_byte))
    flow._push(stack, [base] + indices, state)


def _address(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    operator, argument = node.child_by_field_name("operator"), node.child_by_field_name("argument")
    if operator is not None and operator.type == "&" and argument is not None:
        element = _element(argument)
        flow._writes[element.id] = node.end_byte  # `atomicAdd(&s[i], v)`, `(float4*)&s[i]`: written through
        if element.type == "identifier":
            flow.assigned.add(flow._resolve(node_text(element)))
    flow._push(stack, node.named_children, state)


def _element(node: Node) -> Node:
    """The subscript an lvalue stores into: `s[i]`, `(s[i])`, `s[i].x`."""
    while node.type in ("parenthesized_expression", "field_expression") and node.named_children:
        node = node.named_children[0]
    return node


def _assignment(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    target = _element(left) if left is not None else None
    if target is not None and right is not None:
        if target.type == "identifier":
            flow._assignments.append((flow._resolve(node_text(target)), right))
            flow.assigned.add(flow._resolve(node_text(target)))
        elif target.type == "subscript_expression":
            flow._writes[target.id] = node.end_byte
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type != "=":
                flow._updates.add(target.id)
    flow._push(stack, node.named_children, state)


def _update(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    argument = node.child_by_field_name("argument")
    if argument is not None:
        element = _element(argument)
        flow._writes[element.id] = node.end_byte
        flow._updates.add(element.id)
        if element.type == "identifier":
            flow.assigned.add(flow._resolve(node_text(element)))
    flow._push(stack, node.named_children, state)


def _asm(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    flow.calls.append(Call(node, state[1], "asm"))  # inline PTX: may be a barrier, a store, anything


def _declaration(flow: FunctionFlow, node: Node, state: tuple, stack: list) -> None:
    flow._declare(node, state, stack)


_HANDLERS = {
    "if_statement": _if, "for_statement": _loop, "while_statement": _loop, "do_statement": _loop,
    "for_range_loop": _loop, "switch_statement": _switch, "conditional_expression": _ternary,
    "return_statement": _exit, "break_statement": _exit, "continue_statement": _exit, "lambda_expression": _lambda,
    "call_expression": _call, "subscript_expression": _subscript, "assignment_expression": _assignment,
    "update_expression": _update, "field_expression": _field_expression, "declaration": _declaration,
    "parameter_declaration": _declaration, "pointer_expression": _address, "gnu_asm_expression": _asm,
}

"""The rules about indices past the data: HC101 (unguarded global index), HC118 (floor-divided grid).

Both read the launches: a kernel the file launches only with exact grids (constant, or `n / B`
with n a known multiple of B) needs no bounds guard, and a grid that rounds down leaves a tail.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from tree_sitter import Node

from hiera_core.analysis.cuda_document import CudaDocument, CudaFunction, Launch
from hiera_core.analysis.cuda_flow import FunctionFlow
from hiera_core.analysis.cuda_regions import THREAD, THREAD_YZ, Subscript
from hiera_core.analysis.cuda_rules.common import comparisons, operator_text, short, unparen
from hiera_core.analysis.cuda_syntax import node_text
from hiera_core.analysis.findings import Finding, Span
from hiera_core.analysis.rules import finding


# -- HC101 --------------------------------------------------------------------------------------
def unguarded_index(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    if not flow.function.is_kernel:
        return  # a __device__ function's pointers may well point to shared memory
    reported_lines: set[int] = set()
    for access in flow.subscripts:
        if access.base not in flow.global_pointers or not access.indices:
            continue
        names = set().union(*(flow.names_in(index) for index in access.indices))
        origins = flow.closure(names | {access.base})  # the block offset may sit in a derived pointer
        # a global thread index (block and thread): the grid is rounded up, so its tail overruns
        if not origins & {THREAD, THREAD_YZ} or "blockIdx" not in origins or names & {"min", "max"}:
            continue
        line = access.node.start_point[0]
        if line in reported_lines:
            continue
        if not flow.guarded(access, names | {access.base}):
            reported_lines.add(line)
            yield finding("HC101", f"{node_text(access.node)} is indexed by thread without a bounds guard", path,
                          Span.of(access.node), "guard it with the element count, e.g. `if (i < n) ...`")
            continue
        tail = _past_the_guard(flow, access)
        if tail is not None:
            reported_lines.add(line)
            guard, offset, slack, bound = tail
            at = f"`{short(guard)}` (line {guard.start_point[0] + 1})"
            if bound is not None:
                yield finding("HC101", f"{node_text(access.node)} can be one past the end: {at} lets the thread at "
                              f"`{bound}` through", path, Span.of(access.node),
                              f"if `{bound}` is the element count, compare with `<` (exit on `>=`)")
                continue
            yield finding("HC101", f"{node_text(access.node)} is {offset} past what {at} guards: the last threads run "
                          f"past the end", path, Span.of(access.node), f"guard each element (`if (i + {offset} < n)`) "
                          f"or handle the tail{'' if slack == 0 else f' beyond {slack}'} separately")


def _split_offset(flow: FunctionFlow, node: Node) -> tuple[str, int]:
    """(text of X, K) for `X + K` / `X - K` with K constant; (text, 0) otherwise."""
    node = unparen(node)
    if node.type == "binary_expression":
        operator, right = node.child_by_field_name("operator"), node.child_by_field_name("right")
        left = node.child_by_field_name("left")
        if operator is not None and operator.type in ("+", "-") and left is not None and right is not None:
            value = flow.doc.constants.int_at(right, right.start_byte)
            if value is not None:
                base, offset = _split_offset(flow, left)
                return base, offset + (value if operator.type == "+" else -value)
    return "".join(node_text(node).split()), 0


# A bound named as an element count: `i <= n` (or an exit on `i > n`) lets the thread i == n through.
_COUNT = re.compile(r"(?i)(n|num\w*|\w*_?(len|length|size|count|numel|elements|total))$")


def _past_the_guard(flow: FunctionFlow, access: Subscript) -> tuple[Node, int, int, str | None] | None:
    """(guard, offset, slack, None) when the index is `X + offset` but the guards bound only
    `X + slack` with slack < offset (`if (i < n) y[i + 1] = ...`: an unrolled or paired tail);
    (guard, 0, -1, bound) for an index one past its guard (`if (i <= n) y[i]`, `if (i > n) return;
    y[i]`) where the bound is named as a count."""
    if len(access.indices) != 1 or not access.indices[0].named_children:
        return None
    base, offset = _split_offset(flow, access.indices[0].named_children[0])
    if offset < 0:
        return None
    slack, guard, count = None, None, None
    for region in flow.controlling(access):
        # an early exit's condition (an `||` chain) bounds what follows by its negation
        pairs = comparisons(region.condition, "||", negated=True) if region.kind == "exit" \
            else comparisons(region.condition)
        for left, operator, right in pairs:
            guarded_base, guarded_offset = _split_offset(flow, left)
            if guarded_base != base:
                continue
            bound, bound_offset = _split_offset(flow, right)  # `i < n - 3` leaves 3 of slack
            room = guarded_offset - bound_offset - (operator == "<=")
            if slack is None or room > slack:
                slack, guard, count = room, region.condition, bound if _COUNT.fullmatch(bound) else None
    if guard is None or slack is None or slack >= offset:
        return None
    if offset == 0:  # one past: only where the bound reads as a count (`last`, `max_index` are inclusive)
        one_past = count and slack == -1 and not _exits_at(flow, access, base, count)
        return (guard, 0, -1, count) if one_past else None
    return guard, offset, max(slack, 0), None


def _exits_at(flow: FunctionFlow, access: Subscript, base: str, bound: str) -> bool:
    """Whether an early exit on `base == bound` comes before the access (the thread at the bound
    handled apart: `if (i > n) return; if (i == n) { ...; return; }`)."""
    for region in flow.controlling(access):
        node = unparen(region.condition)
        if node.type == "condition_clause" and node.named_children:
            node = unparen(node.named_children[-1])
        if region.kind != "exit" or node.type != "binary_expression" or operator_text(node) != "==":
            continue
        sides = {_split_offset(flow, node.child_by_field_name(side))[0] for side in ("left", "right")}
        if sides == {base, bound}:
            return True
    return False


def _grid_items(doc: CudaDocument, launch: Launch) -> list[Node] | None:
    """The grid expressions of a launch, one per dimension (`dim3 grid(a, b)` locals resolved)."""
    if launch.grid is None:
        return None
    node = unparen(launch.grid.node)
    if node.type == "identifier":
        value = doc.constants.value_node(node_text(node), launch.span.start_byte) or _local_value(
            launch.function, node_text(node), launch.span.start_byte)
        if value is not None:
            node = unparen(value)
    if node.type == "call_expression" and node_text(node.child_by_field_name("function") or node) == "dim3":
        args = node.child_by_field_name("arguments")
        return [arg for arg in (args.named_children if args else []) if arg.type != "comment"]
    if node.type in ("argument_list", "initializer_list"):
        return [arg for arg in node.named_children if arg.type != "comment"]
    return [node]


def _division(doc: CudaDocument, node: Node, at: int) -> tuple[Node, Node] | None:
    """(numerator, divisor) of `a / b`, through parentheses and a never-reassigned local."""
    node = unparen(node)
    if node.type == "identifier":
        value = doc.constants.value_node(node_text(node), at)
        if value is None:
            return None
        node = unparen(value)
    operator = node.child_by_field_name("operator") if node.type == "binary_expression" else None
    if operator is None or operator.type != "/":
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    return None if left is None or right is None else (unparen(left), unparen(right))


def _is_multiple(doc: CudaDocument, numerator: Node, divisor: Node, at: int) -> bool:
    """Whether the file makes `numerator % divisor == 0` known: both constant, or asserted/checked."""
    a, b = doc.constants.int_at(numerator, at), doc.constants.int_at(divisor, at)
    if a is not None and b is not None:
        return b != 0 and a % b == 0
    tokens = [re.escape(token) for token in re.findall(r"\w+|\S", node_text(numerator))]
    divisor_tokens = [re.escape(token) for token in re.findall(r"\w+|\S", node_text(divisor))]
    pattern = r"\(?\s*".join(tokens) + r"\s*\)?\s*%\s*\(?\s*" + r"\s*".join(divisor_tokens)
    return doc.code_matches(pattern.encode())


MAX_VALUE_DEPTH = 8  # locals followed into the values they are initialised with
_EXACT_OPERATORS = frozenset(("*", "/", "<<", ">>"))


def _local_value(function: Node | None, name: str, at: int) -> Node | None:
    """The initialiser of `name` declared once in `function` before `at` and never assigned after
    (dim3 locals of the template specialisations Constants does not follow)."""
    if function is None:
        return None
    values, todo = [], [function]
    while todo:
        node = todo.pop()
        if node.start_byte >= at:
            continue
        if node.type == "init_declarator" and node_text(node.child_by_field_name("declarator") or node) == name:
            values.append(node.child_by_field_name("value"))
        elif node.type in ("assignment_expression", "update_expression") and re.match(
                rb"\s*" + re.escape(name.encode()) + rb"\b", node.text):
            return None
        todo += node.named_children
    return values[0] if len(values) == 1 else None


def _rounds_up(doc: CudaDocument, node: Node, at: int, function: Node | None = None) -> bool:
    """Whether a launch dimension may be rounded up to whole blocks: it adds or subtracts
    (`(n + b - 1) / b`), calls (a ceil-div helper), picks (`?:`) or reads a value assigned elsewhere.
    Products and quotients of plain counts (`batch * seq`, one block per row) are exact."""
    todo = [(node, 0)]
    while todo:
        node, depth = todo.pop()
        node = unparen(node)
        if node.type == "identifier" and depth < 0:
            continue  # a factor of a product is a count (`seq * head_groups`), however it was computed
        if node.type == "identifier":
            value = doc.constants.value_node(node_text(node), at) or _local_value(function, node_text(node), at)
            if value is None:
                start = function.start_byte if function is not None else max(0, at - 4096)
                if re.search(rb"\b" + re.escape(node.text) + rb"\s*[-+*/]?=[^=]", doc.source[start:at]):
                    return True  # a local assigned more than once: its value is not known here
                continue  # a parameter or a plain count
            if depth >= MAX_VALUE_DEPTH:
                return True
            todo.append((value, depth + 1))
        elif node.type == "binary_expression" and operator_text(node) in _EXACT_OPERATORS:
            # factors and divisors are counts; only a numerator is followed into its value
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            todo += [(child, child_depth) for child, child_depth in
                     ((left, -1 if operator_text(node) == "*" else depth), (right, -1)) if child is not None]
        elif node.type == "cast_expression" and node.child_by_field_name("value") is not None:
            todo.append((node.child_by_field_name("value"), depth))
        elif node.type in ("argument_list", "initializer_list"):  # dim3 grid(a, b) and dim3 grid{a, b}
            todo += [(child, depth) for child in node.named_children if child.type != "comment"]
        elif node.type == "call_expression" and node_text(node.child_by_field_name("function") or node) == "dim3":
            todo += [(child, depth) for child in node.child_by_field_name("arguments").named_children]
        elif node.type not in ("number_literal", "field_expression", "qualified_identifier", "sizeof_expression"):
            return True
    return False


def _launch_is_exact(doc: CudaDocument, launch: Launch) -> bool:
    """Whether a launch's grid is not rounded up to whole blocks: counts and their products (one block
    per row), or `n / B` grids with block B where n is known to be a multiple of B. Such a launch makes
    each index the kernel derives from it in bounds by construction."""
    items = _grid_items(doc, launch)
    block = launch.block
    at = launch.span.start_byte
    if items is None or block is None or _rounds_up(doc, block.node, at, launch.function):
        return False
    for item in items:
        division = _division(doc, item, at)
        if division is not None and (node_text(division[1]) == block.text or (
                block.dims is not None and doc.constants.int_at(division[1], at) == block.dims[0])):
            if not _is_multiple(doc, division[0], division[1], at):
                return False
        elif _rounds_up(doc, item, at, launch.function):
            return False
    return True


def kernels_launched_exactly(doc: CudaDocument) -> set[str]:
    """Kernels whose every launch in the file is exact (_launch_is_exact)."""
    exact: dict[str, bool] = {}
    for launch in doc.launches:
        exact[launch.kernel] = exact.get(launch.kernel, True) and _launch_is_exact(doc, launch)
    return {kernel for kernel, ok in exact.items() if ok}


_TEMPLATE_ARGS_RE = re.compile(rb"\s*<((?:[^<>;{}()]|<[^<>;{}()]*>)*)>")


def _template_args(source: bytes, at: int) -> str | None:
    """The template arguments written at `at` (`<__half>` -> "__half"), without spaces; None if none."""
    match = _TEMPLATE_ARGS_RE.match(source, at)
    return "".join(match.group(1).decode("utf-8", "replace").split()) if match else None


def _specialisation(doc: CudaDocument, function: CudaFunction) -> str | None:
    """The arguments of an explicit specialisation (`void k<__half>(...)`), None for a primary template."""
    end = function.body.start_byte if function.body is not None else function.node.end_byte
    match = re.compile(rb"\b" + re.escape(function.name.encode()) + rb"(?=\s*<)").search(
        doc.source, function.node.start_byte, end)
    return None if match is None else _template_args(doc.source[:end], match.end())


def launched_exactly(doc: CudaDocument, function: CudaFunction, exact: set[str]) -> bool:
    """Whether every launch that reaches this definition of the kernel is exact: all launches of its
    name (`exact`, from kernels_launched_exactly), or those of its explicit specialisation."""
    if function.name in exact:
        return True
    own = _specialisation(doc, function)
    return doc.answer(("launched exactly as", function.name, own),
                      lambda: _launched_exactly_as_specialised(doc, function.name, own))


def launched_elsewhere(doc: CudaDocument, function: CudaFunction) -> bool:
    """Whether a kernel's grid is another file's: the file launches kernels, but names this one only
    where it is declared or defined (no launch, no pointer to it). Its indices cannot be judged
    against a launch nobody here can see; a file of kernels alone (a header, an editor's snippet)
    launches none, and its kernels are judged as if launched with a rounded-up grid."""
    if not function.is_kernel or not doc.launches:
        return False
    return doc.answer(("named only where declared", function.name), lambda: _named_only_where_declared(doc, function.name))


def _named_only_where_declared(doc: CudaDocument, name: str) -> bool:
    own = sorted((other.node.start_byte, other.body.start_byte if other.body is not None else other.node.end_byte)
                 for other in doc.functions_named(name))
    starts = [start for start, _ in own]
    for use in doc.uses_of(name):
        before = bisect.bisect_right(starts, use) - 1  # the one declaration a use can lie in
        if before < 0 or use >= own[before][1]:
            return False
    return True


def _launched_exactly_as_specialised(doc: CudaDocument, name: str, own: str | None) -> bool:
    """Whether every launch that reaches the definitions of kernel `name` with the explicit
    specialisation `own` (None: the primary template) is exact: `k<float><<<...>>>` runs the
    `k<float>` specialisation, `k<<<...>>>` and other arguments the primary template."""
    launches = doc.launches_of(name)
    if own is not None:
        relevant = [launch for launch in launches if _template_args(doc.source, launch.name_span.end_byte) == own]
    else:
        specialised = {_specialisation(doc, other) for other in doc.functions_named(name)} - {None}
        relevant = [launch for launch in launches
                    if _template_args(doc.source, launch.name_span.end_byte) not in specialised]
    return bool(relevant) and all(_launch_is_exact(doc, launch) for launch in relevant)


# -- HC118 --------------------------------------------------------------------------------------
def floor_grid(doc: CudaDocument, launch: Launch, path: str) -> Iterator[Finding]:
    """A grid dimension `n / B` that rounds down, so the last n % B elements get no thread."""
    kernel = doc.function_named(launch.kernel)
    if kernel is None or kernel.body is None or launch.grid is None or _has_grid_stride_loop(kernel):
        return
    at = launch.span.start_byte
    for item in _grid_items(doc, launch) or []:
        division = _division(doc, item, at)
        if division is None:
            continue
        numerator, divisor = division
        if numerator.type == "binary_expression" and (numerator.child_by_field_name("operator") or numerator).type \
                in ("+", "-") or doc.constants.int_at(divisor, at) in (None, 0, 1):
            continue  # `(n + B - 1) / B` rounds up; an unknown divisor is not a block size
        if _is_multiple(doc, numerator, divisor, at):
            continue
        yield finding("HC118", f"grid {short(item)} of {launch.kernel} rounds down: the last "
                      f"{short(numerator)} % {short(divisor)} elements get no thread", path, Span.of(item),
                      f"round up: ({short(numerator)} + {short(divisor)} - 1) / {short(divisor)}, and guard the "
                      "index in the kernel")


def _has_grid_stride_loop(kernel: CudaFunction) -> bool:
    # a loop stepping by the grid covers any element count whatever the grid size
    return kernel.body is not None and re.search(rb"\bfor\s*\((?:[^;]*;){2}[^{;]*gridDim", kernel.body.text) is not None

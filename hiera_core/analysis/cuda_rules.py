"""The CUDA rules (HC1xx) over a parsed CudaDocument. Rule texts live in rules.RULES."""

from __future__ import annotations

import bisect
import dataclasses
import functools
import os
import re
from collections import Counter
from collections.abc import Iterator

from tree_sitter import Node, Query

from hiera_core.analysis import cexpr
from hiera_core.analysis.cuda_flow import (
    THREAD,
    THREAD_YZ,
    Call,
    FunctionFlow,
    Region,
    Subscript,
    display,
    inactive_for_cuda,
)
from hiera_core.analysis.cuda_source import (
    CUDA,
    TYPE_SIZES,
    WARP_SIZE,
    CudaDocument,
    CudaFunction,
    Launch,
    SharedDecl,
    bounded_captures,
    node_text,
    parse_cuda,
)
from hiera_core.analysis.findings import Finding, Span
from hiera_core.analysis.rules import finding

STATIC_SHARED_LIMIT = 48 * 1024
MAX_THREADS = 1024
MAX_DIMS = (1024, 1024, 64)
FULL_MASK = 0xFFFFFFFF

BARRIERS = {"__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or"}
MASKED_WARP_INTRINSICS = {
    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
    "__all_sync", "__any_sync", "__uni_sync", "__match_any_sync", "__match_all_sync", "__syncwarp",
    "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
    "__reduce_or_sync", "__reduce_xor_sync",
}
SHUFFLES = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync"}
LEGACY_WARP_INTRINSICS = {"__shfl": "__shfl_sync", "__shfl_up": "__shfl_up_sync",
                          "__shfl_down": "__shfl_down_sync", "__shfl_xor": "__shfl_xor_sync",
                          "__ballot": "__ballot_sync", "__any": "__any_sync", "__all": "__all_sync"}
MATH_FUNCTIONS = {
    "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "pow", "sqrt", "rsqrt", "cbrt",
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "erf", "erfc", "erfinv", "lgamma", "tgamma", "fabs", "floor", "ceil", "round", "trunc",
    "fmod", "fmax", "fmin", "fma", "hypot", "copysign", "ldexp", "rint", "nearbyint",
}
FLOAT_TYPES = {"float", "float2", "float4", "half", "__half", "half2", "__half2", "__nv_bfloat16"}
INT32_TYPES = {"int", "unsigned", "unsigned int", "int32_t", "uint32_t", "signed", "signed int"}
WIDE_TYPES = {"int64_t", "uint64_t", "long", "long long", "unsigned long", "unsigned long long", "size_t",
              "ptrdiff_t", "index_t", "long int"}
LAUNCH_CHECK_RE = re.compile(rb"\b(?:C10_CUDA_KERNEL_LAUNCH_CHECK|cudaGetLastError|cudaPeekAtLastError)\b")
_DOUBLE_LITERAL_RE = re.compile(r"^(?:(?:\d[\d']*\.[\d']*|\.\d[\d']*)(?:[eE][+-]?\d+)?|\d[\d']*[eE][+-]?\d+"
                                r"|0[xX][0-9a-fA-F.']*[pP][+-]?\d+)[lL]?$")
_BUILTIN_RE = re.compile(r"^(threadIdx|blockIdx|blockDim|gridDim)\s*\.\s*[xyz]$")
# calls after which shared memory written by other threads is visible: block and warp barriers,
# cooperative groups' sync(), cuda::barrier / pipeline waits, inline PTX
_SYNC_NAME_RE = re.compile(r"(?:sync|barrier|arrive|wait|fence)\w*$|^asm$", re.IGNORECASE)
# the first arch each atomicAdd operand type is available on (CUDA C++ Programming Guide, atomicAdd)
ATOMIC_ARCH = {"double": 60, "__half2": 60, "half2": 60, "__half": 70, "half": 70, "__nv_bfloat16": 80,
               "nv_bfloat16": 80, "__nv_bfloat162": 80, "nv_bfloat162": 80, "float2": 90, "float4": 90}
ATOMIC_ADDS = {"atomicAdd", "atomicAdd_block", "atomicAdd_system"}
_ARCH_RE = re.compile(r"^(?:sm|compute)_(\d+)[a-z]?$")


def arch_number(arch: str) -> int | None:
    """52 for "sm_52", 90 for "sm_90a" or "compute_90"; None for anything else."""
    match = _ARCH_RE.match(arch.strip().lower())
    return int(match.group(1)) if match else None


def check_cuda(doc: CudaDocument, path: str, arch: str | None = None, cache: dict | None = None) -> list[Finding]:
    """Every HC1xx finding of one parsed CUDA document (unfiltered; see analyze_file). `arch` ("sm_80")
    is the target the atomics rule (HC120) checks against; None skips that rule.

    `cache`: a dict the caller keeps between analyses of one file as it is edited (the editor keeps
    one per document). The findings of each GPU function's own rules (_function_findings) are kept
    in it and reused, moved with the function, while the function's text and the file-level facts
    those rules read (_function_key) are unchanged; the file-level rules run each time. Only the
    entries of this run are kept. A rule added to _function_findings may read its function's flow
    and _function_key's facts only: one that reads other functions belongs with the file-level rules."""
    if cache is not None:
        return _check_cuda_cached(doc, path, arch, cache)
    flows = [FunctionFlow(doc, function) for function in doc.functions if function.is_gpu and function.body]
    exact = _kernels_launched_exactly(doc)
    syncing = _syncing_functions(flows)
    findings: list[Finding] = []
    for flow in flows:
        findings.extend(_function_findings(doc, flow, path, syncing))
        if not _launched_exactly(doc, flow.function, exact) and not _launched_elsewhere(doc, flow.function):
            findings.extend(_unguarded_index(flow, path))
    findings.extend(_unwritten_shared(doc, flows, path))
    target = arch_number(arch) if arch else None
    if target is not None:
        findings.extend(_atomics_for_arch(doc, flows, path, arch or "", target))
    for kernel in doc.kernels:
        if kernel.body is None:  # the others' are among their function's findings
            findings.extend(_kernel_findings(doc, kernel, path))
    return findings + _file_findings(doc, path)


def _function_findings(doc: CudaDocument, flow: FunctionFlow, path: str, syncing: set[str],
                       own_shared: list[SharedDecl] | None = None) -> list[Finding]:
    """The findings of the rules about one GPU function but HC101 (which the file's launches decide);
    with `own_shared` (the function's shared declarations), HC119 for them too."""
    findings: list[Finding] = []
    for rule in (_divergent_barrier, _divergent_warp_intrinsic, _double_in_float, _legacy_warp_intrinsic,
                 _int32_products, _partial_shuffle_mask):
        findings.extend(rule(flow, path))
    findings.extend(_shared_race(flow, path, syncing))
    if own_shared:
        findings.extend(_unwritten_shared(dataclasses.replace(doc, shared=own_shared), [flow], path))
    if flow.function.is_kernel:
        findings.extend(_kernel_findings(doc, flow.function, path))
    return findings


def _kernel_findings(doc: CudaDocument, kernel: CudaFunction, path: str) -> list[Finding]:
    return [*_launch_bounds_values(kernel, path), *_missing_restrict(kernel, path), *_static_shared(doc, kernel, path)]


def _file_findings(doc: CudaDocument, path: str) -> list[Finding]:
    """The rules over launches and the whole file."""
    findings: list[Finding] = []
    floor_spans: set[tuple[int, int]] = set()
    for launch in doc.launches:
        findings.extend(_launch_config(doc, launch, path))
        for item in _floor_grid(doc, launch, path):  # one grid local launched several times: one finding
            if (item.start_byte, item.end_byte) not in floor_spans:
                floor_spans.add((item.start_byte, item.end_byte))
                findings.append(item)
    findings.extend(_narrow_counts(doc, path))
    if doc.is_torch_extension:
        findings.extend(_unchecked_launches(doc, path))
        findings.extend(_unchecked_data_ptr(doc, path))
    findings.extend(_hidden_kernel_findings(doc, path))
    return findings


# -- HC116 --------------------------------------------------------------------------------------
_COMMENT_RE = re.compile(rb"//[^\n]*|/\*.*?\*/", re.DOTALL)
_MACRO_DEFINITION_RE = re.compile(rb"(?:[^\n]*\\\r?\n)*[^\n]*")
# `template __global__ void k<T, N>(...)`: an explicit instantiation, which defines no new code
_INSTANTIATION_RE = re.compile(rb"^\s*template\s+__global__\s+[\w:]+\s+(\w+)\s*<", re.MULTILINE)


def _hidden_kernel_findings(doc: CudaDocument, path: str) -> Iterator[Finding]:
    """HC116 for regions whose kernels are not analysed, but for `__global__` that only appears in
    comments (`//! __global__ void ExampleKernel` documentation), and macros that only instantiate
    kernels the file defines, and so analyses, elsewhere."""
    defined = {function.name for function in doc.functions if function.is_kernel and function.body is not None}
    for span, why in doc.hidden_kernels:
        if why.startswith("kernels written through macro"):
            definition = _MACRO_DEFINITION_RE.match(doc.source, span.end_byte)
            text = _COMMENT_RE.sub(b" ", definition.group(0) if definition else b"").replace(b"\\\n", b"\n")
            instantiated = _INSTANTIATION_RE.findall(text)
            if instantiated and {name.decode() for name in instantiated} <= defined \
                    and text.count(b"__global__") == len(instantiated):
                continue
        elif b"__global__" not in _COMMENT_RE.sub(b" ", doc.source[span.start_byte:span.end_byte]):
            continue
        yield finding("HC116", f"kernel not analysed: {why}", path, span,
                      "tree-sitter does not expand macros; write the kernel out to have it checked")


@dataclasses.dataclass(frozen=True)
class _CallNames:
    """What _syncing_functions reads of a FunctionFlow (its function's name, its calls' names), kept
    per function so that the flows of unchanged functions need not be built again."""

    function: CudaFunction
    calls: tuple


@dataclasses.dataclass(frozen=True)
class _Named:
    name: str


_LINE_RE = re.compile(r"\bline (\d+)")


@dataclasses.dataclass(frozen=True)
class _CachedFindings:
    """One function's findings as first found: at `start_byte`/`start_line`, moved from there on reuse.
    Not `movable` when one lies outside the function or names a line outside it in other words
    than `line N`: then it is reused only in place."""

    start_byte: int
    start_line: int
    findings: tuple[Finding, ...]
    unguarded: tuple[Finding, ...]  # HC101, reported unless the file launches the kernel exactly
    movable: bool

    @classmethod
    def of(cls, function: CudaFunction, findings: list[Finding], unguarded: list[Finding]) -> _CachedFindings:
        span = function.span
        lines = range(span.start_line + 1, span.end_line + 2)
        movable = all(span.start_byte <= item.start_byte and item.end_byte <= span.end_byte
                      and "lines" not in item.message + item.hint
                      and all(int(number) in lines for number in _LINE_RE.findall(item.message + item.hint))
                      for item in findings + unguarded)
        return cls(span.start_byte, span.start_line, tuple(findings), tuple(unguarded), movable)

    def fits(self, function: CudaFunction) -> bool:
        return self.movable or (self.start_byte, self.start_line) == (function.span.start_byte,
                                                                      function.span.start_line)

    def at(self, function: CudaFunction, path: str, items: tuple[Finding, ...]) -> list[Finding]:
        """Copies of `items` (the caller may change them: apply_config sets severities) moved to `function`."""
        moved_bytes = function.span.start_byte - self.start_byte
        moved_lines = function.span.start_line - self.start_line

        def renumber(text: str) -> str:
            return _LINE_RE.sub(lambda match: f"line {int(match.group(1)) + moved_lines}", text) if moved_lines else text

        return [dataclasses.replace(item, path=path, message=renumber(item.message), hint=renumber(item.hint),
                                    start_byte=item.start_byte + moved_bytes, end_byte=item.end_byte + moved_bytes,
                                    start_line=item.start_line + moved_lines, end_line=item.end_line + moved_lines)
                for item in items]


def _function_key(doc: CudaDocument, function: CudaFunction, launches: list[Launch], shared_reads: bool) -> tuple:
    """Everything _function_findings reads: the function's text and shape (its start column: the
    columns of its findings; its node count: the same text parsed alike), where it sits (#if
    branches, namespaces), the file's macros, constants and file-scope shared memory, and the
    launches of it (their block sizes decide HC121's active lanes)."""
    span, node = function.span, function.node
    launched = tuple((launch.syntax, launch.grid and launch.grid.text,
                      launch.block and (launch.block.text, launch.block.dims),
                      launch.shared_bytes and (launch.shared_bytes.text, launch.shared_bytes.value),
                      launch.argument_list is not None and launch.argument_list.text) for launch in launches)
    return (doc.source[span.start_byte:span.end_byte], span.start_col, node.descendant_count, node.has_error,
            function.surroundings(), doc.file_context, launched, shared_reads)


def _check_cuda_cached(doc: CudaDocument, path: str, arch: str | None, cache: dict) -> list[Finding]:
    functions = [function for function in doc.functions if function.is_gpu and function.body]
    flows: dict[int, FunctionFlow] = {}

    def flow_of(function: CudaFunction) -> FunctionFlow:
        if function.node.id not in flows:
            flows[function.node.id] = FunctionFlow(doc, function)
        return flows[function.node.id]

    launches: dict[str, list[Launch]] = {}
    for launch in doc.launches:
        launches.setdefault(launch.kernel, []).append(launch)
    # HC119 of file-scope shared memory reads every function: then it runs over all of them, below
    shared_reads = not any(decl.function is None for decl in doc.shared)
    shared_by_function: dict[int, list[SharedDecl]] = {}
    for decl in doc.shared:
        if decl.function is not None:
            shared_by_function.setdefault(decl.function.id, []).append(decl)
    kept: dict = {}
    keys, summaries = [], []
    for function in functions:
        key = _function_key(doc, function, launches.get(function.name, []), shared_reads)
        names = cache.get(("calls", key))
        if names is None:
            names = tuple(call.name for call in flow_of(function).calls)
        kept[("calls", key)] = names
        keys.append(key)
        summaries.append(_CallNames(function, tuple(_Named(name) for name in names)))
    syncing = _syncing_functions(summaries)  # type: ignore[arg-type]
    findings: list[Finding] = []
    unguarded: list[tuple[CudaFunction, list[Finding]]] = []
    for function, key, summary in zip(functions, keys, summaries, strict=True):
        entry_key = ("findings", key, frozenset(call.name for call in summary.calls) & syncing)
        entry = cache.get(entry_key)
        if entry is None or not entry.fits(function):
            flow = flow_of(function)
            own_shared = shared_by_function.get(function.node.id) if shared_reads else None
            entry = _CachedFindings.of(function, _function_findings(doc, flow, path, syncing, own_shared),
                                       list(_unguarded_index(flow, path)))
        kept[entry_key] = entry
        findings.extend(entry.at(function, path, entry.findings))
        if entry.unguarded:
            unguarded.append((function, entry.at(function, path, entry.unguarded)))
    if unguarded:  # which kernels the file launches exactly: only asked when some index is unguarded
        exact = _kernels_launched_exactly(doc)
        findings.extend(item for function, items in unguarded if not _launched_exactly(doc, function, exact)
                        and not _launched_elsewhere(doc, function) for item in items)
    if not shared_reads:
        findings.extend(_unwritten_shared(doc, [flow_of(function) for function in functions], path))
    target = arch_number(arch) if arch else None
    if target is not None:
        atomic = [flow_of(function) for function in functions if b"atomicAdd" in function.node.text]
        findings.extend(_atomics_for_arch(doc, atomic, path, arch or "", target))
    for kernel in doc.kernels:
        if kernel.body is None:
            findings.extend(_kernel_findings(doc, kernel, path))
    cache.clear()
    cache.update(kept)
    return findings + _file_findings(doc, path)


# -- HC101 --------------------------------------------------------------------------------------
def _unguarded_index(flow: FunctionFlow, path: str) -> Iterator[Finding]:
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
            guard, offset, slack = tail
            yield finding("HC101", f"{node_text(access.node)} is {offset} past what `{_short(guard)}` guards (line "
                          f"{guard.start_point[0] + 1}): the last threads run past the end", path,
                          Span.of(access.node), f"guard each element (`if (i + {offset} < n)`) or handle the tail"
                          f"{'' if slack == 0 else f' beyond {slack}'} separately")


def _split_offset(flow: FunctionFlow, node: Node) -> tuple[str, int]:
    """(text of X, K) for `X + K` / `X - K` with K constant; (text, 0) otherwise."""
    node = _unparen(node)
    if node.type == "binary_expression":
        operator, right = node.child_by_field_name("operator"), node.child_by_field_name("right")
        left = node.child_by_field_name("left")
        if operator is not None and operator.type in ("+", "-") and left is not None and right is not None:
            value = flow.doc.constants.int_at(right, right.start_byte)
            if value is not None:
                base, offset = _split_offset(flow, left)
                return base, offset + (value if operator.type == "+" else -value)
    return "".join(node_text(node).split()), 0


def _comparisons(condition: Node) -> Iterator[tuple[Node, str, Node]]:
    """(left, operator, right) of each comparison joined by && in `condition`."""
    todo = [condition]
    while todo:
        node = _unparen(todo.pop())
        if node.type == "condition_clause" and node.named_children:
            todo.append(node.named_children[-1])
            continue
        if node.type != "binary_expression":
            continue
        operator = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if operator is None or left is None or right is None:
            continue
        if operator.type == "&&":
            todo += [left, right]
        elif operator.type in ("<", "<=", ">", ">="):
            yield (left, operator.type, right) if operator.type in ("<", "<=") else (right, {">": "<", ">=": "<="}[
                operator.type], left)


def _past_the_guard(flow: FunctionFlow, access: Subscript) -> tuple[Node, int, int] | None:
    """(guard, offset, slack) when the index is `X + offset` but the guards bound only `X + slack`
    with slack < offset (`if (i < n) y[i + 1] = ...`: an unrolled or paired tail)."""
    if len(access.indices) != 1 or not access.indices[0].named_children:
        return None
    base, offset = _split_offset(flow, access.indices[0].named_children[0])
    if offset <= 0:
        return None
    slack, guard = None, None
    for region in flow.controlling(access):
        for left, operator, right in _comparisons(region.condition):
            guarded_base, guarded_offset = _split_offset(flow, left)
            if guarded_base != base:
                continue
            _, bound_offset = _split_offset(flow, right)  # `i < n - 3` leaves 3 of slack
            room = guarded_offset - bound_offset - (operator == "<=")
            if slack is None or room > slack:
                slack, guard = room, region.condition
    if guard is None or slack is None or slack >= offset:
        return None
    return guard, offset, max(slack, 0)


def _grid_items(doc: CudaDocument, launch: Launch) -> list[Node] | None:
    """The grid expressions of a launch, one per dimension (`dim3 grid(a, b)` locals resolved)."""
    if launch.grid is None:
        return None
    node = _unparen(launch.grid.node)
    if node.type == "identifier":
        value = doc.constants.value_node(node_text(node), launch.span.start_byte) or _local_value(
            launch.function, node_text(node), launch.span.start_byte)
        if value is not None:
            node = _unparen(value)
    if node.type == "call_expression" and node_text(node.child_by_field_name("function") or node) == "dim3":
        args = node.child_by_field_name("arguments")
        return [arg for arg in (args.named_children if args else []) if arg.type != "comment"]
    if node.type in ("argument_list", "initializer_list"):
        return [arg for arg in node.named_children if arg.type != "comment"]
    return [node]


def _division(doc: CudaDocument, node: Node, at: int) -> tuple[Node, Node] | None:
    """(numerator, divisor) of `a / b`, through parentheses and a never-reassigned local."""
    node = _unparen(node)
    if node.type == "identifier":
        value = doc.constants.value_node(node_text(node), at)
        if value is None:
            return None
        node = _unparen(value)
    operator = node.child_by_field_name("operator") if node.type == "binary_expression" else None
    if operator is None or operator.type != "/":
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    return None if left is None or right is None else (_unparen(left), _unparen(right))


def _is_multiple(doc: CudaDocument, numerator: Node, divisor: Node, at: int) -> bool:
    """Whether the file makes `numerator % divisor == 0` known: both constant, or asserted/checked."""
    a, b = doc.constants.int_at(numerator, at), doc.constants.int_at(divisor, at)
    if a is not None and b is not None:
        return b != 0 and a % b == 0
    tokens = [re.escape(token) for token in re.findall(r"\w+|\S", node_text(numerator))]
    divisor_tokens = [re.escape(token) for token in re.findall(r"\w+|\S", node_text(divisor))]
    pattern = r"\(?\s*".join(tokens) + r"\s*\)?\s*%\s*\(?\s*" + r"\s*".join(divisor_tokens)
    return re.search(pattern.encode(), doc.code_text) is not None


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
        node = _unparen(node)
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
        elif node.type == "binary_expression" and _operator_text(node) in _EXACT_OPERATORS:
            # factors and divisors are counts; only a numerator is followed into its value
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            todo += [(child, child_depth) for child, child_depth in
                     ((left, -1 if _operator_text(node) == "*" else depth), (right, -1)) if child is not None]
        elif node.type == "cast_expression" and node.child_by_field_name("value") is not None:
            todo.append((node.child_by_field_name("value"), depth))
        elif node.type in ("argument_list", "initializer_list"):  # dim3 grid(a, b) and dim3 grid{a, b}
            todo += [(child, depth) for child in node.named_children if child.type != "comment"]
        elif node.type == "call_expression" and node_text(node.child_by_field_name("function") or node) == "dim3":
            todo += [(child, depth) for child in node.child_by_field_name("arguments").named_children]
        elif node.type not in ("number_literal", "field_expression", "qualified_identifier", "sizeof_expression"):
            return True
    return False


def _operator_text(node: Node) -> str | None:
    operator = node.child_by_field_name("operator")
    return None if operator is None else operator.type


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


def _kernels_launched_exactly(doc: CudaDocument) -> set[str]:
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


def _launched_exactly(doc: CudaDocument, function: CudaFunction, exact: set[str]) -> bool:
    """Whether every launch that reaches this definition of the kernel is exact: all launches of its
    name (`exact`, from _kernels_launched_exactly), or those of its explicit specialisation."""
    return function.name in exact or _launched_exactly_as_specialised(doc, function)


def _launched_elsewhere(doc: CudaDocument, function: CudaFunction) -> bool:
    """Whether a kernel's grid is another file's: the file launches kernels, but names this one only
    where it is declared or defined (no launch, no pointer to it). Its indices cannot be judged
    against a launch nobody here can see; a file of kernels alone (a header, an editor's snippet)
    launches none, and its kernels are judged as if launched with a rounded-up grid."""
    if not function.is_kernel or not doc.launches:
        return False
    code = doc.code_text
    uses = [match.start() for match in re.finditer(rb"\b" + re.escape(function.name.encode()) + rb"\b", code)]
    own = [(other.node.start_byte, other.body.start_byte if other.body is not None else other.node.end_byte)
           for other in doc.functions if other.name == function.name]
    return all(any(start <= use < end for start, end in own) for use in uses)


def _launched_exactly_as_specialised(doc: CudaDocument, function: CudaFunction) -> bool:
    """Whether every launch that reaches this definition of the kernel is exact, telling apart explicit
    specialisations: `k<float><<<...>>>` runs the `k<float>` specialisation, `k<<<...>>>` and other
    arguments the primary template."""
    own = _specialisation(doc, function)
    launches = [launch for launch in doc.launches if launch.kernel == function.name]
    if own is not None:
        relevant = [launch for launch in launches if _template_args(doc.source, launch.name_span.end_byte) == own]
    else:
        specialised = {_specialisation(doc, other) for other in doc.functions
                       if other.name == function.name and other is not function} - {None}
        relevant = [launch for launch in launches
                    if _template_args(doc.source, launch.name_span.end_byte) not in specialised]
    return bool(relevant) and all(_launch_is_exact(doc, launch) for launch in relevant)


# -- HC102, HC103 -------------------------------------------------------------------------------
def _divergent_barrier(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for call in flow.calls:
        if call.name not in BARRIERS or inactive_for_cuda(call.node):
            continue
        branch = next((region for region in flow.controlling(call, with_exits=False)
                       if flow.region_is_thread_dependent(region) and not flow.has_uniform_trip_count(region)),
                      None)
        if branch is not None:
            yield finding("HC102", f"{call.name}() under a {_describe(branch.kind)} on `{_short(branch.condition)}`"
                          f" (line {branch.condition.start_point[0] + 1}), which depends on threadIdx: threads that "
                          "skip it never arrive", path, Span.of(call.node),
                          "move the barrier out of the conditional; make only the work conditional")
            continue
        exit_region = next((region for region in flow.controlling(call) if region.kind == "exit"
                            and flow.region_is_thread_dependent(region) and not _exits_whole_warps(flow, region)),
                           None)
        if exit_region is not None:
            yield finding("HC103", f"{call.name}() after threads may have exited early on "
                          f"`{_short(exit_region.condition)}` (line {exit_region.condition.start_point[0] + 1})",
                          path, Span.of(call.node), "keep all threads until the last barrier; guard loads and stores")


def _exits_whole_warps(flow: FunctionFlow, region: Region) -> bool:
    """Whether an exit on a flat thread index (`if (index >= n) return;`, index = threadIdx.x + blockIdx.x
    * blockDim.x) drops whole warps: the kernel then makes `index / W`, W a multiple of 32, its work
    item (a warp per pixel: n counts items x W threads), so no warp is left with some lanes gone."""
    if region.kind != "exit":
        return False
    indices = {node_text(side) for left, _, right in _comparisons(region.condition) for side in (left, right)
               if side.type == "identifier"}
    flat = set()
    for name in indices:
        values = flow.values_of(flow.variable_at(_first_identifier(region.condition, name)))
        if values and re.fullmatch(r"threadIdx\.x\+blockIdx\.x\*blockDim\.x|blockIdx\.x\*blockDim\.x\+threadIdx\.x",
                                   "".join(node_text(values[0]).split())):
            flat.add(name)
    if not flat:
        return False
    todo = [flow.function.body] if flow.function.body is not None else []
    while todo:
        node = todo.pop()
        if node.end_byte <= region.condition.end_byte:
            continue
        if node.type == "binary_expression" and _operator_text(node) == "/" and node.start_byte > region.condition.end_byte:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and node_text(_unparen(left)) in flat \
                    and _whole_warps(flow.doc, right, node.start_byte):
                return True
        todo += node.named_children
    return False


def _whole_warps(doc: CudaDocument, node: Node, at: int) -> bool:
    """Whether `node` is a positive multiple of 32, or a macro every #define of which is one (WARP_SIZE
    defined 64 under HIP and 32 for CUDA)."""
    value = doc.constants.int_at(node, at)
    if value is not None:
        return value > 0 and value % 32 == 0
    if node.type != "identifier":
        return False
    definitions = re.findall(rb"^[ \t]*#[ \t]*define[ \t]+" + re.escape(node.text) + rb"\b[ \t]*([^\n]*)",
                             doc.code_text, re.MULTILINE)
    values = [cexpr.parse_int_literal(text.strip().decode("utf-8", "replace")) for text in definitions]
    return bool(values) and all(value is not None and value > 0 and value % 32 == 0 for value in values)


def _first_identifier(node: Node, name: str) -> Node:
    todo = [node]
    while todo:
        current = todo.pop()
        if current.type == "identifier" and node_text(current) == name:
            return current
        todo += current.named_children
    return node


def _shared_names(flow: FunctionFlow) -> set[str]:
    """Names of the shared arrays a GPU function can see: its own and the file's."""
    function_id = flow.function.node.id
    return {decl.name for decl in flow.doc.shared if decl.function is None or decl.function.id == function_id}


# -- HC104, HC121 -------------------------------------------------------------------------------
def _mask_value(flow: FunctionFlow, call: Call) -> tuple[Node | None, int | None]:
    args = call.node.child_by_field_name("arguments")
    mask = args.named_children[0] if args is not None and args.named_children else None
    if mask is None:
        return None, FULL_MASK if call.name == "__syncwarp" else None
    value = flow.doc.constants.int_at(mask, mask.start_byte)
    return mask, None if value is None else value & FULL_MASK


def _divergent_warp_intrinsic(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for call in flow.calls:
        if call.name not in MASKED_WARP_INTRINSICS or _mask_value(flow, call)[1] != FULL_MASK \
                or inactive_for_cuda(call.node):
            continue
        region = next((region for region in flow.controlling(call) if flow.is_lane_divergent(region.condition)
                       and not _exits_whole_warps(flow, region)), None)
        if region is not None:
            where = "an early exit on" if region.kind == "exit" else f"a {_describe(region.kind)} on"
            yield finding("HC104", f"{call.name}() with the full mask after {where} `{_short(region.condition)}` "
                          f"(line {region.condition.start_point[0] + 1}), which differs between lanes of a warp",
                          path, Span.of(call.node),
                          "call it where all 32 lanes are active, or pass the mask of the active lanes")


def _partial_shuffle_mask(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for call in flow.calls:
        if call.name not in MASKED_WARP_INTRINSICS:
            continue
        mask_node, mask = _mask_value(flow, call)
        if mask_node is None or mask is None or mask in (FULL_MASK, 0):
            continue
        needed = _lanes_reached(flow, call)
        if needed is not None and mask & needed != needed:
            yield finding("HC121", f"{call.name}() with mask {node_text(mask_node)} exchanges with lanes outside the "
                          f"mask: its offsets reach lanes up to {needed.bit_length() - 1}", path, Span.of(call.node),
                          f"use the mask of every lane that takes part, here {needed:#x}")
            continue
        active = _active_lanes(flow, call)
        if active is not None and active != mask:
            yield finding("HC121", f"{call.name}() with mask {node_text(mask_node)} but lanes {active:#x} run it: "
                          "each calling lane must be in the mask and each lane in the mask must call it", path,
                          Span.of(call.node), f"pass {active:#x}, or take the mask with __ballot_sync before "
                          "the branch")


def _lanes_reached(flow: FunctionFlow, call: Call) -> int | None:
    """The lanes a shuffle reaches through its offset: `__shfl_down_sync(m, v, 16)`, or a loop
    variable starting at 16, exchanges between lanes 0..31, so all of them take part."""
    if call.name not in ("__shfl_down_sync", "__shfl_xor_sync", "__shfl_up_sync"):
        return None
    args = call.node.child_by_field_name("arguments")
    parts = [arg for arg in (args.named_children if args else []) if arg.type != "comment"]
    if len(parts) < 3:
        return None
    offset = _largest_value(flow, parts[2])
    if offset is None or offset <= 0:
        return None
    width = _largest_value(flow, parts[3]) if len(parts) > 3 else WARP_SIZE
    lanes = min(2 * offset if call.name != "__shfl_xor_sync" else 2 * (1 << (offset.bit_length() - 1)),
                width or WARP_SIZE, WARP_SIZE)
    return (1 << lanes) - 1


def _largest_value(flow: FunctionFlow, node: Node) -> int | None:
    """A constant, or the initial value of a loop variable (the largest offset of a halving loop)."""
    value = _int_with_warp_size(flow, node)
    if value is not None or _unparen(node).type != "identifier":
        return value
    variable = flow.variable_at(_unparen(node))
    declaration = next((d for d in flow.declarations if d.variable == variable), None)
    return None if declaration is None else _int_with_warp_size(flow, declaration.value)


def _int_with_warp_size(flow: FunctionFlow, node: Node) -> int | None:
    value = flow.doc.constants.int_at(node, node.start_byte)
    if value is None and "warpSize" in node_text(node):
        try:
            value = cexpr.parse(node_text(node)).evaluate(lambda name: WARP_SIZE if name == "warpSize" else None)
        except cexpr.CExprError:
            return None
    return value


def _active_lanes(flow: FunctionFlow, call: Call) -> int | None:
    """The lanes that reach `call` when the code says: all 32 in a kernel without lane-dependent control,
    lanes 0..K-1 under `if (lane < K)`; None when that is not known."""
    for region in flow.controlling(call):
        if flow.is_lane_divergent(region.condition):
            bound = flow.lane_bound(region.condition) if region.kind != "exit" else None
            return None if bound is None else (1 << bound) - 1
    if not flow.function.is_kernel:
        return None  # a device function's callers decide
    launches = [launch for launch in flow.doc.launches if launch.kernel == flow.function.name]
    if any(launch.block is None or launch.block.dims is None for launch in launches):
        return None
    widths = {launch.block.dims[0] for launch in launches if launch.block is not None and launch.block.dims}
    if len(widths) > 1 or (widths and min(widths) % WARP_SIZE and min(widths) > WARP_SIZE):
        return None
    width = min(widths) if widths else WARP_SIZE
    return FULL_MASK if width >= WARP_SIZE else (1 << width) - 1


# -- HC117, HC119 (shared memory) ---------------------------------------------------------------
def _syncing_functions(flows: list[FunctionFlow]) -> set[str]:
    """GPU functions of the file that contain a barrier, directly or through each other."""
    calls = {flow.function.name: {call.name for call in flow.calls} for flow in flows}
    syncing = {name for name, called in calls.items() if any(_is_sync_name(callee) for callee in called)}
    changed = True
    while changed:
        changed = False
        for name, called in calls.items():
            if name not in syncing and called & syncing:
                syncing.add(name)
                changed = True
    return syncing


def _is_sync_name(name: str) -> bool:
    return name in BARRIERS or bool(_SYNC_NAME_RE.search(name.rsplit(".", 1)[-1].rsplit("::", 1)[-1]))


def _shared_race(flow: FunctionFlow, path: str, syncing: set[str]) -> Iterator[Finding]:
    shared = _shared_names(flow)
    if not shared:
        return
    events: list[tuple[int, int, Subscript | None]] = [
        (access.node.start_byte, 1 if access.is_write else 2, access) for access in flow.subscripts
        if display(access.base) in shared]
    if not events:
        return
    barriers = sorted(call.node.start_byte for call in flow.calls if _is_sync_name(call.name) or call.name in syncing)
    events += [(start, 0, None) for start in barriers]
    events.sort(key=lambda event: (event[2].stored_at if event[1] == 1 else event[0], -event[1]))
    writes: dict[str, list[Subscript]] = {}
    reported: set[int] = set()
    for _, kind, event in events:
        if event is None:
            writes.clear()
            continue
        if kind == 1:
            writes.setdefault(event.base, []).append(event)
            continue
        for write in writes.get(event.base, ()):
            if _other_threads_wrote(flow, write, event) and not _loop_synchronises(write, event, barriers) \
                    and event.node.start_point[0] not in reported:
                reported.add(event.node.start_point[0])
                yield finding("HC117", f"{node_text(event.node)} reads shared memory that other threads wrote at "
                              f"line {write.node.start_point[0] + 1} ({_short(write.node)}) with no barrier between",
                              path, Span.of(event.node), "put __syncthreads() between the write and the read")
                break
    for write, read in _loop_carried_races(flow, shared, barriers, reported):
        yield finding("HC117", f"{node_text(read.node)} reads shared memory that other threads wrote in the previous "
                      f"pass of the loop ({_short(write.node)}, line {write.node.start_point[0] + 1}) with no barrier "
                      "in the loop", path, Span.of(read.node), "put __syncthreads() at the end of the loop body")


def _loop_carried_races(flow: FunctionFlow, shared: set[str], barriers: list[int],
                        reported: set[int]) -> Iterator[tuple[Subscript, Subscript]]:
    """(write, read) pairs of one loop without a barrier: the next pass reads what another thread
    wrote in this one (`for (...) if (t < s) a[t] += a[t + s];`)."""
    accesses = [access for access in flow.subscripts if display(access.base) in shared]
    loops: dict[int, Region] = {}
    for access in accesses:
        if access.is_write:
            for region in FunctionFlow.controlling(access, with_exits=False):
                if region.kind in ("for", "while", "do"):
                    loops.setdefault(region.condition.id, region)
    for loop in loops.values():
        at = bisect.bisect_left(barriers, loop.start)
        if at < len(barriers) and barriers[at] < loop.end:
            continue
        inside = [access for access in accesses if loop.start <= access.node.start_byte < loop.end]
        for write in (access for access in inside if access.is_write):
            for read in inside:
                if read.base == write.base and (not read.is_write or read.is_update) and read is not write \
                        and read.node.start_point[0] not in reported and _other_threads_wrote(flow, write, read):
                    reported.add(read.node.start_point[0])
                    yield write, read


def _loop_synchronises(write: Subscript, read: Subscript, barriers: list[int]) -> bool:
    """Whether the write sits in a loop with a barrier that the read is outside of: such loops (tree
    reductions, scans) usually narrow to one thread by the last pass, which is not known here."""
    for region in FunctionFlow.controlling(write, with_exits=False):
        if region.kind in ("for", "while", "do") and not region.start <= read.node.start_byte < region.end:
            at = bisect.bisect_left(barriers, region.start)
            if at < len(barriers) and barriers[at] < region.end:
                return True
    return False


def _index_text(access: Subscript) -> str:
    return "".join("".join(node_text(index).split()) for index in access.indices)


def _offset_of(write: Subscript, read: Subscript) -> bool:
    """Whether the read's last index is the write's plus or minus a term (`s[t]` / `s[t + stride]`)."""
    if len(write.indices) != len(read.indices) or not read.indices[-1].named_children:
        return False
    node = _unparen(read.indices[-1].named_children[0])
    operator = node.child_by_field_name("operator") if node.type == "binary_expression" else None
    left = node.child_by_field_name("left") if operator is not None else None
    written = write.indices[-1].named_children[0] if write.indices[-1].named_children else None
    return operator is not None and operator.type in ("+", "-") and left is not None and written is not None \
        and "".join(node_text(left).split()) == "".join(node_text(_unparen(written)).split()) \
        and all(_index_text_of(a) == _index_text_of(b) for a, b in zip(write.indices[:-1], read.indices[:-1],
                                                                          strict=True))


def _index_text_of(index: Node) -> str:
    return "".join(node_text(index).split())


def _index_names(flow: FunctionFlow, access: Subscript) -> set[str]:
    return set().union(*(flow.names_in(index) for index in access.indices))


def _other_threads_wrote(flow: FunctionFlow, write: Subscript, read: Subscript) -> bool:
    """Whether `read` can see an element that a thread other than the reader wrote in `write`."""
    write_by_thread = any(flow.is_thread_dependent(index) for index in write.indices)
    if write_by_thread:
        # a neighbour's element: the same variables combined differently (`s[t]` / `s[t + 1]`, `s[y][x]` /
        # `s[x][y]`); other variables (double buffers, `s[a]` / `s[b]`) are not known to meet
        if _index_text(write) == _index_text(read):
            return False
        return _index_names(flow, write) == _index_names(flow, read) or _offset_of(write, read)
    # one element written by some threads (`if (tid == 0) s[0] = v;`), read by the others
    selecting = next((region for region in flow.controlling(write) if flow.region_is_thread_dependent(region)), None)
    return selecting is not None and selecting not in set(flow.controlling(read))


def _unwritten_shared(doc: CudaDocument, flows: list[FunctionFlow], path: str) -> Iterator[Finding]:
    """HC119: a __shared__ array (or scalar) that is read but that no code of the file writes or hands on."""
    by_function = {flow.function.node.id: flow for flow in flows}
    for decl in doc.shared:
        if decl.function is None:
            scope = flows
        else:
            scope = [by_function[decl.function.id]] if decl.function.id in by_function else []
        reads: list[tuple[int, int]] = []  # (start, end) bytes
        written = False
        for flow in scope:
            variables = {name for _, name in flow.idents if display(name) == decl.name}
            accesses = [access for access in flow.subscripts if access.base in variables]
            bases = {access.node.start_byte for access in accesses}
            plain = [start for start, name in flow.idents if name in variables and start not in bases]
            # `s[i] += v` reads the element first: only plain stores initialise it
            written = written or bool(variables & flow.assigned) or any(
                access.is_write and not access.is_update for access in accesses)
            if decl.is_array:
                # used other than as `s[i]` (a pointer taken, passed to a call, asm): it may be written there
                written = written or bool(plain)
                reads += [(access.node.start_byte, access.node.end_byte) for access in accesses
                          if not access.is_write or access.is_update]
            elif decl.element_type in TYPE_SIZES:
                # a scalar of a class type (`cub::BlockScan<...>::TempStorage`) is handed to its
                # constructor by reference: only plain numbers are known to be read as values
                reads += [(start, start + len(decl.name)) for start in plain]
        if reads and not written:
            start, end = min(reads)
            text = doc.source[start:end].decode("utf-8", "replace")
            yield finding("HC119", f"{text} reads __shared__ '{decl.name}', which no thread writes", path,
                          _byte_span(doc.source, start, end),
                          f"store into {decl.name} (and __syncthreads()) before reading it")


def _byte_span(source: bytes, start: int, end: int) -> Span:
    line = source.count(b"\n", 0, start)
    column = start - (source.rfind(b"\n", 0, start) + 1)
    return Span(start, end, line, column, line, column + end - start)


# -- HC113 --------------------------------------------------------------------------------------
def _product_factors(node: Node) -> list[Node]:
    """The factors of a chain of `*` (through parentheses), left to right."""
    factors, todo = [], [node]
    while todo:
        current = _unparen(todo.pop())
        operator = current.child_by_field_name("operator") if current.type == "binary_expression" else None
        if operator is not None and operator.type == "*":
            todo += [current.child_by_field_name("right"), current.child_by_field_name("left")]
        else:
            factors.append(current)
    return factors


def _is_narrow(flow: FunctionFlow, node: Node) -> bool:
    """A non-constant 32-bit integer operand: an int variable, a built-in index, a sum of them."""
    node = _unparen(node)
    if flow.doc.constants.int_at(node, node.start_byte) is not None:
        return False
    if node.type == "field_expression":
        return bool(_BUILTIN_RE.match(node_text(node)))
    if node.type == "identifier":
        return flow.var_types.get(flow.variable_at(node), "") in INT32_TYPES
    if node.type == "binary_expression":
        operator = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if operator is not None and operator.type in ("+", "-") and left is not None and right is not None:
            return (_is_narrow(flow, left) or _is_constant(flow, left)) and (
                _is_narrow(flow, right) or _is_constant(flow, right)) and not (
                _is_constant(flow, left) and _is_constant(flow, right))
    return False


def _is_wide(flow: FunctionFlow, node: Node) -> bool:
    """A 64-bit integer variable (int64_t, size_t, long, ...)."""
    node = _unparen(node)
    if node.type != "identifier":
        return False
    declared = " ".join(word for word in flow.var_types.get(flow.variable_at(node), "").split()
                        if word not in ("const", "constexpr", "volatile"))
    return declared in WIDE_TYPES


def _is_constant(flow: FunctionFlow, node: Node) -> bool:
    return flow.doc.constants.int_at(node, node.start_byte) is not None


def _int32_products(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    """HC113 in GPU code: a product of three or more 32-bit extents, stored in 32 bits or used as an index."""
    places: list[tuple[Node, str]] = [(d.value, f"'{d.name}'") for d in flow.declarations
                                      if d.type.split()[-1:] and " ".join(
                                          t for t in d.type.split() if t not in ("const", "constexpr", "volatile"))
                                      in INT32_TYPES]
    places += [(index, f"the index of {display(access.base)}[...]") for access in flow.subscripts
               if access.base in flow.global_pointers for index in access.indices]
    reported: set[int] = set()
    for place, what in places:
        if b"*" not in place.text:
            continue  # no product (most declarations and indices): nothing to walk
        for product in _outer_products(place):
            factors = _product_factors(product)
            variables = [factor for factor in factors if not _is_constant(flow, factor)]
            narrow = [factor for factor in variables if _is_narrow(flow, factor)]
            wide = [factor for factor in variables if _is_wide(flow, factor)]
            if product.start_byte in reported:
                continue
            if len(narrow) >= 3 and len(narrow) == len(variables) and not _bounded_product(flow, product, factors):
                reported.add(product.start_byte)
                yield finding("HC113", f"{_short(product)} in {what} multiplies {len(narrow)} 32-bit extents: "
                              "it overflows past 2^31", path, Span.of(product),
                              f"widen the first factor: (int64_t){node_text(factors[0])} * ...")
            elif wide and len(variables) >= 2 and what.startswith("'"):
                reported.add(product.start_byte)
                yield finding("HC113", f"{_short(product)}, a product of 64-bit extents, is stored in the 32-bit "
                              f"{what}: it wraps past 2^31", path, Span.of(product), f"declare {what} int64_t")


_BLOCK_COUNT_RE = re.compile(r"^(?:blockIdx|gridDim)\s*\.\s*[xyz]$")


def _bounded_product(flow: FunctionFlow, product: Node, factors: list[Node]) -> bool:
    """Products no larger than a 32-bit value the code already holds: a block's rank in its grid
    (`blockIdx.z * gridDim.x * gridDim.y`, below the number of blocks), a quotient multiplied back
    by its divisor (`x = flat / (ny * nz)`, then `x * ny * nz <= flat`), or factors a condition over
    the product bounds (_guarded_product)."""
    if all(_BLOCK_COUNT_RE.match(node_text(factor)) for factor in factors):
        return True
    texts = ["".join(node_text(factor).split()) for factor in factors]
    for index, factor in enumerate(factors):
        if factor.type != "identifier":
            continue
        values = flow.values_of(flow.variable_at(factor))
        value = _unparen(values[0]) if len(values) == 1 else None
        if value is None or value.type != "binary_expression" or _operator_text(value) != "/":
            continue
        divisor = value.child_by_field_name("right")
        if divisor is None:
            continue
        # x = flat / (a * b): x * a <= flat / b, so x times k of the divisor's factors and at most as
        # many others is of flat's order (`batch_idx * heads * mp_size` with batch_idx = flat / (seq * heads));
        # `b * T * OC` with b = bt / T is bt * OC, two extents, and is reported
        others = Counter(texts[:index] + texts[index + 1:])
        parts = Counter("".join(node_text(part).split()) for part in _product_factors(divisor))
        shared = sum((others & parts).values())
        if shared and others.total() - shared <= parts.total() - shared:
            return True
    return _guarded_product(flow, product, texts)


def _guarded_product(flow: FunctionFlow, product: Node, texts: list[str]) -> bool:
    """Whether a condition the product sits under bounds some of its factors: with `h = h_in + j * d`
    and `h < height ? data[j * d * width] : 0`, `j * d * width` is below `(height - h_in) * width`,
    which is counted as two extents (the bound and width), too few to overflow."""
    node = product
    while node.parent is not None and node.parent.id != flow.function.node.id:
        parent = node.parent
        condition, consequence = parent.child_by_field_name("condition"), parent.child_by_field_name("consequence")
        if parent.type in ("conditional_expression", "if_statement") and condition is not None \
                and consequence is not None and consequence.id == node.id:  # not the `else` side
            for left, _, bound in _comparisons(condition):
                guarded = _guarded_factors(flow, left)
                if guarded and guarded <= Counter(texts):
                    extents = len(texts) - guarded.total() + (not _is_constant(flow, bound))
                    if extents < 3:
                        return True
        node = parent
    return False


def _guarded_factors(flow: FunctionFlow, node: Node) -> Counter[str]:
    """The factors of the product a compared value adds (`h` with `h = h_in + j * d`: j and d)."""
    node = _unparen(node)
    if node.type == "identifier":
        values = flow.values_of(flow.variable_at(node))
        if len(values) != 1:
            return Counter()
        node = _unparen(values[0])
    summands, todo = [], [node]
    while todo:
        current = _unparen(todo.pop())
        if current.type == "binary_expression" and _operator_text(current) in ("+", "-"):
            todo += [current.child_by_field_name("left"), current.child_by_field_name("right")]
        elif current.type == "binary_expression" and _operator_text(current) == "*":
            summands.append(current)
    if len(summands) != 1:
        return Counter()
    return Counter("".join(node_text(part).split()) for part in _product_factors(summands[0]))


def _outer_products(node: Node) -> Iterator[Node]:
    """The outermost `*` chains inside `node` (not inside another product, a call or a subscript)."""
    todo = [node]
    while todo:
        current = todo.pop()
        if current.type == "binary_expression":
            operator = current.child_by_field_name("operator")
            if operator is not None and operator.type == "*":
                yield current
                continue
        if current.type in ("call_expression", "subscript_expression", "cast_expression", "lambda_expression"):
            continue
        todo.extend(current.named_children)


_COUNT_CALL_RE = re.compile(rb"\.\s*(?:numel|size)\s*\(")
MAX_DECLARATION_DEPTH = 24  # levels walked up from a numel()/size() call to its declaration
_WIDE_COUNT_RE = re.compile(r"\.\s*numel\s*\(|\.\s*size\s*\(|\bsizeof\b")


def _narrow_counts(doc: CudaDocument, path: str) -> Iterator[Finding]:
    """HC113: a 64-bit count (`numel()`, a product of `.size(i)`) stored in a 32-bit integer."""
    if b"numel" not in doc.source and b".size(" not in doc.source:
        return
    declarations: dict[int, Node] = {}
    for match in _COUNT_CALL_RE.finditer(doc.source):  # few: walk up from each to its declaration
        node = doc.tree.root_node.named_descendant_for_byte_range(match.start(), match.start())
        for _ in range(MAX_DECLARATION_DEPTH):
            if node is None or node.type in ("declaration", "expression_statement", "compound_statement"):
                break
            node = node.parent
        if node is not None and node.type == "declaration":
            declarations.setdefault(node.id, node)
    initialised = [(declaration.child_by_field_name("type"), declarator.child_by_field_name("value"))
                   for declaration in declarations.values()
                   for declarator in declaration.children_by_field_name("declarator")
                   if declarator.type == "init_declarator"]
    for type_node, value in initialised:
        if type_node is None or value is None or " ".join(node_text(type_node).split()) not in INT32_TYPES:
            continue
        text = node_text(value)
        if not _WIDE_COUNT_RE.search(text):
            continue
        if value.type == "cast_expression" or re.match(r"^static_cast\s*<", text):
            continue  # an explicit narrowing says the author knows the range
        if value.type == "conditional_expression" and all(
                branch is not None and doc.constants.int_at(branch, branch.start_byte) is not None
                for branch in (value.child_by_field_name("consequence"), value.child_by_field_name("alternative"))):
            continue  # `x.numel() ? 1 : 0` is a flag, not a count
        counts = len(re.findall(r"\.\s*(?:numel|size)\s*\(", text))
        is_numel = re.search(r"\.\s*numel\s*\(", text) is not None
        if not is_numel and (counts < 2 or "*" not in text):
            continue
        yield finding("HC113", f"{_short(value)} is a 64-bit element count stored in a 32-bit "
                      f"{node_text(type_node)}: it wraps past 2^31", path, Span.of(value),
                      "store it in int64_t (and pass int64_t to the kernel)")


# -- HC118 --------------------------------------------------------------------------------------
def _floor_grid(doc: CudaDocument, launch: Launch, path: str) -> Iterator[Finding]:
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
        yield finding("HC118", f"grid {_short(item)} of {launch.kernel} rounds down: the last "
                      f"{_short(numerator)} % {_short(divisor)} elements get no thread", path, Span.of(item),
                      f"round up: ({_short(numerator)} + {_short(divisor)} - 1) / {_short(divisor)}, and guard the "
                      "index in the kernel")



def _has_grid_stride_loop(kernel: CudaFunction) -> bool:
    # a loop stepping by the grid covers any element count whatever the grid size
    return kernel.body is not None and re.search(rb"\bfor\s*\((?:[^;]*;){2}[^{;]*gridDim", kernel.body.text) is not None


# -- HC120 --------------------------------------------------------------------------------------
@functools.cache
def _arch_guard_query() -> Query:  # compiled on first use: a Query compile is most of the import time
    return Query(CUDA, "[(preproc_if) (preproc_elif)] @guard")


def _atomics_for_arch(doc: CudaDocument, flows: list[FunctionFlow], path: str, arch: str,
                      target: int) -> Iterator[Finding]:
    if any(function.name in ATOMIC_ADDS for function in doc.functions):
        return  # the file brings its own atomicAdd overload (the classic double fallback)
    atomics = [(flow, call) for flow in flows for call in flow.calls if call.name in ATOMIC_ADDS]
    if not atomics:
        return
    guards = bounded_captures(_arch_guard_query(), doc.tree.root_node).get("guard", [])
    guarded = [(guard.start_byte, guard.end_byte) for guard in guards
               if (condition := guard.child_by_field_name("condition")) is not None
               and b"__CUDA_ARCH__" in condition.text]
    for flow, call in atomics:
        if any(start <= call.node.start_byte < end for start, end in guarded):
            continue  # the author chose per arch
        element = _atomic_operand_type(flow, call)
        needed = ATOMIC_ARCH.get(element or "")
        if needed is not None and target < needed and call.name == "atomicAdd":
            yield finding("HC120", f"atomicAdd on {element} needs sm_{needed} or later; the target is {arch}", path,
                          Span.of(call.node), f"compile for sm_{needed}+ or emulate it with an atomicCAS loop")
        elif call.name != "atomicAdd" and target < 60:
            yield finding("HC120", f"{call.name} needs sm_60 or later; the target is {arch}", path,
                          Span.of(call.node), "use atomicAdd, or compile for sm_60+")


def _atomic_operand_type(flow: FunctionFlow, call: Call) -> str | None:
    """The element type `atomicAdd(p, v)` works on, from the declared type of p's base variable."""
    args = call.node.child_by_field_name("arguments")
    if args is None or not args.named_children:
        return None
    target = _unparen(args.named_children[0])
    while True:
        if target.type == "pointer_expression" and target.child_by_field_name("argument") is not None or target.type == "subscript_expression" and target.child_by_field_name("argument") is not None:
            target = _unparen(target.child_by_field_name("argument"))
        elif target.type == "binary_expression" and target.child_by_field_name("left") is not None:
            target = _unparen(target.child_by_field_name("left"))
        elif target.type == "cast_expression":
            type_node = target.child_by_field_name("type")
            return " ".join(node_text(type_node).replace("*", " ").split()) if type_node is not None else None
        else:
            break
    if target.type != "identifier":
        return None
    declared = flow.var_types.get(flow.variable_at(target), "")
    words = [word for word in declared.replace("*", " ").split() if word not in ("const", "volatile", "__restrict__")]
    return " ".join(words) or None


# -- HC111 --------------------------------------------------------------------------------------
def _double_in_float(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    function = flow.function
    bases = {param.base_type for param in function.params}
    if function.template_type_params or not bases & FLOAT_TYPES or "double" in bases:
        return
    for number, anchor in flow.numbers:
        text = node_text(number)
        if not _DOUBLE_LITERAL_RE.match(text) or _converted_at_compile_time(anchor):
            continue
        callee = _math_callee(anchor)
        message = (f"double literal {text} makes {callee}() compute in double" if callee else
                   f"double literal {text} promotes this float arithmetic to double")
        yield finding("HC111", message, path, Span.of(number), f"write {text.rstrip('lL')}f")
    for access in flow.calls:
        name, call = access.name, access.node
        args = call.child_by_field_name("arguments")
        if name not in MATH_FUNCTIONS or args is None:
            continue
        for arg in args.named_children:
            if arg.type == "number_literal" and cexpr.parse_int_literal(node_text(arg)) is not None:
                yield finding("HC111", f"{name}() with the integer argument {node_text(arg)} is evaluated in double",
                              path, Span.of(call), f"pass a float, e.g. {node_text(arg)}.0f")
                break


def _converted_at_compile_time(parent: Node) -> bool:
    """Literals a float context converts once, at compile time: initialisers, casts, plain stores.
    `parent` is the literal's first ancestor that is not a parenthesis or a unary minus."""
    kind = parent.type
    if kind in ("init_declarator", "return_statement", "initializer_list"):
        return True
    if kind == "assignment_expression":
        operator = parent.child_by_field_name("operator")
        return operator is not None and operator.type == "="
    if kind == "cast_expression":
        type_node = parent.child_by_field_name("type")
        return type_node is not None and "double" not in node_text(type_node)
    if kind == "argument_list":
        call = parent.parent
        function = call.child_by_field_name("function") if call is not None else None
        name = node_text(function) if function is not None else ""
        # user functions and f-suffixed intrinsics take float parameters; std math would go double
        return name not in MATH_FUNCTIONS and "double" not in name
    return False


def _math_callee(parent: Node) -> str | None:
    if parent.type == "argument_list" and parent.parent is not None:
        function = parent.parent.child_by_field_name("function")
        if function is not None and node_text(function) in MATH_FUNCTIONS:
            return node_text(function)
    return None


# -- HC112 --------------------------------------------------------------------------------------
def _legacy_warp_intrinsic(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for call in flow.calls:
        # in a HIP-only branch the non-_sync intrinsics are the HIP API
        if call.name in LEGACY_WARP_INTRINSICS and not inactive_for_cuda(call.node):
            replacement = LEGACY_WARP_INTRINSICS[call.name]
            yield finding("HC112", f"{call.name}() was removed for sm_70 and later", path, Span.of(call.node),
                          f"use {replacement}(0xffffffff, ...) with the mask of participating lanes")


# -- HC105, HC106 (launch bounds), HC115, HC107 ----------------------------------------------------
def _launch_bounds_values(kernel: CudaFunction, path: str) -> Iterator[Finding]:
    if kernel.launch_bounds is None or kernel.launch_bounds[0] is None or kernel.launch_bounds_span is None:
        return
    bound = kernel.launch_bounds[0]
    if bound > MAX_THREADS:
        yield finding("HC105", f"__launch_bounds__({bound}) asks for more than {MAX_THREADS} threads per block",
                      path, kernel.launch_bounds_span, f"use at most {MAX_THREADS}")
    elif bound % 32:
        yield finding("HC106", f"__launch_bounds__({bound}) is not a multiple of the warp size 32", path,
                      kernel.launch_bounds_span, f"round to {max(32, bound // 32 * 32)} or {bound // 32 * 32 + 32}")


def _missing_restrict(kernel: CudaFunction, path: str) -> Iterator[Finding]:
    pointers = [param for param in kernel.params if param.pointer_depth > 0]
    if len(pointers) < 2:
        return
    for param in pointers:
        if not param.is_restrict:
            yield finding("HC115", f"pointer parameter '{param.name}' of kernel {kernel.name} is not __restrict__",
                          path, param.span, f"declare it `{param.type.replace('*', '* __restrict__', 1)} {param.name}`"
                          " if it never overlaps the other buffers")


def _static_shared(doc: CudaDocument, kernel: CudaFunction, path: str) -> Iterator[Finding]:
    total = 0
    for decl in doc.shared:
        if decl.function is None or decl.function.id != kernel.node.id or decl.size_bytes is None:
            continue
        total += decl.size_bytes
        if total > STATIC_SHARED_LIMIT:
            yield finding("HC107", f"static shared memory of kernel {kernel.name} reaches {total} bytes at "
                          f"'{decl.name}', above the 48 KB ({STATIC_SHARED_LIMIT} bytes) limit", path, decl.span,
                          "use `extern __shared__` and cudaFuncSetAttribute(kernel, "
                          "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)")
            return


def static_shared_bytes(doc: CudaDocument, kernel: CudaFunction) -> int:
    return sum(decl.size_bytes or 0 for decl in doc.shared
               if decl.function is not None and decl.function.id == kernel.node.id)


# -- HC105, HC106, HC108, HC109 (launches) -------------------------------------------------------
def _launch_config(doc: CudaDocument, launch: Launch, path: str) -> Iterator[Finding]:
    kernel = doc.function_named(launch.kernel)
    block = launch.block
    if block is not None and block.dims is not None and block.threads is not None:
        threads = block.threads
        over = [axis for axis, size, limit in zip("xyz", block.dims, MAX_DIMS, strict=True) if size > limit]
        if threads > MAX_THREADS:
            yield finding("HC105", f"launch of {launch.kernel} with {threads} threads per block, above the limit "
                          f"of {MAX_THREADS}", path, block.span, "split the work over more blocks")
        elif over:
            axis = "xyz".index(over[0])
            yield finding("HC105", f"launch of {launch.kernel} with block {_dims(block.dims)}: block.{over[0]} is "
                          f"above its limit of {MAX_DIMS[axis]}", path, block.span, "x, y <= 1024 and z <= 64")
        elif threads % 32 and threads != 1:
            yield finding("HC106", f"launch of {launch.kernel} with {threads} threads per block, not a multiple "
                          "of 32", path, block.span, f"use {max(32, (threads + 31) // 32 * 32)} threads and "
                          "guard the extra ones")
        if kernel is not None and kernel.launch_bounds and kernel.launch_bounds[0] is not None \
                and threads > kernel.launch_bounds[0] and threads <= MAX_THREADS:
            yield finding("HC109", f"launch of {launch.kernel} with {threads} threads per block exceeds its "
                          f"__launch_bounds__({kernel.launch_bounds[0]})", path, block.span,
                          f"launch at most {kernel.launch_bounds[0]} threads or raise the bound")
    smem = launch.shared_bytes
    if smem is not None and smem.value is not None:
        static = static_shared_bytes(doc, kernel) if kernel is not None else 0
        if smem.value + static > STATIC_SHARED_LIMIT and not _opted_in(doc, launch.kernel):
            yield finding("HC108", f"launch of {launch.kernel} with {smem.value + static} bytes of shared memory "
                          "(over 48 KB) without the opt-in", path, smem.span,
                          f"call cudaFuncSetAttribute({launch.kernel}, cudaFuncAttributeMaxDynamicSharedMemorySize, "
                          f"{smem.value}) before the launch")


def _opted_in(doc: CudaDocument, kernel: str) -> bool:
    for name, args in doc.api_calls:
        parts = args.named_children
        if name == "cudaFuncSetAttribute" and len(parts) >= 2 and "MaxDynamicSharedMemorySize" in node_text(parts[1]) \
                and re.search(rf"\b{re.escape(kernel)}\b", node_text(parts[0])):
            return True
    return False


def _dims(dims: tuple[int, int, int]) -> str:
    x, y, z = dims
    return str(x) if (y, z) == (1, 1) else f"({x}, {y}, {z})"


# -- HC110 --------------------------------------------------------------------------------------
_INCLUDE_RE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"]([^">\n]+\.(?:h|hpp|hh|cuh))[">]', re.MULTILINE)
_FUNCTION_MACRO_RE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)\(((?:[^\n]*\\\r?\n)*[^\n]*)", re.MULTILINE)
MAX_INCLUDE_ROOTS = 6  # directories above a file tried as include roots (`-I csrc/common`)
_check_macro_cache: dict[str, tuple[tuple[int, int], frozenset[str]]] = {}
_subdirectory_cache: dict[str, list[str]] = {}


def _check_macros(source: bytes) -> set[str]:
    """Function-like macros of `source` that read the launch error (`TV_CHECK_CUDA_ERR()` around
    cudaGetLastError)."""
    return {match.group(1).decode() for match in _FUNCTION_MACRO_RE.finditer(source)
            if LAUNCH_CHECK_RE.search(match.group(2))}


def _subdirectories(directory: str) -> list[str]:
    if directory not in _subdirectory_cache:
        try:
            _subdirectory_cache[directory] = [entry.path for entry in os.scandir(directory) if entry.is_dir()]
        except OSError:
            _subdirectory_cache[directory] = []
    return _subdirectory_cache[directory]


def _include_path(path: str, include: str) -> str | None:
    """Where `#include <include>` of `path` most likely resolves: beside it, or under a directory above
    it or one of that directory's subdirectories (the project's include roots)."""
    directory = os.path.dirname(os.path.abspath(path))
    roots = [directory]
    for _ in range(MAX_INCLUDE_ROOTS):
        if os.path.exists(os.path.join(directory, ".git")) or os.path.dirname(directory) == directory:
            break  # the repository's (or the file system's) root: include roots lie below it
        directory = os.path.dirname(directory)
        roots += [directory, *_subdirectories(directory)]
    return next((candidate for root in roots if os.path.isfile(candidate := os.path.join(root, include))), None)


def _included_check_macros(doc: CudaDocument, path: str) -> set[str]:
    macros = _check_macros(doc.source)
    for include in _INCLUDE_RE.findall(doc.source):
        header = _include_path(path, include.decode("utf-8", "replace"))
        if header is None:
            continue
        try:
            status = os.stat(header)
            key = (status.st_mtime_ns, status.st_size)
            cached = _check_macro_cache.get(header)
            if cached is None or cached[0] != key:
                if status.st_size > MAX_SIBLING_BYTES:
                    continue
                with open(header, "rb") as handle:
                    cached = _check_macro_cache[header] = (key, frozenset(_check_macros(handle.read())))
        except OSError:
            continue
        macros |= cached[1]
    return macros


def _checked_by_callers(doc: CudaDocument, launch: Launch, check: re.Pattern[bytes]) -> bool:
    """Whether the function holding `launch` is called in this file, and every call is followed by an
    error check in its caller (`Kernel_Ex<...>(...); ... return cudaGetLastError();`)."""
    at = launch.span.start_byte
    holders = [function for function in doc.functions if function.node.start_byte <= at < function.node.end_byte]
    holder = min(holders, key=lambda function: function.node.end_byte - function.node.start_byte, default=None)
    if holder is None or not holder.name:
        return False
    ranges = [(function.node.start_byte, function.node.end_byte) for function in doc.functions
              if function is not holder and not function.node.start_byte <= at < function.node.end_byte]
    call = re.compile(rb"\b" + re.escape(holder.name.encode()) + rb"\s*(?:<[^;{}()]*>)?\s*\(")
    sites = 0
    for match in call.finditer(doc.source):
        caller = next(((start, end) for start, end in ranges if start <= match.start() < end), None)
        if caller is None:
            continue  # the definition itself, or a declaration
        sites += 1
        if not (LAUNCH_CHECK_RE.search(doc.source, match.end(), caller[1])
                or check.search(doc.source, match.end(), caller[1])):
            return False
    return sites > 0


def _unchecked_launches(doc: CudaDocument, path: str) -> Iterator[Finding]:
    launches = [launch for launch in doc.launches if launch.function is not None]
    check: re.Pattern[bytes] | None = None
    for launch in launches:
        parent = launch.node.parent
        if launch.syntax != "chevron" and parent is not None and parent.type != "expression_statement":
            continue  # the API call's status is used: assigned, compared or passed to a CHECK macro
        assert launch.function is not None
        # a launch error stays recorded until cudaGetLastError reads it, so one check after the
        # last launch of a function (after a group of launches, a switch of them) covers them all
        limit = launch.function.end_byte
        if LAUNCH_CHECK_RE.search(doc.source, launch.span.end_byte, limit):
            continue
        if check is None:
            macros = _included_check_macros(doc, path)
            check = re.compile(rb"\b(?:" + b"|".join(re.escape(name.encode()) for name in sorted(macros)) + rb")\s*\(") \
                if macros else re.compile(rb"(?!)")
        if not check.search(doc.source, launch.span.end_byte, limit) and not _checked_by_callers(doc, launch, check):
            yield finding("HC110", f"launch of {launch.kernel} is not followed by an error check", path,
                          launch.name_span, "add C10_CUDA_KERNEL_LAUNCH_CHECK(); right after the launch")


# -- HC114 --------------------------------------------------------------------------------------
# single-node patterns: tree-sitter matches them in linear time whatever the nesting (`x.a().b()...`)
@functools.cache
def _tensor_query() -> Query:  # compiled on first use, by torch extensions only
    return Query(CUDA, """
(call_expression) @call
(init_declarator) @bound
(assignment_expression) @bound
""")
DTYPE, DEVICE, CONTIGUITY = "dtype", "device", "contiguity"
ALL_PROPERTIES = frozenset({DTYPE, DEVICE, CONTIGUITY})
# methods that check a property of their receiver (`x.is_cuda()` inside a TORCH_CHECK)
_CHECK_METHODS = {"scalar_type": {DTYPE}, "dtype": {DTYPE}, "is_cuda": {DEVICE}, "device": {DEVICE},
                  "get_device": {DEVICE}, "is_contiguous": {CONTIGUITY}}
# methods that return a tensor with a property (`x.contiguous()`, `x.cuda()`, `x.float()`)
_CONVERTING_METHODS = {"contiguous": {CONTIGUITY}, "expect_contiguous": {CONTIGUITY}, "cuda": {DEVICE},
                       "float": {DTYPE}, "half": {DTYPE}, "double": {DTYPE}, "bfloat16": {DTYPE}, "toType": {DTYPE},
                       # new tensors, dense, on the receiver's device and of its dtype
                       "index_select": {CONTIGUITY}, "new_empty": {CONTIGUITY}, "new_zeros": {CONTIGUITY},
                       "new_ones": {CONTIGUITY}, "new_full": {CONTIGUITY}}
_HOST_DEVICE_RE = re.compile(r"\bkCPU\b|\"cpu\"")
_RAW_POINTER_METHODS = {"data_ptr", "mutable_data_ptr", "const_data_ptr"}
_FACTORY_RE = re.compile(r"^(?:torch|at)::(?:empty|zeros|ones|full|rand|randn|randint|arange|empty_like|zeros_like"
                         r"|ones_like|full_like|rand_like|randn_like|empty_strided)$")
_TEXT_PROPERTIES = ((DEVICE, re.compile(r"is_cuda|\.device\(|get_device|kCUDA|is_cpu")),
                    (CONTIGUITY, re.compile(r"is_contiguous|\.contiguous\(")),
                    (DTYPE, re.compile(r"scalar_type|dtype|ScalarType|\bk(?:Float|Half|BFloat16|Double|Int|Long)\b")))
_LOCAL_INCLUDE_RE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
EXTENSION_SOURCES = (".cpp", ".cc", ".cxx", ".cu", ".h", ".hpp", ".cuh")
_HEADERS = (".h", ".hpp", ".cuh")
_TENSOR_TYPE_RE = re.compile(r"\bTensor\b")
MAX_SIBLINGS = 64  # files of the extension's directory looked at for checks
MAX_SIBLING_BYTES = 1 << 20
_sibling_cache: dict[str, tuple[tuple[int, int], CudaDocument | None]] = {}


def _macro_properties(macros: dict[str, str]) -> dict[str, set[str]]:
    """What each function-like macro checks about its argument (`CHECK_INPUT(x)` -> device, contiguity)."""
    resolved = {name: {prop for prop, pattern in _TEXT_PROPERTIES if pattern.search(body)}
                for name, body in macros.items()}
    changed = True
    while changed:  # macros built from other macros: CHECK_INPUT -> CHECK_CUDA + CHECK_CONTIGUOUS
        changed = False
        for name, body in macros.items():
            for other, props in resolved.items():
                if other != name and not props <= resolved[name] and re.search(rf"\b{re.escape(other)}\b", body):
                    resolved[name] |= props
                    changed = True
    return resolved


def _sibling_documents(doc: CudaDocument, path: str, called: re.Pattern[bytes] | None) -> list[CudaDocument]:
    """The extension's other sources: local `#include "..."` headers (for their macros) and the C++/CUDA
    files beside `path` that call one of its functions (`called`): the `.cpp` binding file usually
    checks the tensors before calling into the `.cu` file."""
    directory = os.path.dirname(os.path.abspath(path))
    includes = [os.path.normpath(os.path.join(directory, include.decode("utf-8", "replace")))
                for include in _LOCAL_INCLUDE_RE.findall(doc.source)]
    try:
        entries = sorted(os.listdir(directory)) if called is not None else []
    except OSError:
        entries = []
    names = [(name, True) for name in includes] + [
        (os.path.join(directory, entry), False) for entry in entries if entry.endswith(EXTENSION_SOURCES)]
    documents, seen = [], {os.path.abspath(path)}
    for name, included in names:
        if name in seen or len(seen) > MAX_SIBLINGS:
            continue
        seen.add(name)
        try:
            status = os.stat(name)
            if not os.path.isfile(name) or status.st_size > MAX_SIBLING_BYTES:
                continue
            key = (status.st_mtime_ns, status.st_size)
            cached = _sibling_cache.get(name)
            if cached is None or cached[0] != key:
                with open(name, "rb") as handle:
                    source = handle.read()
                # what matters: included headers and headers that define macros (CHECK_INPUT, for the
                # binding file), and files that call into this one; the others are not parsed
                relevant = included or (name.endswith(_HEADERS) and b"#define" in source) or (
                    called is not None and called.search(source) is not None)
                cached = _sibling_cache[name] = (key, parse_cuda(source) if relevant else None)
        except OSError:
            continue
        if cached[1] is not None:
            documents.append(cached[1])
    return documents


def _tensor_events(function: CudaFunction) -> list[tuple[int, str, Node]]:
    captures = bounded_captures(_tensor_query(), function.body) if function.body is not None else {}
    return sorted(((node.start_byte, kind, node) for kind in ("call", "bound") for node in captures.get(kind, [])),
                  key=lambda event: event[0])


def _walk_checks(function: CudaFunction, macro_properties: dict[str, set[str]], known: dict[str, set[str]],
                 calls: dict[str, list[list[set[str]]]] | None = None) -> Iterator[tuple[Node, Node, str, bool]]:
    """Follow what is checked about each tensor through `function`; yield (receiver, call, method,
    typed) for each method call `receiver.method<...>(...)`, after recording what it checks. At calls of
    the functions in `calls`, append the properties known of each argument."""
    for _, kind, node in _tensor_events(function):
        if kind == "bound":
            target = node.child_by_field_name("declarator") or node.child_by_field_name("left")
            value = node.child_by_field_name("value") or node.child_by_field_name("right")
            if target is not None and target.type == "identifier":
                known[node_text(target)] = _tensor_facts(value, known)[1] if value is not None else set()
            continue
        function_node, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        if function_node is None:
            continue
        if function_node.type == "identifier":
            name = node_text(function_node)
            if calls is not None and name in calls and args is not None:
                calls[name].append([_tensor_facts(arg, known)[1] for arg in args.named_children
                                    if arg.type != "comment"])
            props = macro_properties.get(name, set())
            for arg in args.named_children if props and args is not None else []:
                if arg.type == "identifier":
                    known.setdefault(node_text(arg), set()).update(props)
            continue
        if function_node.type != "field_expression":
            continue
        receiver, field = function_node.child_by_field_name("argument"), function_node.child_by_field_name("field")
        if field is None:
            continue
        typed = field.type == "template_method"
        method = node_text(field.child_by_field_name("name") or field) if typed else node_text(field)
        if method in _CHECK_METHODS and receiver is not None and receiver.type == "identifier":
            known.setdefault(node_text(receiver), set()).update(_CHECK_METHODS[method])
        if receiver is not None:
            yield receiver, node, method, typed


def _tensor_functions(doc: CudaDocument) -> set[str]:
    """Host functions of the file that take tensors: their callers may check them."""
    return {function.name for function in doc.functions if not function.is_gpu and function.body is not None
            and any(param.base_type.endswith("Tensor") for param in function.params)}


def _call_pattern(names: set[str]) -> re.Pattern[bytes] | None:
    if not names:
        return None
    return re.compile(rb"\b(?:" + b"|".join(re.escape(name.encode()) for name in sorted(names)) + rb")\s*\(")


def _registered_for_cuda(doc: CudaDocument, name: str) -> bool:
    """Whether `doc` registers function `name` as the CUDA implementation of a device-keyed dispatch
    (`REGISTER_DEVICE_IMPL(op_impl, CUDA, name)`): the dispatcher calls it only with tensors on the GPU."""
    return re.search(rb"\(\s*[^;()]*\bCUDA\b[^;()]*\b" + re.escape(name.encode()) + rb"\s*\)", doc.source) is not None


def _checks_by_callers(doc: CudaDocument, macro_properties: dict[str, set[str]],
                       siblings: list[CudaDocument]) -> dict[str, list[set[str]]]:
    """For each host function of `doc` that takes tensors: per parameter, the properties every call of
    it (in this file or the extension's other files) checked before the call."""
    targets = _tensor_functions(doc)
    called = _call_pattern(targets)
    if called is None:
        return {}
    calls: dict[str, list[list[set[str]]]] = {name: [] for name in targets}
    for document in [doc] + siblings:
        for function in document.functions:
            if function.is_gpu or function.body is None or not called.search(document.source, function.body.start_byte,
                                                                             function.body.end_byte):
                continue
            known = {param.name: {DEVICE} for param in function.params} if _registered_for_cuda(
                document, function.name) else {}
            for _ in _walk_checks(function, macro_properties, known, calls):
                pass
    result = {}
    for name, sites in calls.items():
        if sites:
            width = min(len(site) for site in sites)
            result[name] = [set.intersection(*(set(site[i]) for site in sites)) for i in range(width)]
    return result


def _unchecked_data_ptr(doc: CudaDocument, path: str) -> Iterator[Finding]:
    host = [function for function in doc.functions if not function.is_gpu and function.body is not None]
    if not host or (b"data_ptr" not in doc.source and b".data<" not in doc.source):
        return
    siblings = _sibling_documents(doc, path, _call_pattern(_tensor_functions(doc)))
    macros = dict(doc.function_macros)
    for sibling in siblings:
        for name, body in sibling.function_macros.items():
            macros.setdefault(name, body)
    macro_properties = _macro_properties(macros)
    by_callers = _checks_by_callers(doc, macro_properties, siblings)
    raw_pointer = re.compile(rb"\b(?:data_ptr|mutable_data_ptr|const_data_ptr)\b|\.\s*data\s*<")
    for function in host:
        if not raw_pointer.search(doc.source, function.body.start_byte, function.body.end_byte):
            continue
        if any(other.node.start_byte > function.body.start_byte and other.node.end_byte <= function.body.end_byte
               for other in doc.functions):
            continue  # C++ has no nested functions: a body holding one was misparsed and would mix their names
        known: dict[str, set[str]] = {}
        for param, props in zip(function.params, by_callers.get(function.name, []), strict=False):
            known[param.name] = set(props)
        # `data_ptr` of a TensorIterator or an accessor parameter is not a tensor's: not this rule's
        not_tensors = {param.name for param in function.params if not _TENSOR_TYPE_RE.search(param.type)}
        on_dispatched_device = _in_aten_native(function)
        for receiver, call, method, is_typed in _walk_checks(function, macro_properties, known):
            is_raw = method in _RAW_POINTER_METHODS or (method == "data" and is_typed)
            if not is_raw:
                continue
            tensor, props = _tensor_facts(receiver, known)
            if tensor in not_tensors:
                continue
            if is_typed:
                props.add(DTYPE)  # data_ptr<T>() throws unless the tensor's dtype is T
            if on_dispatched_device:
                props.add(DEVICE)
            missing = ALL_PROPERTIES - props
            if tensor is not None and missing:
                yield finding("HC114", f"{node_text(call)} before checking the {', '.join(sorted(missing))} "
                              f"of {tensor}", path, Span.of(call),
                              f"check first, e.g. TORCH_CHECK({tensor}.is_cuda() && {tensor}.is_contiguous())")


def _in_aten_native(function: CudaFunction) -> bool:
    """Whether a host function is PyTorch's own operator code (namespace at::native): the dispatcher
    reaches CUDA code there through the CUDA dispatch key, which it picks from the tensors' device,
    so their device is known (their contiguity and dtype are not)."""
    names = [label for kind, _, label in function.surroundings() if kind == "namespace_definition" and label]
    path = "::".join(reversed(names)).replace(" ", "")
    return path == "at::native" or path.startswith("at::native::")


MAX_METHOD_CHAIN = 64  # `x.a().b()...` followed this deep (bounded recursion)


def _tensor_facts(node: Node, known: dict[str, set[str]], depth: int = 0) -> tuple[str | None, set[str]]:
    """(base tensor name, properties known) of `x`, `x.contiguous()`, `torch::empty(...)`, ...; (None, all)
    for tensors made here by a factory."""
    if node.type == "identifier":
        return node_text(node), set(known.get(node_text(node), set()))
    if node.type != "call_expression" or depth > MAX_METHOD_CHAIN:
        return None, set(ALL_PROPERTIES)  # not a named tensor (e.g. an accessor call): nothing to say
    function = node.child_by_field_name("function")
    if function is None:
        return None, set(ALL_PROPERTIES)
    if _FACTORY_RE.match(node_text(function)):
        return None, set(ALL_PROPERTIES)
    if function.type != "field_expression" or function.child_by_field_name("argument") is None:
        return None, set(ALL_PROPERTIES)
    name, props = _tensor_facts(function.child_by_field_name("argument"), known, depth + 1)
    field = function.child_by_field_name("field")
    method = node_text(field.child_by_field_name("name") or field) if field is not None else ""
    props |= _CONVERTING_METHODS.get(method, set())
    arguments = node.child_by_field_name("arguments")
    if method == "cpu" or method == "to" and arguments is not None and _HOST_DEVICE_RE.search(node_text(arguments)):
        return None, set(ALL_PROPERTIES)  # a host copy, read on the host: no kernel gets its pointer
    if method == "to":
        arguments = node.child_by_field_name("arguments")
        props |= {prop for prop, pattern in _TEXT_PROPERTIES if arguments and pattern.search(node_text(arguments))}
    return name, props




# -- helpers -------------------------------------------------------------------------------------
def _unparen(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def _describe(kind: str) -> str:
    return {"if": "branch", "ternary": "conditional expression", "switch": "switch"}.get(kind, f"{kind} loop")


def _short(node: Node, limit: int = 60) -> str:
    text = " ".join(node_text(node).split())
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return text if len(text) <= limit else text[:limit - 3] + "..."


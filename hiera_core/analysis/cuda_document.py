"""The parsed view of a `.cu`/`.cuh` source that parse_cuda builds: functions, launches, shared
memory, annotations.

All positions are bytes (see findings.Span). `Constants` gives the integer and dim3 values a name
has at a byte position: literals, `#define`s, `const`/`constexpr` variables, never-reassigned locals
and `dim3` locals, so `k<<<grid, BLOCK>>>` with `#define BLOCK 256` has a block value of (256, 1, 1).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node, Tree

from hiera_core.analysis import cexpr
from hiera_core.analysis.cuda_syntax import RESTRICT_KEYWORDS, node_text, unwrap_declarator
from hiera_core.analysis.findings import Span

WARP_SIZE = 32
MAX_EVAL_DEPTH = 200  # nesting of a constant expression evaluated (deeper: unknown)

# sizes in bytes of the element types seen in shared-memory declarations and sizeof()
TYPE_SIZES = {
    "char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "int8_t": 1, "uint8_t": 1,
    "short": 2, "unsigned short": 2, "int16_t": 2, "uint16_t": 2, "half": 2, "__half": 2,
    "__nv_bfloat16": 2, "nv_bfloat16": 2, "int": 4, "unsigned": 4, "unsigned int": 4, "int32_t": 4,
    "uint32_t": 4, "float": 4, "half2": 4, "__half2": 4, "__nv_bfloat162": 4, "long": 8,
    "unsigned long": 8, "long long": 8, "unsigned long long": 8, "int64_t": 8, "uint64_t": 8,
    "size_t": 8, "double": 8, "float2": 8, "int2": 8, "uint2": 8, "float4": 16, "int4": 16,
    "uint4": 16, "double2": 16, "float3": 12, "int3": 12,
}
_COMMENT_RE = re.compile(rb"//[^\n]*|/\*.*?\*/", re.DOTALL)
_IDENTIFIER_RE = re.compile(r"\w+", re.ASCII)  # as rb"\w+" reads the bytes; latin-1 keeps offsets


@dataclass
class Param:
    name: str
    type: str  # the declared type without the name, e.g. "const float* __restrict__"
    base_type: str  # e.g. "float", "int64_t", "T", "torch::Tensor"
    pointer_depth: int
    is_const: bool  # the pointee (or value) is const
    is_restrict: bool
    is_reference: bool
    span: Span


@dataclass
class Annotation:
    """A `// hiera: KEY ARGUMENT` contract comment (`ignore[...]` suppressions are not listed)."""

    key: str
    argument: str
    span: Span  # the whole comment
    argument_span: Span  # the text after the key (empty span right after the key when absent)
    function: CudaFunction | None = None  # the kernel directly below, if any


@dataclass
class CudaFunction:
    name: str
    qualifiers: set[str]  # "__global__", "__device__", "__host__", ... (macro-expanded qualifiers too)
    node: Node  # the function_definition
    span: Span  # from `template <...>` when templated, to the closing brace
    name_span: Span
    parameter_list: Node | None  # the declarator's `(...)`; `params` reads it on first use
    body: Node | None
    template_params: list[str] = field(default_factory=list)
    template_type_params: list[str] = field(default_factory=list)  # `typename T` / `class T`
    launch_bounds: tuple[int | None, int | None] | None = None  # (max threads, min blocks)
    launch_bounds_span: Span | None = None
    qualifier_macro: str | None = None  # e.g. "KERNEL" for `#define KERNEL __global__`
    annotations: list[Annotation] = field(default_factory=list)

    @functools.cached_property
    def params(self) -> list[Param]:
        """Built on first use: after an edit the rules read those of the changed functions only."""
        return [param for child in (self.parameter_list.named_children if self.parameter_list else [])
                if child.type in ("parameter_declaration", "optional_parameter_declaration")
                and (param := _param(child)) is not None]

    @property
    def is_kernel(self) -> bool:
        return "__global__" in self.qualifiers

    def surroundings(self) -> tuple:
        """Where the definition sits: for each enclosing node, its type, whether the definition is on
        its `alternative` side (`#else`) and its condition or name (`#if X`, `namespace N`). Rules may
        read them (code under `#ifdef USE_ROCM` is not CUDA's), so they key cached findings."""
        chain, child, parent = [], self.node, self.node.parent
        while parent is not None:
            alternative = parent.child_by_field_name("alternative")
            label = parent.child_by_field_name("condition") or parent.child_by_field_name("name")
            chain.append((parent.type, alternative is not None and alternative.id == child.id,
                          node_text(label) if label is not None else None))
            child, parent = parent, parent.parent
        return tuple(chain)

    @property
    def is_gpu(self) -> bool:
        return bool(self.qualifiers & {"__global__", "__device__"})

    @property
    def is_template(self) -> bool:
        return bool(self.template_params)


@dataclass
class Value:
    """An expression of a launch: its text, span and value when the source makes it constant
    (evaluated on first use: most launch arguments are never asked for theirs)."""

    text: str
    span: Span
    node: Node
    constants: Constants = field(repr=False, compare=False)
    at: int = field(repr=False, compare=False)  # where the values of names are looked up
    is_dims: bool = field(default=False, repr=False)  # a grid or block: `dims`, no `value`

    @functools.cached_property
    def value(self) -> int | None:
        return None if self.is_dims else self.constants.int_at(self.node, self.at)

    @functools.cached_property
    def dims(self) -> tuple[int, int, int] | None:
        """For grid and block: (x, y, z)."""
        return self.constants.dims_at(self.node, self.at) if self.is_dims else None

    @property
    def threads(self) -> int | None:
        return None if self.dims is None else self.dims[0] * self.dims[1] * self.dims[2]


@dataclass
class Launch:
    kernel: str  # the launched name, without template arguments or namespace
    syntax: str  # "chevron" (k<<<...>>>) or the API function name ("cudaLaunchKernel", ...)
    node: Node  # the call_expression
    span: Span
    name_span: Span
    grid: Value | None
    block: Value | None
    shared_bytes: Value | None
    stream: Value | None
    argument_list: Node | None  # a chevron launch's `(...)`; an API launch passes a void** array
    function: Node | None  # the enclosing function_definition
    constants: Constants = field(repr=False, compare=False)

    @functools.cached_property
    def args(self) -> list[Value]:
        """The kernel arguments (none for an API launch), built on first use."""
        return [node_value(arg, self.constants, self.span.start_byte) for arg in (
            self.argument_list.named_children if self.argument_list is not None else []) if arg.type != "comment"]


@dataclass
class SharedDecl:
    name: str
    element_type: str
    is_extern: bool  # dynamic shared memory, sized at launch
    size_bytes: int | None  # None when extern or not computable (e.g. template-dependent)
    span: Span
    function: Node | None  # the enclosing function_definition; None at file scope
    is_array: bool = True  # False for a scalar (`__shared__ float mean;`)


@dataclass
class CudaDocument:
    source: bytes
    tree: Tree
    functions: list[CudaFunction]
    launches: list[Launch]
    shared: list[SharedDecl]
    annotations: list[Annotation]
    hidden_kernels: list[tuple[Span, str]]  # (where, why) for kernels the parser could not see
    api_calls: list[tuple[str, Node]]  # cudaFuncSetAttribute and friends: (name, argument_list)
    function_macros: dict[str, str]  # `#define CHECK_CUDA(x) ...`: name -> body
    is_torch_extension: bool
    constants: Constants

    @functools.cached_property
    def code_text(self) -> bytes:
        """The source with comments blanked out (same length), for text searches that must not match prose."""
        return _COMMENT_RE.sub(lambda match: re.sub(rb"[^\n]", b" ", match.group()), self.source)

    @functools.cached_property
    def file_context(self) -> tuple:
        """What the rules about one function read from the rest of the file: macros, file-scope
        constants and shared memory, function-like macros, whether it is a torch extension. Part of
        the key under which cuda_rules.check_cuda keeps a function's findings between edits."""
        shared = tuple((decl.name, decl.element_type, decl.is_extern, decl.size_bytes, decl.is_array)
                       for decl in self.shared if decl.function is None)
        return (self.constants.file_facts(), shared, tuple(sorted(self.function_macros.items())),
                self.is_torch_extension)

    @property
    def kernels(self) -> list[CudaFunction]:
        return [function for function in self.functions if function.is_kernel]

    @property
    def has_errors(self) -> bool:
        return self.tree.root_node.has_error

    def function_named(self, name: str) -> CudaFunction | None:
        """The first `__global__` function called `name`, or else the first function of that name."""
        matches = self.functions_named(name)
        return next((function for function in matches if function.is_kernel), matches[0] if matches else None)

    def functions_named(self, name: str) -> list[CudaFunction]:
        """Every declaration and definition of that name (overloads, specialisations), in file order."""
        return self._functions_by_name.get(name, [])

    def launches_of(self, kernel: str) -> list[Launch]:
        return self._launches_by_kernel.get(kernel, [])

    def shared_in(self, function: Node | None) -> list[SharedDecl]:
        """The shared-memory declarations inside a function definition (None: at file scope), in file order."""
        return self._shared_by_scope.get(None if function is None else function.id, [])

    def uses_of(self, name: str) -> list[int]:
        """Where the code (comments left out) names a function: the start of each whole-word match."""
        uses = self._function_name_uses.get(name)
        if uses is None:  # not a plain identifier (an operator, a qualified name): searched alone
            uses = [match.start() for match in re.finditer(rb"\b" + re.escape(name.encode()) + rb"\b", self.code_text)]
        return uses

    def code_matches(self, pattern: bytes) -> bool:
        """Whether the code (comments left out) matches `pattern` anywhere."""
        return self.answer(("code matches", pattern), lambda: re.search(pattern, self.code_text) is not None)

    def answer(self, question: Hashable, compute: Callable[[], Any]) -> Any:
        """A file-level question's answer, computed once per document: rules ask the same of many
        functions and launches (a file that defines a name many times asks it of each), and an
        answer reads the whole file."""
        if question not in self._answers:
            self._answers[question] = compute()
        return self._answers[question]

    # One pass over the file each, so that rules asking per function or launch stay linear in its size.
    @functools.cached_property
    def _functions_by_name(self) -> dict[str, list[CudaFunction]]:
        return _grouped(self.functions, lambda function: function.name)

    @functools.cached_property
    def _launches_by_kernel(self) -> dict[str, list[Launch]]:
        return _grouped(self.launches, lambda launch: launch.kernel)

    @functools.cached_property
    def _shared_by_scope(self) -> dict[int | None, list[SharedDecl]]:
        return _grouped(self.shared, lambda decl: None if decl.function is None else decl.function.id)

    @functools.cached_property
    def _function_name_uses(self) -> dict[str, list[int]]:
        uses: dict[str, list[int]] = {name: [] for name in self._functions_by_name if _IDENTIFIER_RE.fullmatch(name)}
        for match in _IDENTIFIER_RE.finditer(self.code_text.decode("latin-1")):
            found = uses.get(match.group())
            if found is not None:
                found.append(match.start())
        return uses

    @functools.cached_property
    def _answers(self) -> dict:
        return {}

    def function_at(self, byte: int) -> CudaFunction | None:
        """The innermost function whose definition contains `byte` (for hovers)."""
        inside = [f for f in self.functions if f.span.start_byte <= byte < f.span.end_byte]
        return min(inside, key=lambda f: f.span.end_byte - f.span.start_byte, default=None)


def _grouped(items: list, key: Callable[[Any], Hashable]) -> dict:
    """`items` by `key`, each group in the items' order."""
    groups: dict = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def _param(node: Node) -> Param | None:
    type_node = node.child_by_field_name("type")
    name, depth, restrict, reference, sizes = unwrap_declarator(node.child_by_field_name("declarator"))
    if name is None or type_node is None:
        return None
    qualifiers = [node_text(child) for child in node.children if child.type == "type_qualifier"]
    declared = node_text(node)
    name_offset = name.start_byte - node.start_byte
    type_text = (declared[:name_offset] + declared[name_offset + len(node_text(name)):]).strip()
    return Param(node_text(name), " ".join(type_text.split()), node_text(type_node), depth + len(sizes),
                 "const" in qualifiers, restrict or any(q in RESTRICT_KEYWORDS for q in qualifiers),
                 reference, Span.of(node))


def enclosing_start(functions: list[tuple[int, int]], byte: int) -> int | None:
    """Start byte of the innermost function range (sorted (start, end) pairs) containing `byte`."""
    index = bisect.bisect_right(functions, (byte, float("inf"))) - 1
    while index >= 0:
        start, end = functions[index]
        if start <= byte < end:
            return start
        index -= 1
    return None


class Constants:
    """Integer and dim3 values of names, as visible at a byte position of the file."""

    def __init__(self, macros: dict[str, str], file_values: dict[str, Node],
                 local_values: dict[int, list[tuple[int, str, Node]]], reassigned: dict[int, set[str]],
                 functions: list[tuple[int, int]]):
        self._macros = macros
        self._macro_cache: dict[str, int | None] = {}
        self._file_values = file_values
        self._local_values = local_values  # function start byte -> [(position, name, value node)]
        self._reassigned = reassigned  # function start byte -> non-const names assigned somewhere
        self._functions = functions  # sorted (start, end) of function definitions

    def file_facts(self) -> tuple:
        """The file-level inputs of every value: macros and file-scope constants (name, initialiser text)."""
        return (tuple(sorted(self._macros.items())),
                tuple(sorted((name, node_text(value)) for name, value in self._file_values.items())))

    def dims_at(self, node: Node, at: int) -> tuple[int, int, int] | None:
        return self._dims(node, at, set())

    def int_at(self, node: Node, at: int) -> int | None:
        return self._int(node, at, set())

    def value_node(self, name: str, at: int) -> Node | None:
        """The initialiser of a never-reassigned local, or of a file-scope constant, seen from `at`."""
        return self._local(name, at) or self._file_values.get(name)

    def _local(self, name: str, at: int) -> Node | None:
        function = enclosing_start(self._functions, at)
        if function is None or name in self._reassigned.get(function, ()):
            return None
        found = None
        for position, local, value in self._local_values.get(function, ()):
            if position >= at:
                break
            if local == name:
                found = value
        return found

    def _value(self, name: str, at: int, seen: set[str]) -> int | None:
        if name in seen:
            return None
        seen = seen | {name}
        node = self._local(name, at) or self._file_values.get(name)
        if node is not None:
            return self._int(node, node.start_byte, seen)
        if name in self._macros:
            if name not in self._macro_cache:
                try:
                    expression = cexpr.parse(self._macros[name])
                except cexpr.CExprError:
                    self._macro_cache[name] = None
                else:
                    self._macro_cache[name] = expression.evaluate(lambda other: self._value(other, at, seen))
            return self._macro_cache[name]
        return None

    def _int(self, node: Node, at: int, seen: set[str], depth: int = 0) -> int | None:
        # constant expressions nested deeper than MAX_EVAL_DEPTH are taken as unknown: bounded work
        if depth > MAX_EVAL_DEPTH:
            return None
        depth += 1
        kind = node.type
        if kind == "number_literal":
            return cexpr.parse_int_literal(node_text(node))
        if kind == "identifier":
            return self._value(node_text(node), at, seen)
        if kind in ("parenthesized_expression", "cast_expression"):
            inner = node.child_by_field_name("value") if kind == "cast_expression" else (
                node.named_children[0] if node.named_children else None)
            return None if inner is None else self._int(inner, at, seen, depth)
        if kind == "unary_expression":
            operand = node.child_by_field_name("argument")
            value = None if operand is None else self._int(operand, at, seen, depth)
            operator = node.child_by_field_name("operator")
            return None if value is None or operator is None else cexpr.unary(operator.type, value)
        if kind == "binary_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            operator = node.child_by_field_name("operator")
            if left is None or right is None or operator is None:
                return None
            a, b = self._int(left, at, seen, depth), self._int(right, at, seen, depth)
            return None if a is None or b is None else cexpr.binary(operator.type, a, b)
        if kind == "conditional_expression":
            test = node.child_by_field_name("condition")
            value = None if test is None else self._int(test, at, seen, depth)
            branch = node.child_by_field_name("consequence" if value else "alternative")
            return None if value is None or branch is None else self._int(branch, at, seen, depth)
        if kind == "sizeof_expression":
            type_node = node.child_by_field_name("type")
            return None if type_node is None else TYPE_SIZES.get(" ".join(node_text(type_node).split()))
        if kind == "call_expression":
            function, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
            name = node_text(function).removeprefix("std::") if function is not None else ""
            values = [self._int(arg, at, seen, depth) for arg in (args.named_children if args else [])]
            if name in ("min", "max") and len(values) == 2 and None not in values:
                return min(values) if name == "min" else max(values)
        return None

    def _dims(self, node: Node, at: int, seen: set[str]) -> tuple[int, int, int] | None:
        kind = node.type
        items: list[Node] | None = None
        if kind == "call_expression":
            function = node.child_by_field_name("function")
            if function is not None and node_text(function) == "dim3":
                args = node.child_by_field_name("arguments")
                items = args.named_children if args is not None else []
        elif kind in ("initializer_list", "argument_list"):
            items = node.named_children
        elif kind == "compound_literal_expression":
            value = node.child_by_field_name("value")
            items = value.named_children if value is not None else []
        elif kind == "identifier" and node_text(node) not in seen:
            local = self._local(node_text(node), at) or self._file_values.get(node_text(node))
            if local is not None and local.type in ("call_expression", "initializer_list", "argument_list",
                                                    "compound_literal_expression"):
                return self._dims(local, local.start_byte, seen | {node_text(node)})
        elif kind == "parenthesized_expression" and node.named_children:
            while node.type == "parenthesized_expression" and node.named_children:
                node = node.named_children[0]
            return self._dims(node, at, seen)
        if items is not None:
            values = [self._int(item, at, seen) for item in items if item.type != "comment"]
            if not 1 <= len(values) <= 3 or None in values:
                return None
            return tuple(values + [1] * (3 - len(values)))  # type: ignore[return-value]
        value = self._int(node, at, seen)
        return None if value is None else (value, 1, 1)


def node_value(node: Node | None, constants: Constants, at: int, dims: bool = False) -> Value | None:
    if node is None:
        return None
    return Value(node_text(node), Span.of(node), node, constants, at, dims)

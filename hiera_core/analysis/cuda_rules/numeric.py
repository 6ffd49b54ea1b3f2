"""The rules about numeric types: HC111 (double literals and math in float kernels) and HC120
(atomics the target architecture lacks)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from tree_sitter import Node, Query

from hiera_core.analysis import cexpr
from hiera_core.analysis.cuda_document import CudaDocument
from hiera_core.analysis.cuda_flow import FunctionFlow
from hiera_core.analysis.cuda_regions import Call
from hiera_core.analysis.cuda_rules.common import unparen
from hiera_core.analysis.cuda_syntax import CUDA, bounded_captures, node_text
from hiera_core.analysis.findings import Finding, Span
from hiera_core.analysis.rules import finding

MATH_FUNCTIONS = {
    "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "pow", "sqrt", "rsqrt", "cbrt",
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "erf", "erfc", "erfinv", "lgamma", "tgamma", "fabs", "floor", "ceil", "round", "trunc",
    "fmod", "fmax", "fmin", "fma", "hypot", "copysign", "ldexp", "rint", "nearbyint",
}
FLOAT_TYPES = {"float", "float2", "float4", "half", "__half", "half2", "__half2", "__nv_bfloat16"}
_DOUBLE_LITERAL_RE = re.compile(r"^(?:(?:\d[\d']*\.[\d']*|\.\d[\d']*)(?:[eE][+-]?\d+)?|\d[\d']*[eE][+-]?\d+"
                                r"|0[xX][0-9a-fA-F.']*[pP][+-]?\d+)[lL]?$")
# the first arch each atomicAdd operand type is available on (CUDA C++ Programming Guide, atomicAdd)
ATOMIC_ARCH = {"double": 60, "__half2": 60, "half2": 60, "__half": 70, "half": 70, "__nv_bfloat16": 80,
               "nv_bfloat16": 80, "__nv_bfloat162": 80, "nv_bfloat162": 80, "float2": 90, "float4": 90}
ATOMIC_ADDS = {"atomicAdd", "atomicAdd_block", "atomicAdd_system"}


# -- HC120 --------------------------------------------------------------------------------------
@functools.cache
def _arch_guard_query() -> Query:  # compiled on first use: a Query compile is most of the import time
    return Query(CUDA, "[(preproc_if) (preproc_elif)] @guard")


def atomics_for_arch(doc: CudaDocument, flows: list[FunctionFlow], path: str, arch: str,
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
    target = unparen(args.named_children[0])
    while True:
        if target.type == "pointer_expression" and target.child_by_field_name("argument") is not None or target.type == "subscript_expression" and target.child_by_field_name("argument") is not None:
            target = unparen(target.child_by_field_name("argument"))
        elif target.type == "binary_expression" and target.child_by_field_name("left") is not None:
            target = unparen(target.child_by_field_name("left"))
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
def double_in_float(flow: FunctionFlow, path: str) -> Iterator[Finding]:
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

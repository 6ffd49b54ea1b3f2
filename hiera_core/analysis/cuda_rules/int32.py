"""HC113: 32-bit arithmetic on a count that can exceed 2^31 (products of extents, numel() in an int)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from tree_sitter import Node

from hiera_core.analysis.cuda_document import CudaDocument
from hiera_core.analysis.cuda_flow import FunctionFlow
from hiera_core.analysis.cuda_regions import display
from hiera_core.analysis.cuda_rules.common import comparisons, operator_text, short, unparen
from hiera_core.analysis.cuda_syntax import node_text
from hiera_core.analysis.findings import Finding, Span
from hiera_core.analysis.rules import finding

INT32_TYPES = {"int", "unsigned", "unsigned int", "int32_t", "uint32_t", "signed", "signed int"}
WIDE_TYPES = {"int64_t", "uint64_t", "long", "long long", "unsigned long", "unsigned long long", "size_t",
              "ptrdiff_t", "index_t", "long int"}
_BUILTIN_RE = re.compile(r"^(threadIdx|blockIdx|blockDim|gridDim)\s*\.\s*[xyz]$")


# -- HC113 --------------------------------------------------------------------------------------
def _product_factors(node: Node) -> list[Node]:
    """The factors of a chain of `*` (through parentheses), left to right."""
    factors, todo = [], [node]
    while todo:
        current = unparen(todo.pop())
        operator = current.child_by_field_name("operator") if current.type == "binary_expression" else None
        if operator is not None and operator.type == "*":
            todo += [current.child_by_field_name("right"), current.child_by_field_name("left")]
        else:
            factors.append(current)
    return factors


def _is_narrow(flow: FunctionFlow, node: Node) -> bool:
    """A non-constant 32-bit integer operand: an int variable, a built-in index, a sum of them."""
    node = unparen(node)
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
    node = unparen(node)
    if node.type != "identifier":
        return False
    declared = " ".join(word for word in flow.var_types.get(flow.variable_at(node), "").split()
                        if word not in ("const", "constexpr", "volatile"))
    return declared in WIDE_TYPES


def _is_constant(flow: FunctionFlow, node: Node) -> bool:
    return flow.doc.constants.int_at(node, node.start_byte) is not None


def int32_products(flow: FunctionFlow, path: str) -> Iterator[Finding]:
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
                yield finding("HC113", f"{short(product)} in {what} multiplies {len(narrow)} 32-bit extents: "
                              "it overflows past 2^31", path, Span.of(product),
                              f"widen the first factor: (int64_t){node_text(factors[0])} * ...")
            elif wide and len(variables) >= 2 and what.startswith("'"):
                reported.add(product.start_byte)
                yield finding("HC113", f"{short(product)}, a product of 64-bit extents, is stored in the 32-bit "
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
        value = unparen(values[0]) if len(values) == 1 else None
        if value is None or value.type != "binary_expression" or operator_text(value) != "/":
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
            for left, _, bound in comparisons(condition):
                guarded = _guarded_factors(flow, left)
                if guarded and guarded <= Counter(texts):
                    extents = len(texts) - guarded.total() + (not _is_constant(flow, bound))
                    if extents < 3:
                        return True
        node = parent
    return False


def _guarded_factors(flow: FunctionFlow, node: Node) -> Counter[str]:
    """The factors of the product a compared value adds (`h` with `h = h_in + j * d`: j and d)."""
    node = unparen(node)
    if node.type == "identifier":
        values = flow.values_of(flow.variable_at(node))
        if len(values) != 1:
            return Counter()
        node = unparen(values[0])
    summands, todo = [], [node]
    while todo:
        current = unparen(todo.pop())
        if current.type == "binary_expression" and operator_text(current) in ("+", "-"):
            todo += [current.child_by_field_name("left"), current.child_by_field_name("right")]
        elif current.type == "binary_expression" and operator_text(current) == "*":
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


def narrow_counts(doc: CudaDocument, path: str) -> Iterator[Finding]:
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
        yield finding("HC113", f"{short(value)} is a 64-bit element count stored in a 32-bit "
                      f"{node_text(type_node)}: it wraps past 2^31", path, Span.of(value),
                      "store it in int64_t (and pass int64_t to the kernel)")

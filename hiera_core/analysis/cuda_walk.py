"""The walk over a GPU function's body that builds the facts FunctionFlow reasons over.

One iterative walk per function body (no recursion, no `Node.parent`, which tree-sitter computes
by descending from the root), so the cost is linear in the size of the function whatever its
nesting. The walk resolves every identifier to its declaration with C++ scoping (blocks, `for`
headers, lambdas, parameters), records the calls, subscripts and declarations with the control
chain in force where they run, and the early exits that guard the rest of their scope.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from hiera_core.analysis.cuda_document import WARP_SIZE, CudaDocument, CudaFunction
from hiera_core.analysis.cuda_regions import THREAD, THREAD_YZ, Call, Declaration, Region, Subscript
from hiera_core.analysis.cuda_syntax import node_text, unwrap_declarator

_BLOCKS = frozenset(("compound_statement", "case_statement"))
_WRAPPERS = frozenset(("parenthesized_expression", "unary_expression"))


@dataclass
class _Context:
    """A statement sequence (block, case) whose later statements see the early exits before them."""

    node: Node
    control: Region | None
    outer: _Context | None
    exits: list[Region] = field(default_factory=list)


class FlowWalk:
    """What one walk of a GPU function's body records; FunctionFlow derives the dataflow from it."""

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


INHERIT = object()  # a frame's control: the block context's, read when the frame is walked
_SKIPPED = frozenset(("comment", "string_literal", "raw_string_literal", "char_literal", "primitive_type",
                      "type_identifier", "field_identifier", "template_argument_list", "sized_type_specifier",
                      "type_descriptor", "namespace_identifier", "statement_identifier"))


def _first(pair: tuple[int, str]) -> int:
    return pair[0]


def _field_expression(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
    argument = node.child_by_field_name("argument")
    if argument is not None and argument.type == "identifier" and node_text(argument) == THREAD:
        axis = node.child_by_field_name("field")
        flow.idents.append((argument.start_byte, THREAD_YZ if axis is not None and node_text(axis) in ("y", "z")
                            else THREAD))
        if state[3]:
            flow._lane_blind.append((argument.start_byte, argument.end_byte))
        return
    flow._push(stack, [argument], state)


def _if(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
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


def _loop(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
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


def _switch(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
    control, jumps = state[1], state[2]
    condition = node.child_by_field_name("condition")
    inner = control
    if condition is not None:
        inner = Region("switch", condition, condition.end_byte, node.end_byte, control)
    flow._push(stack, [node.child_by_field_name("body")], state, inner, (jumps[0], jumps[1], None, None) + jumps[4:])
    flow._push(stack, [condition], state)


def _ternary(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
    condition = node.child_by_field_name("condition")
    inner = state[1]
    if condition is not None:
        inner = Region("ternary", condition, condition.end_byte, node.end_byte, inner)
    flow._push(stack, [child for child in node.named_children if child != condition], state, inner)
    flow._push(stack, [condition], state)


def _short_circuit(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
    """`a && b`, `a || b`: b runs only when a allows it, so a controls b (`i < n && x[i] > 0` is guarded)."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        flow._push(stack, node.named_children, state)
        return
    inner = Region("operand", left, left.end_byte, node.end_byte, state[1])
    flow._push(stack, [right], state, inner)
    flow._push(stack, [left], state)


def _exit(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
    jumps = state[2]
    guard, scope_end = {"return_statement": (jumps[0], jumps[1]), "break_statement": (jumps[2], jumps[3]),
                        "continue_statement": (jumps[4], jumps[5])}[node.type]
    if guard is not None and scope_end is not None:
        flow._pending_exits.setdefault(guard.id, []).append((scope_end, node.type))
    flow._push(stack, node.named_children, state)


def _lambda(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
    body = node.child_by_field_name("body")
    if body is None:
        return
    flow._open_scope()
    stack.append((None, flow._close_scope, ()))
    flow._push(stack, [body], state, jumps=(None, body.end_byte, None, None, None, None))
    flow._push(stack, [node.child_by_field_name("declarator")], state)


def _call(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
    function = node.child_by_field_name("function")
    if function is not None:
        flow.calls.append(Call(node, state[1], " ".join(node_text(function).split())))
    flow._push(stack, node.named_children, state)


def _subscript(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
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


def _address(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
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


def _assignment(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
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


def _update(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
    argument = node.child_by_field_name("argument")
    if argument is not None:
        element = _element(argument)
        flow._writes[element.id] = node.end_byte
        flow._updates.add(element.id)
        if element.type == "identifier":
            flow.assigned.add(flow._resolve(node_text(element)))
    flow._push(stack, node.named_children, state)


def _asm(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
    flow.calls.append(Call(node, state[1], "asm"))  # inline PTX: may be a barrier, a store, anything


def _declaration(flow: FlowWalk, node: Node, state: tuple, stack: list) -> None:
    flow._declare(node, state, stack)


_HANDLERS = {
    "if_statement": _if, "for_statement": _loop, "while_statement": _loop, "do_statement": _loop,
    "for_range_loop": _loop, "switch_statement": _switch, "conditional_expression": _ternary,
    "return_statement": _exit, "break_statement": _exit, "continue_statement": _exit, "lambda_expression": _lambda,
    "call_expression": _call, "subscript_expression": _subscript, "assignment_expression": _assignment,
    "update_expression": _update, "field_expression": _field_expression, "declaration": _declaration,
    "parameter_declaration": _declaration, "pointer_expression": _address, "gnu_asm_expression": _asm,
}

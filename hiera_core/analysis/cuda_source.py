"""A tree-sitter-cuda view of one `.cu`/`.cuh` source: functions, launches, shared memory, annotations.

`parse_cuda(text)` never raises on bad input: tree-sitter is error tolerant, so a file with parse
errors (macros it cannot expand, `__align__`, truncated code) still yields everything outside the
broken regions. Kernels the parser could not see are listed in `CudaDocument.hidden_kernels`. The
document's classes are in cuda_document.
"""

from __future__ import annotations

import re
import threading

from tree_sitter import Node, Parser, Query, Tree

from hiera_core.analysis.cuda_document import (
    TYPE_SIZES,
    Annotation,
    Constants,
    CudaDocument,
    CudaFunction,
    Launch,
    SharedDecl,
    enclosing_start,
    node_value,
)
from hiera_core.analysis.cuda_syntax import CUDA, bounded_captures, function_name_node, node_text, unwrap_declarator
from hiera_core.analysis.findings import Span, utf8_safe
from hiera_core.task.directives import is_suppression

_local = threading.local()  # a Parser is not safe to share between threads


def _parser() -> Parser:
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = Parser(CUDA)
    return parser


_QUERY = Query(CUDA, r"""
(function_definition) @function
(call_expression function: (_) @launch.name (kernel_call_syntax) @launch.config
  arguments: (argument_list) @launch.args) @launch
((call_expression function: (identifier) @api.name arguments: (argument_list) @api.args) @api
  (#match? @api.name "^cuda(LaunchKernel|LaunchCooperativeKernel|FuncSetAttribute)$"))
(declaration (type_qualifier "__shared__")) @shared
((comment) @annotation (#match? @annotation "^//\\s*hiera:"))
(preproc_def name: (identifier) @macro.name value: (preproc_arg))
(preproc_function_def name: (identifier) @fmacro.name value: (preproc_arg))
(init_declarator declarator: (identifier) @init.name value: (_) @init.value) @init
(assignment_expression left: (identifier) @assigned)
(update_expression argument: (identifier) @assigned)
(ERROR) @error
""")

QUALIFIER_TOKENS = {"__global__", "__device__", "__host__", "__forceinline__", "__noinline__"}
_TORCH_EXTENSION_RE = re.compile(rb"#\s*include\s*[<\"](?:torch/|ATen/|c10/)|\b(?:torch|at)::Tensor\b")
_ANNOTATION_RE = re.compile(r"^//\s*hiera:\s*(?P<body>.*?)\s*$")


def parse_cuda(text: str | bytes, old_tree: Tree | None = None) -> CudaDocument:
    """Parse CUDA/C++ source. Pass the previous tree, already `tree.edit()`-ed, to reparse incrementally."""
    source = utf8_safe(text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text))
    tree = _parser().parse(source, old_tree) if old_tree is not None else _parser().parse(source)
    captures = bounded_captures(_QUERY, tree.root_node)

    def captured(name: str) -> list[Node]:
        return sorted(captures.get(name, []), key=lambda node: node.start_byte)

    macros = _macros(captured("macro.name"))
    function_nodes = captured("function")
    constants = _constants(macros, captured("init"), captured("assigned"),
                           sorted((f.start_byte, f.end_byte) for f in function_nodes))
    functions = [function for node in function_nodes
                 if (function := _function(node, macros, constants)) is not None]
    launches = [launch for node in captured("launch") if (launch := _chevron_launch(node, constants)) is not None]
    api_calls = []
    for node in captured("api"):
        name_node, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        if name_node is None or args is None:
            continue
        api_calls.append((node_text(name_node), args))
        if node_text(name_node) != "cudaFuncSetAttribute" and (launch := _api_launch(node, args, constants)):
            launches.append(launch)
    launches.sort(key=lambda launch: launch.span.start_byte)
    shared = [decl for node in captured("shared") for decl in _shared_decls(node, constants)]
    annotations = _annotations(source, captured("annotation"), functions)
    hidden = _hidden_kernels(captured("error"), captured("macro.name") + captured("fmacro.name"), functions)
    function_macros = {node_text(name): _macro_body(name) for name in captured("fmacro.name")}
    return CudaDocument(source, tree, functions, launches, shared, annotations, hidden, api_calls,
                        function_macros, bool(_TORCH_EXTENSION_RE.search(source)), constants)


def _macro_body(name: Node) -> str:
    value = name.parent.child_by_field_name("value") if name.parent is not None else None
    return node_text(value).strip() if value is not None else ""


def _macros(names: list[Node]) -> dict[str, str]:
    """Object-like macros: name -> body ("" when defined twice with different bodies)."""
    macros: dict[str, str] = {}
    conflicting: set[str] = set()
    for name in names:
        key, body = node_text(name), _macro_body(name)
        if key in macros and macros[key] != body:
            conflicting.add(key)  # e.g. #ifdef / #else variants: the value is not known
        macros.setdefault(key, body)
    for key in conflicting:
        macros[key] = ""
    return macros


def _constants(macros: dict[str, str], inits: list[Node], assigned: list[Node],
               functions: list[tuple[int, int]]) -> Constants:
    file_values: dict[str, Node] = {}
    local_values: dict[int, list[tuple[int, str, Node]]] = {}
    reassigned: dict[int, set[str]] = {}
    const_locals: dict[int, set[str]] = {}
    for init in inits:
        name, value = init.child_by_field_name("declarator"), init.child_by_field_name("value")
        declaration = init.parent
        if name is None or value is None or declaration is None:
            continue
        is_const = any(child.type == "type_qualifier" and node_text(child) in ("const", "constexpr")
                       for child in declaration.children)
        function = enclosing_start(functions, init.start_byte)
        if function is None:
            if is_const:
                file_values.setdefault(node_text(name), value)
        else:
            local_values.setdefault(function, []).append((init.end_byte, node_text(name), value))
            if is_const:
                const_locals.setdefault(function, set()).add(node_text(name))
    for node in assigned:
        function = enclosing_start(functions, node.start_byte)
        if function is not None:
            reassigned.setdefault(function, set()).add(node_text(node))
    for function, names in reassigned.items():
        names -= const_locals.get(function, set())
    return Constants(macros, file_values, local_values, reassigned, functions)


def _function(node: Node, macros: dict[str, str], constants: Constants) -> CudaFunction | None:
    declarator = node.child_by_field_name("declarator")
    name = function_name_node(declarator)
    if name is None:
        return None
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    qualifiers = {child.type for child in node.children if child.type in QUALIFIER_TOKENS}
    qualifier_macro = None
    type_node = node.child_by_field_name("type")
    # `#define KERNEL __global__` makes `KERNEL void f(...)` parse with KERNEL as the return type
    for candidate in [type_node] + [child for child in node.children if child.type == "ERROR"]:
        if candidate is not None and node_text(candidate) in macros:
            expanded = set(macros[node_text(candidate)].split()) & QUALIFIER_TOKENS
            if expanded:
                qualifiers |= expanded
                qualifier_macro = node_text(candidate)
    params_node = declarator.child_by_field_name("parameters") if declarator is not None else None
    outer = node.parent if node.parent is not None and node.parent.type == "template_declaration" else node
    template_params, type_params = [], []
    if outer is not node:
        parameter_list = outer.child_by_field_name("parameters")
        for child in parameter_list.named_children if parameter_list else []:
            if child.type in ("type_parameter_declaration", "variadic_type_parameter_declaration",
                              "optional_type_parameter_declaration"):
                ident = next((c for c in child.named_children if c.type == "type_identifier"), None)
                if ident is not None:
                    type_params.append(node_text(ident))
                    template_params.append(node_text(ident))
            else:
                ident, *_ = unwrap_declarator(child.child_by_field_name("declarator"))
                if ident is not None:
                    template_params.append(node_text(ident))
    bounds = next((child for child in node.children if child.type == "launch_bounds"), None)
    launch_bounds = None
    if bounds is not None:
        values = [constants.int_at(child, node.start_byte) for child in bounds.named_children
                  if child.type != "comment"]
        launch_bounds = (values[0] if values else None, values[1] if len(values) > 1 else None)
    return CudaFunction(node_text(name), qualifiers, node, Span.between(outer, node), Span.of(name), params_node,
                        node.child_by_field_name("body"), template_params, type_params, launch_bounds,
                        Span.of(bounds) if bounds is not None else None, qualifier_macro)


def _launched_name(function: Node) -> Node | None:
    while function is not None and function.type in ("template_function", "qualified_identifier"):
        function = function.child_by_field_name("name")
    return function if function is not None and function.type == "identifier" else None


def _chevron_launch(node: Node, constants: Constants) -> Launch | None:
    name = _launched_name(node.child_by_field_name("function"))
    config = next((child for child in node.children if child.type == "kernel_call_syntax"), None)
    args = node.child_by_field_name("arguments")
    if name is None or config is None:
        return None
    at = node.start_byte
    parts = [child for child in config.named_children if child.type != "comment"] + [None] * 4
    return Launch(node_text(name), "chevron", node, Span.of(node), Span.of(name),
                  node_value(parts[0], constants, at, dims=True), node_value(parts[1], constants, at, dims=True),
                  node_value(parts[2], constants, at), node_value(parts[3], constants, at),
                  args, _enclosing_function(node), constants)


def _api_launch(node: Node, args: Node, constants: Constants) -> Launch | None:
    """`cudaLaunchKernel((void*)k, grid, block, args, smem, stream)`: kernel name and configuration."""
    parts = [child for child in args.named_children if child.type != "comment"]
    if len(parts) < 3:
        return None
    target = parts[0]
    while target.type in ("cast_expression", "pointer_expression", "parenthesized_expression"):
        inner = target.child_by_field_name("value") or target.child_by_field_name("argument") or (
            target.named_children[-1] if target.named_children else None)
        if inner is None:
            break
        target = inner
    name = _launched_name(target)
    if name is None:
        return None
    at = node.start_byte
    parts += [None] * 3
    function = node.child_by_field_name("function")
    return Launch(node_text(name), node_text(function) if function else "cudaLaunchKernel", node, Span.of(node),
                  Span.of(name), node_value(parts[1], constants, at, dims=True),
                  node_value(parts[2], constants, at, dims=True), node_value(parts[4], constants, at),
                  node_value(parts[5], constants, at), None, _enclosing_function(node), constants)


def _enclosing_function(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type != "function_definition":
        parent = parent.parent
    return parent


def _shared_decls(node: Node, constants: Constants) -> list[SharedDecl]:
    type_node = node.child_by_field_name("type")
    if type_node is None:
        return []
    element_type = " ".join(node_text(type_node).split())
    is_extern = any(child.type == "storage_class_specifier" and node_text(child) == "extern"
                    for child in node.children)
    function = _enclosing_function(node)
    decls = []
    for declarator in node.children_by_field_name("declarator"):
        name, _, _, _, sizes = unwrap_declarator(declarator)
        if name is None:
            continue
        size = None
        if not is_extern and TYPE_SIZES.get(element_type) is not None:
            size = TYPE_SIZES[element_type]
            for size_node in sizes:
                count = None if size_node is None else constants.int_at(size_node, node.start_byte)
                size = None if count is None or size is None else size * count
        decls.append(SharedDecl(node_text(name), element_type, is_extern, size, Span.of(declarator), function,
                                is_extern or bool(sizes)))
    return decls


def _annotations(source: bytes, comments: list[Node], functions: list[CudaFunction]) -> list[Annotation]:
    if not comments:
        return []
    lines = source.split(b"\n")
    kernels_by_head_line = {function.span.start_line: function for function in functions if function.is_kernel}
    annotations = []
    for comment in comments:
        text = node_text(comment)
        match = _ANNOTATION_RE.match(text)
        if match is None or is_suppression(match.group("body")):
            continue
        body = match.group("body")
        key = body.split(None, 1)[0] if body else ""
        argument = body[len(key):].strip()
        # byte columns of the argument inside the comment
        prefix = text[:match.start("body") + len(key)]
        arg_start = len(prefix.encode()) + (len(body[len(key):]) - len(body[len(key):].lstrip()))
        start = comment.start_point
        arg_span = Span(comment.start_byte + arg_start, comment.start_byte + arg_start + len(argument.encode()),
                        start[0], start[1] + arg_start, start[0], start[1] + arg_start + len(argument.encode()))
        line = comment.end_point[0] + 1
        while line < len(lines) and lines[line].lstrip().startswith(b"//"):
            line += 1
        annotation = Annotation(key, argument, Span.of(comment), arg_span, kernels_by_head_line.get(line))
        if annotation.function is not None:
            annotation.function.annotations.append(annotation)
        annotations.append(annotation)
    return annotations


def _hidden_kernels(errors: list[Node], macro_names: list[Node],
                    functions: list[CudaFunction]) -> list[tuple[Span, str]]:
    """Regions that define kernels the other rules cannot see: broken parses and macro-made kernels."""
    hidden = []
    kernel_ranges = [(f.span.start_byte, f.span.end_byte) for f in functions if f.is_kernel]
    for error in errors:
        if b"__global__" not in error.text or (error.parent is not None and error.parent.type == "ERROR"):
            continue
        if not any(start < error.end_byte and error.start_byte < end for start, end in kernel_ranges):
            hidden.append((Span.of(error), "the parser could not read this region"))
    for name in macro_names:
        definition = name.parent
        body = definition.child_by_field_name("value") if definition is not None else None
        # a macro that is only qualifiers (`#define KERNEL __global__`) is expanded in _function
        if body is not None and b"__global__" in body.text and not set(node_text(body).split()) <= QUALIFIER_TOKENS:
            hidden.append((Span.of(name), f"kernels written through macro {node_text(name)}"))
    return hidden

"""A tree-sitter-python view of one `.py` source: module classes, their directives, inputs, proposal header.

Used by `hiera-lsp --check` and by the language server (code actions, hovers, diagnostics), so it
is error tolerant (a half-typed file still yields every class the parser can see) and cheap enough
to run on every keystroke. Positions are bytes and 0-based lines (see findings.Span).

    doc = parse_python(text)                  # str or bytes
    for cls in doc.classes:
        cls.name, cls.is_module, cls.bases, cls.forward, cls.directives
    doc.has_get_inputs, doc.has_get_init_inputs, doc.proposal, doc.syntax_error
    doc = parse_python(new_text, old_tree)    # incremental: old_tree already tree.edit()-ed
"""

from __future__ import annotations

import ast
import re
import threading
import warnings
from dataclasses import dataclass, field

import tree_sitter_python
from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from hiera_core.analysis.findings import Span, utf8_safe
from hiera_core.propose.proposal_file import ProposalHeader, parse_header
from hiera_core.task.directives import DIRECTIVE_RE, Directives, directives_above, is_suppression

PYTHON = Language(tree_sitter_python.language())
_local = threading.local()

_QUERY = Query(PYTHON, """
(class_definition) @class
((comment) @directive (#match? @directive "^#\\\\s*hiera:"))
(string) @string
""")
_MODULE_BASE_RE = re.compile(r"^(?:(?:torch\.)?nn\.[A-Z]\w*|Module)$")
# A top-level def, class or assignment, read from the text where a parse error may have swallowed it.
_TOP_LEVEL_NAME_RE = re.compile(rb"^(?:(?:async[ \t]+)?def[ \t]+(\w+)|class[ \t]+(\w+)"
                                rb"|(\w+)[ \t]*(?::[ \t]*[\w.\[\], |]*)?=(?!=))", re.M)


def _parser() -> Parser:
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = Parser(PYTHON)
    return parser


@dataclass
class PyFunction:
    name: str
    span: Span  # the def, from its first decorator
    name_span: Span
    params: list[str]  # parameter names in order, without self/cls, *args and **kwargs
    has_varargs: bool  # takes *args or **kwargs


@dataclass
class PyClass:
    name: str
    span: Span  # the class, from its first decorator
    name_span: Span
    bases: list[str]  # as written: "nn.Module", "torch.nn.Module", "Model"
    forward: PyFunction | None
    directives: Directives  # `# hiera:` lines directly above the class
    is_module: bool  # looks like an nn.Module subclass (directly or through a class of this file)


@dataclass(frozen=True)
class PySyntaxError:
    """Python's own verdict on a file the parser found errors in: its message and where."""

    message: str
    span: Span


@dataclass
class PythonDocument:
    source: bytes
    tree: Tree
    classes: list[PyClass]
    functions: list[PyFunction]  # top-level defs
    top_level_names: set[str]  # everything bound at module level: defs, classes, assignments, imports
    proposal: ProposalHeader | None  # the HIERA proposal header, when this file is a proposal
    directive_comments: list[tuple[int, Span]] = field(default_factory=list)  # (0-based line, span)
    embedded_cuda: list[Span] = field(default_factory=list)  # string literals holding CUDA (`__global__`)
    syntax_error: PySyntaxError | None = None  # the first one, as Python reports it

    @property
    def has_get_inputs(self) -> bool:
        return "get_inputs" in self.top_level_names

    @property
    def has_get_init_inputs(self) -> bool:
        return "get_init_inputs" in self.top_level_names

    @property
    def has_errors(self) -> bool:
        return self.tree.root_node.has_error

    def class_named(self, name: str) -> PyClass | None:
        return next((cls for cls in self.classes if cls.name == name), None)

    def class_at(self, byte: int) -> PyClass | None:
        """The innermost class whose definition contains `byte` (for code actions and hovers)."""
        inside = [cls for cls in self.classes if cls.span.start_byte <= byte < cls.span.end_byte]
        return min(inside, key=lambda cls: cls.span.end_byte - cls.span.start_byte, default=None)


def parse_python(text: str | bytes, old_tree: Tree | None = None) -> PythonDocument:
    """Parse Python source. Pass the previous tree, already `tree.edit()`-ed, to reparse incrementally."""
    source = utf8_safe(text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text))
    tree = _parser().parse(source, old_tree) if old_tree is not None else _parser().parse(source)
    decoded = source.decode("utf-8", "replace")
    lines = decoded.split("\n")
    captures = QueryCursor(_QUERY).captures(tree.root_node)
    class_nodes = sorted(captures.get("class", []), key=lambda node: node.start_byte)
    classes = [_class(node, lines) for node in class_nodes]
    classes = [cls for cls in classes if cls is not None]
    _mark_modules(classes)
    functions: list[PyFunction] = []
    names: set[str] = set()
    _module_level(tree.root_node, functions, names)
    syntax_error = None
    if tree.root_node.has_error:
        syntax_error = _syntax_error(decoded, source)
        # An unclosed bracket makes the parser fold the rest of the file into an error node, so a
        # `def get_inputs` below it would look missing: the text still shows what is defined.
        names.update(next(group for group in match.groups() if group).decode("utf-8", "replace")
                     for match in _TOP_LEVEL_NAME_RE.finditer(source))
    directive_comments = sorted(
        (node.start_point[0], Span.of(node)) for node in captures.get("directive", [])
        if DIRECTIVE_RE.match(node.text.decode("utf-8", "replace"))
        and not is_suppression(node.text.decode("utf-8", "replace").split(":", 1)[1]))
    return PythonDocument(source, tree, classes, functions, names, parse_header(decoded),
                          directive_comments, _embedded_cuda(captures), syntax_error)


def _syntax_error(text: str, source: bytes) -> PySyntaxError | None:
    """Python's syntax error in `text` (None when Python accepts what the parser could not read)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. invalid escape sequences: not errors
            ast.parse(text)
    except SyntaxError as error:
        lines = text.split("\n")
        line = min(max((error.lineno or 1) - 1, 0), len(lines) - 1)
        line_text = lines[line]
        column = len(line_text[:max((error.offset or 1) - 1, 0)].encode("utf-8"))
        # From the column to the end of the line; the whole line when Python points past its end
        span = Span.line_range(source, line, column)
        return PySyntaxError(error.msg, span if span.end_col > span.start_col else Span.line_range(source, line))
    except (ValueError, RecursionError):  # null bytes; nesting deeper than Python's parser goes
        return None
    return None


def _outer(node: Node) -> Node:
    """The decorated_definition around a class or def, or the node itself."""
    parent = node.parent
    return parent if parent is not None and parent.type == "decorated_definition" else node


def _function(node: Node) -> PyFunction | None:
    name = node.child_by_field_name("name")
    parameters = node.child_by_field_name("parameters")
    if name is None:
        return None
    params: list[str] = []
    varargs = False
    for param in parameters.named_children if parameters is not None else []:
        if param.type in ("list_splat_pattern", "dictionary_splat_pattern"):
            varargs = True
            continue
        ident = param if param.type == "identifier" else (
            param.child_by_field_name("name") or next((c for c in param.named_children if c.type == "identifier"),
                                                      None))
        if ident is not None and ident.type == "identifier":
            params.append(ident.text.decode("utf-8", "replace"))
    if params and params[0] in ("self", "cls"):
        params = params[1:]
    return PyFunction(name.text.decode("utf-8", "replace"), Span.of(_outer(node)), Span.of(name), params, varargs)


def _class(node: Node, lines: list[str]) -> PyClass | None:
    name = node.child_by_field_name("name")
    if name is None:
        return None
    superclasses = node.child_by_field_name("superclasses")
    bases = [base.text.decode("utf-8", "replace") for base in
             (superclasses.named_children if superclasses is not None else [])
             if base.type in ("identifier", "attribute")]
    forward = None
    body = node.child_by_field_name("body")
    for statement in body.named_children if body is not None else []:
        definition = statement
        if statement.type == "decorated_definition":
            definition = statement.child_by_field_name("definition")
        if definition is not None and definition.type == "function_definition":
            method_name = definition.child_by_field_name("name")
            if method_name is not None and method_name.text == b"forward":
                forward = _function(definition)
    outer = _outer(node)
    directives = directives_above(lines, outer.start_point[0] + 1)
    return PyClass(name.text.decode("utf-8", "replace"), Span.of(outer), Span.of(name), bases, forward, directives,
                   any(_MODULE_BASE_RE.match(base) for base in bases))


def _mark_modules(classes: list[PyClass]) -> None:
    """A class deriving from a module class of this file is a module too (to a fixed point)."""
    changed = True
    while changed:
        modules = {cls.name for cls in classes if cls.is_module}
        changed = False
        for cls in classes:
            if not cls.is_module and any(base in modules for base in cls.bases):
                cls.is_module = changed = True


def _module_level(block: Node, functions: list[PyFunction], names: set[str]) -> None:
    """Collect top-level defs and bound names, looking into module-level if/try/with blocks."""
    for statement in block.named_children:
        kind = statement.type
        definition = statement.child_by_field_name("definition") if kind == "decorated_definition" else statement
        if definition is not None and definition.type in ("function_definition", "class_definition"):
            name = definition.child_by_field_name("name")
            if name is not None:
                names.add(name.text.decode("utf-8", "replace"))
            if definition.type == "function_definition" and (function := _function(definition)) is not None:
                functions.append(function)
        elif kind == "expression_statement":
            for child in statement.named_children:
                if child.type == "assignment":
                    _bound_names(child.child_by_field_name("left"), names)
        elif kind in ("import_statement", "import_from_statement"):
            for imported in statement.children_by_field_name("name"):
                alias = imported.child_by_field_name("alias") if imported.type == "aliased_import" else None
                target = alias or imported
                text = target.text.decode("utf-8", "replace")
                names.add(text if alias is not None or kind == "import_from_statement" else text.split(".")[0])
        elif kind in ("if_statement", "try_statement", "with_statement", "else_clause", "elif_clause",
                      "except_clause", "finally_clause", "block"):
            _module_level(statement, functions, names)


def _bound_names(target: Node | None, names: set[str]) -> None:
    if target is None:
        return
    if target.type == "identifier":
        names.add(target.text.decode("utf-8", "replace"))
    elif target.type in ("pattern_list", "tuple_pattern", "list_pattern"):
        for child in target.named_children:
            _bound_names(child, names)


def _embedded_cuda(captures: dict[str, list[Node]]) -> list[Span]:
    """Contents of string literals that define CUDA kernels (load_inline / NVRTC sources)."""
    spans = []
    for string in captures.get("string", []):
        start = next((child for child in string.children if child.type == "string_start"), None)
        end = next((child for child in string.children if child.type == "string_end"), None)
        if start is None or end is None or b"f" in start.text.lower():
            continue  # f-strings: `{{` and interpolations make the text differ from the C++ source
        content = string.text[start.end_byte - string.start_byte:end.start_byte - string.start_byte]
        if b"__global__" in content:
            point = start.end_point
            end_point = end.start_point
            spans.append(Span(start.end_byte, end.start_byte, point[0], point[1], end_point[0], end_point[1]))
    return sorted(spans, key=lambda span: span.start_byte)

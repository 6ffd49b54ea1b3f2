"""HC114: a raw pointer taken from a tensor whose dtype, device and contiguity nothing checks, looking
through check macros, the function's callers and the extension's other files."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator

from tree_sitter import Node, Query

from hiera_core.analysis.cuda_document import CudaDocument, CudaFunction
from hiera_core.analysis.cuda_source import parse_cuda
from hiera_core.analysis.cuda_syntax import CUDA, bounded_captures, node_text
from hiera_core.analysis.findings import Finding, Span
from hiera_core.analysis.rules import finding


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
    # A NUL byte cannot be in a path (os.stat raises ValueError): such an include names no file.
    includes = [os.path.normpath(os.path.join(directory, include.decode("utf-8", "replace")))
                for include in _LOCAL_INCLUDE_RE.findall(doc.source) if b"\x00" not in include]
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


def unchecked_data_ptr(doc: CudaDocument, path: str) -> Iterator[Finding]:
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

"""The CUDA rules (HC1xx) over a parsed CudaDocument. Rule texts live in rules.RULES."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node, Query, QueryCursor

from hiera_core.analysis import cexpr
from hiera_core.analysis.cuda_flow import THREAD, THREAD_YZ, FunctionFlow
from hiera_core.analysis.cuda_source import CUDA, CudaDocument, CudaFunction, Launch, node_text
from hiera_core.analysis.findings import Finding, Span
from hiera_core.analysis.rules import finding

STATIC_SHARED_LIMIT = 48 * 1024
MAX_THREADS = 1024
MAX_DIMS = (1024, 1024, 64)

BARRIERS = {"__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or"}
MASKED_WARP_INTRINSICS = {
    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
    "__all_sync", "__any_sync", "__uni_sync", "__match_any_sync", "__match_all_sync", "__syncwarp",
    "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
    "__reduce_or_sync", "__reduce_xor_sync",
}
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
LAUNCH_CHECK_RE = re.compile(rb"\b(?:C10_CUDA_KERNEL_LAUNCH_CHECK|cudaGetLastError|cudaPeekAtLastError)\b")
_DOUBLE_LITERAL_RE = re.compile(r"^(?:(?:\d[\d']*\.[\d']*|\.\d[\d']*)(?:[eE][+-]?\d+)?|\d[\d']*[eE][+-]?\d+"
                                r"|0[xX][0-9a-fA-F.']*[pP][+-]?\d+)[lL]?$")
_X_BUILTIN_RE = re.compile(r"^(blockIdx|blockDim|gridDim)\s*\.\s*x$")
_WIDE_TYPE_RE = re.compile(r"\b(?:int64_t|uint64_t|long|size_t|ptrdiff_t|index_t)\b")


def check_cuda(doc: CudaDocument, path: str) -> list[Finding]:
    """Every HC1xx finding of one parsed CUDA document (unfiltered; see analyze_file)."""
    flows = [FunctionFlow(doc, function) for function in doc.functions if function.is_gpu and function.body]
    findings: list[Finding] = []
    for flow in flows:
        for rule in (_unguarded_index, _divergent_barrier, _divergent_warp_intrinsic, _double_in_float,
                     _legacy_warp_intrinsic, _int32_index):
            findings.extend(rule(flow, path))
    for kernel in doc.kernels:
        findings.extend(_launch_bounds_values(kernel, path))
        findings.extend(_missing_restrict(kernel, path))
        findings.extend(_static_shared(doc, kernel, path))
    for launch in doc.launches:
        findings.extend(_launch_config(doc, launch, path))
    if doc.is_torch_extension:
        findings.extend(_unchecked_launches(doc, path))
        findings.extend(_unchecked_data_ptr(doc, path))
    for span, why in doc.hidden_kernels:
        findings.append(finding("HC116", f"kernel not analysed: {why}", path, span,
                                "tree-sitter does not expand macros; write the kernel out to have it checked"))
    return findings


# -- HC101 --------------------------------------------------------------------------------------
def _unguarded_index(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    if not flow.function.is_kernel:
        return  # a __device__ function's pointers may well point to shared memory
    reported_lines: set[int] = set()
    for base, subscript, index in flow.subscripts:
        if base not in flow.global_pointers or index is None:
            continue
        names = flow.names_in(index)
        origins = flow.closure(names | {base})  # the block offset may sit in a derived pointer
        # a global thread index (block and thread): the grid is rounded up, so its tail overruns
        if not origins & {THREAD, THREAD_YZ} or "blockIdx" not in origins or names & {"min", "max"}:
            continue
        if flow.guarded(subscript.start_byte, names | {base}) or subscript.start_point[0] in reported_lines:
            continue
        reported_lines.add(subscript.start_point[0])
        yield finding("HC101", f"{node_text(subscript)} is indexed by thread without a bounds guard", path,
                      Span.of(subscript), "guard it with the element count, e.g. `if (i < n) ...`")


# -- HC102, HC103 -------------------------------------------------------------------------------
def _divergent_barrier(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for name, call in flow.calls:
        if name not in BARRIERS:
            continue
        branch = next((region for region in flow.controlling(call.start_byte, with_exits=False)
                       if flow.is_thread_dependent(region.condition)), None)
        if branch is not None:
            yield finding("HC102", f"{name}() under a {_describe(branch.kind)} on `{_short(branch.condition)}`, "
                          "which depends on threadIdx: threads that skip it never arrive", path, Span.of(call),
                          "move the barrier out of the conditional; make only the work conditional")
            continue
        exit_region = next((region for region in flow.exits if region.start <= call.start_byte < region.end
                            and flow.is_thread_dependent(region.condition)), None)
        if exit_region is not None:
            yield finding("HC103", f"{name}() after threads may have exited early on "
                          f"`{_short(exit_region.condition)}` (line {exit_region.condition.start_point[0] + 1})",
                          path, Span.of(call), "keep all threads until the last barrier; guard loads and stores")


# -- HC104 --------------------------------------------------------------------------------------
def _divergent_warp_intrinsic(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for name, call in flow.calls:
        if name not in MASKED_WARP_INTRINSICS:
            continue
        args = call.child_by_field_name("arguments")
        mask = args.named_children[0] if args is not None and args.named_children else None
        if mask is None:
            full = name == "__syncwarp"
        else:
            value = flow.doc.constants.int_at(mask, mask.start_byte)
            full = value is not None and value & 0xFFFFFFFF == 0xFFFFFFFF
        if not full:
            continue
        region = next((region for region in flow.controlling(call.start_byte)
                       if flow.is_lane_divergent(region.condition)), None)
        if region is not None:
            where = "an early exit on" if region.kind == "exit" else f"a {_describe(region.kind)} on"
            yield finding("HC104", f"{name}() with the full mask after {where} `{_short(region.condition)}`, "
                          "which differs between lanes of a warp", path, Span.of(call),
                          "call it where all 32 lanes are active, or pass the mask of the active lanes")


# -- HC111 --------------------------------------------------------------------------------------
def _double_in_float(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    function = flow.function
    bases = {param.base_type for param in function.params}
    if function.template_type_params or not bases & FLOAT_TYPES or "double" in bases:
        return
    for number in flow.numbers:
        text = node_text(number)
        if not _DOUBLE_LITERAL_RE.match(text) or _converted_at_compile_time(number):
            continue
        callee = _math_callee(number)
        message = (f"double literal {text} makes {callee}() compute in double" if callee else
                   f"double literal {text} promotes this float arithmetic to double")
        yield finding("HC111", message, path, Span.of(number), f"write {text.rstrip('lL')}f")
    for name, call in flow.calls:
        args = call.child_by_field_name("arguments")
        if name not in MATH_FUNCTIONS or args is None:
            continue
        for arg in args.named_children:
            if arg.type == "number_literal" and cexpr.parse_int_literal(node_text(arg)) is not None:
                yield finding("HC111", f"{name}() with the integer argument {node_text(arg)} is evaluated in double",
                              path, Span.of(call), f"pass a float, e.g. {node_text(arg)}.0f")
                break


def _skip_wrappers(node: Node) -> Node:
    """The first ancestor of a literal that is not a parenthesis or a unary minus."""
    parent = node.parent
    while parent is not None and parent.type in ("parenthesized_expression", "unary_expression"):
        parent = parent.parent
    return parent if parent is not None else node


def _converted_at_compile_time(number: Node) -> bool:
    """Literals a float context converts once, at compile time: initialisers, casts, plain stores."""
    parent = _skip_wrappers(number)
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


def _math_callee(number: Node) -> str | None:
    parent = _skip_wrappers(number)
    if parent.type == "argument_list" and parent.parent is not None:
        function = parent.parent.child_by_field_name("function")
        if function is not None and node_text(function) in MATH_FUNCTIONS:
            return node_text(function)
    return None


# -- HC112 --------------------------------------------------------------------------------------
def _legacy_warp_intrinsic(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for name, call in flow.calls:
        if name in LEGACY_WARP_INTRINSICS:
            replacement = LEGACY_WARP_INTRINSICS[name]
            yield finding("HC112", f"{name}() was removed for sm_70 and later", path, Span.of(call),
                          f"use {replacement}(0xffffffff, ...) with the mask of participating lanes")


# -- HC113 --------------------------------------------------------------------------------------
def _int32_index(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    narrow_declarations = set()
    for name, init, value, type_text in flow.declarations:
        text = node_text(value)
        if not (re.search(r"\bblockIdx\s*\.\s*x\b", text) and re.search(r"\b(?:blockDim|gridDim)\s*\.\s*x\b", text)):
            continue
        if type_text in INT32_TYPES or (type_text == "auto" and not _WIDE_TYPE_RE.search(text)):
            narrow_declarations.add(init.start_byte)
            yield finding("HC113", f"global index '{name}' is a 32-bit {type_text}: it overflows past 2^31 elements",
                          path, Span.of(init), f"declare it int64_t and widen first: "
                          f"int64_t {name} = (int64_t)blockIdx.x * blockDim.x + threadIdx.x")
    reported: set[int] = set()
    products = list(_products(flow))
    for product, left, right in products:
        is_grid_product = _X_BUILTIN_RE.match(node_text(left)) and _X_BUILTIN_RE.match(node_text(right))
        if is_grid_product and not _inside_declaration(product, narrow_declarations):
            reported.add(product.start_byte)
            yield finding("HC113", f"{node_text(product)} is computed in 32-bit unsigned and wraps past 2^32", path,
                          Span.of(product), f"widen first: (int64_t){node_text(left)} * {node_text(right)}")
    for base, _, index in flow.subscripts:
        if base not in flow.global_pointers or index is None:
            continue
        for product, left, right in products:
            inside = index.start_byte <= product.start_byte < index.end_byte
            if inside and product.start_byte not in reported and _is_int32_variable(flow, left) \
                    and _is_int32_variable(flow, right):
                reported.add(product.start_byte)
                yield finding("HC113", f"index product {node_text(product)} of {base}[...] is computed in 32 bits",
                              path, Span.of(product), f"widen one factor: (int64_t){node_text(left)} * "
                              f"{node_text(right)}")


def _products(flow: FunctionFlow) -> Iterator[tuple[Node, Node, Node]]:
    """(product, left, right) of every `a * b` of the function, without parentheses around a and b."""
    for node in flow.binaries:
        operator = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if operator is not None and operator.type == "*" and left is not None and right is not None:
            yield node, _unparen(left), _unparen(right)


def _unparen(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def _inside_declaration(node: Node, declaration_starts: set[int]) -> bool:
    parent = node.parent
    while parent is not None and parent.type not in ("expression_statement", "compound_statement"):
        if parent.type == "init_declarator" and parent.start_byte in declaration_starts:
            return True
        parent = parent.parent
    return False


def _is_int32_variable(flow: FunctionFlow, node: Node) -> bool:
    node = _unparen(node)
    if node.type == "field_expression":
        return bool(re.match(r"^(threadIdx|blockIdx|blockDim|gridDim)\s*\.\s*[xyz]$", node_text(node)))
    if node.type != "identifier" or flow.doc.constants.int_at(node, node.start_byte) is not None:
        return False
    return flow.var_types.get(node_text(node), "") in INT32_TYPES


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
def _unchecked_launches(doc: CudaDocument, path: str) -> Iterator[Finding]:
    launches = [launch for launch in doc.launches if launch.function is not None]
    for index, launch in enumerate(launches):
        parent = launch.node.parent
        if launch.syntax != "chevron" and parent is not None and parent.type != "expression_statement":
            continue  # the API call's status is used: assigned, compared or passed to a CHECK macro
        assert launch.function is not None
        limit = launch.function.end_byte
        later = [other.span.start_byte for other in launches[index + 1:]
                 if other.function is not None and other.function.id == launch.function.id]
        if later:
            limit = min(later)
        if not LAUNCH_CHECK_RE.search(doc.source, launch.span.end_byte, limit):
            yield finding("HC110", f"launch of {launch.kernel} is not followed by an error check", path,
                          launch.name_span, "add C10_CUDA_KERNEL_LAUNCH_CHECK(); right after the launch")


# -- HC114 --------------------------------------------------------------------------------------
_TENSOR_QUERY = Query(CUDA, """
(call_expression function: (field_expression
   field: [(field_identifier) @method (template_method name: (field_identifier) @method)]))
(call_expression function: (identifier) @macro arguments: (argument_list))
(init_declarator declarator: (identifier) @bound value: (_))
(assignment_expression left: (identifier) @bound right: (_))
""")
DTYPE, DEVICE, CONTIGUITY = "dtype", "device", "contiguity"
ALL_PROPERTIES = frozenset({DTYPE, DEVICE, CONTIGUITY})
# methods that check a property of their receiver (`x.is_cuda()` inside a TORCH_CHECK)
_CHECK_METHODS = {"scalar_type": {DTYPE}, "dtype": {DTYPE}, "is_cuda": {DEVICE}, "device": {DEVICE},
                  "get_device": {DEVICE}, "is_contiguous": {CONTIGUITY}}
# methods that return a tensor with a property (`x.contiguous()`, `x.cuda()`, `x.float()`)
_CONVERTING_METHODS = {"contiguous": {CONTIGUITY}, "cuda": {DEVICE}, "float": {DTYPE}, "half": {DTYPE},
                       "double": {DTYPE}, "bfloat16": {DTYPE}, "toType": {DTYPE}}
_RAW_POINTER_METHODS = {"data_ptr", "mutable_data_ptr", "const_data_ptr"}
_FACTORY_RE = re.compile(r"^(?:torch|at)::(?:empty|zeros|ones|full|rand|randn|randint|arange|empty_like|zeros_like"
                         r"|ones_like|full_like|rand_like|randn_like|empty_strided)$")
_TEXT_PROPERTIES = ((DEVICE, re.compile(r"is_cuda|\.device\(|get_device|kCUDA|is_cpu")),
                    (CONTIGUITY, re.compile(r"is_contiguous|\.contiguous\(")),
                    (DTYPE, re.compile(r"scalar_type|dtype|ScalarType|\bk(?:Float|Half|BFloat16|Double|Int|Long)\b")))


def _macro_properties(doc: CudaDocument) -> dict[str, set[str]]:
    """What each function-like macro checks about its argument (`CHECK_INPUT(x)` -> device, contiguity)."""
    resolved = {name: {prop for prop, pattern in _TEXT_PROPERTIES if pattern.search(body)}
                for name, body in doc.function_macros.items()}
    changed = True
    while changed:  # macros built from other macros: CHECK_INPUT -> CHECK_CUDA + CHECK_CONTIGUOUS
        changed = False
        for name, body in doc.function_macros.items():
            for other, props in resolved.items():
                if other != name and not props <= resolved[name] and re.search(rf"\b{re.escape(other)}\b", body):
                    resolved[name] |= props
                    changed = True
    return resolved


def _unchecked_data_ptr(doc: CudaDocument, path: str) -> Iterator[Finding]:
    macro_properties = _macro_properties(doc)
    for function in doc.functions:
        if function.is_gpu or function.body is None:
            continue
        captures = QueryCursor(_TENSOR_QUERY).captures(function.body)
        events = sorted(((node.start_byte, kind, node) for kind in ("method", "macro", "bound")
                         for node in captures.get(kind, [])), key=lambda event: event[0])
        known: dict[str, set[str]] = {}  # tensor name -> properties checked so far
        for _, kind, node in events:
            if kind == "bound":
                value = node.parent.child_by_field_name("value") or node.parent.child_by_field_name("right")
                known[node_text(node)] = _tensor_facts(value, known)[1] if value is not None else set()
            elif kind == "macro":
                props = macro_properties.get(node_text(node), set())
                args = node.parent.child_by_field_name("arguments") if props else None
                for arg in args.named_children if args is not None else []:
                    if arg.type == "identifier":
                        known.setdefault(node_text(arg), set()).update(props)
            else:
                call = node.parent
                while call.type != "call_expression":
                    call = call.parent
                receiver = call.child_by_field_name("function").child_by_field_name("argument")
                method = node_text(node)
                if method in _CHECK_METHODS and receiver is not None and receiver.type == "identifier":
                    known.setdefault(node_text(receiver), set()).update(_CHECK_METHODS[method])
                is_raw = method in _RAW_POINTER_METHODS or (method == "data" and node.parent.type == "template_method")
                if not is_raw or receiver is None:
                    continue
                tensor, props = _tensor_facts(receiver, known)
                missing = ALL_PROPERTIES - props
                if tensor is not None and missing:
                    yield finding("HC114", f"{node_text(call)} before checking the {', '.join(sorted(missing))} "
                                  f"of {tensor}", path, Span.of(call),
                                  f"check first, e.g. TORCH_CHECK({tensor}.is_cuda() && {tensor}.is_contiguous() && "
                                  f"{tensor}.scalar_type() == torch::kFloat)")


def _tensor_facts(node: Node, known: dict[str, set[str]]) -> tuple[str | None, set[str]]:
    """(base tensor name, properties known) of `x`, `x.contiguous()`, `torch::empty(...)`, ...; (None, all)
    for tensors made here by a factory."""
    if node.type == "identifier":
        return node_text(node), set(known.get(node_text(node), set()))
    if node.type != "call_expression":
        return None, set(ALL_PROPERTIES)  # not a named tensor (e.g. an accessor call): nothing to say
    function = node.child_by_field_name("function")
    if function is None:
        return None, set(ALL_PROPERTIES)
    if _FACTORY_RE.match(node_text(function)):
        return None, set(ALL_PROPERTIES)
    if function.type != "field_expression" or function.child_by_field_name("argument") is None:
        return None, set(ALL_PROPERTIES)
    name, props = _tensor_facts(function.child_by_field_name("argument"), known)
    field = function.child_by_field_name("field")
    method = node_text(field.child_by_field_name("name") or field) if field is not None else ""
    props |= _CONVERTING_METHODS.get(method, set())
    if method == "to":
        arguments = node.child_by_field_name("arguments")
        props |= {prop for prop, pattern in _TEXT_PROPERTIES if arguments and pattern.search(node_text(arguments))}
    return name, props


# -- helpers -------------------------------------------------------------------------------------
def _describe(kind: str) -> str:
    return {"if": "branch", "ternary": "conditional expression", "switch": "switch"}.get(kind, f"{kind} loop")


def _short(node: Node, limit: int = 60) -> str:
    text = " ".join(node_text(node).split())
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return text if len(text) <= limit else text[:limit - 3] + "..."


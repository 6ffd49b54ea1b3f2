"""The rules about launches and kernel declarations: HC105/HC106/HC109 (block sizes), HC107/HC108
(shared memory), HC115 (missing `__restrict__`) and HC110 (a torch extension's launch with no error
check, which follows `#include`s to find the check macros)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from hiera_core.analysis.cuda_document import CudaDocument, CudaFunction, Launch
from hiera_core.analysis.cuda_rules.tensors import MAX_SIBLING_BYTES
from hiera_core.analysis.cuda_syntax import node_text
from hiera_core.analysis.findings import Finding
from hiera_core.analysis.rules import finding

STATIC_SHARED_LIMIT = 48 * 1024
MAX_THREADS = 1024
MAX_DIMS = (1024, 1024, 64)
LAUNCH_CHECK_RE = re.compile(rb"\b(?:C10_CUDA_KERNEL_LAUNCH_CHECK|cudaGetLastError|cudaPeekAtLastError)\b")


# -- HC105, HC106 (launch bounds), HC115, HC107 ----------------------------------------------------
def launch_bounds_values(kernel: CudaFunction, path: str) -> Iterator[Finding]:
    if kernel.launch_bounds is None or kernel.launch_bounds[0] is None or kernel.launch_bounds_span is None:
        return
    bound = kernel.launch_bounds[0]
    if bound > MAX_THREADS:
        yield finding("HC105", f"__launch_bounds__({bound}) asks for more than {MAX_THREADS} threads per block",
                      path, kernel.launch_bounds_span, f"use at most {MAX_THREADS}")
    elif bound % 32:
        yield finding("HC106", f"__launch_bounds__({bound}) is not a multiple of the warp size 32", path,
                      kernel.launch_bounds_span, f"round to {max(32, bound // 32 * 32)} or {bound // 32 * 32 + 32}")


def missing_restrict(kernel: CudaFunction, path: str) -> Iterator[Finding]:
    pointers = [param for param in kernel.params if param.pointer_depth > 0]
    if len(pointers) < 2:
        return
    for param in pointers:
        if not param.is_restrict:
            yield finding("HC115", f"pointer parameter '{param.name}' of kernel {kernel.name} is not __restrict__",
                          path, param.span, f"declare it `{param.type.replace('*', '* __restrict__', 1)} {param.name}`"
                          " if it never overlaps the other buffers")


def static_shared(doc: CudaDocument, kernel: CudaFunction, path: str) -> Iterator[Finding]:
    total = 0
    for decl in doc.shared_in(kernel.node):
        if decl.size_bytes is None:
            continue
        total += decl.size_bytes
        if total > STATIC_SHARED_LIMIT:
            yield finding("HC107", f"static shared memory of kernel {kernel.name} reaches {total} bytes at "
                          f"'{decl.name}', above the 48 KB ({STATIC_SHARED_LIMIT} bytes) limit", path, decl.span,
                          "use `extern __shared__` and cudaFuncSetAttribute(kernel, "
                          "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)")
            return


def static_shared_bytes(doc: CudaDocument, kernel: CudaFunction) -> int:
    return sum(decl.size_bytes or 0 for decl in doc.shared_in(kernel.node))


# -- HC105, HC106, HC108, HC109 (launches) -------------------------------------------------------
def launch_config(doc: CudaDocument, launch: Launch, path: str) -> Iterator[Finding]:
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


def unchecked_launches(doc: CudaDocument, path: str) -> Iterator[Finding]:
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

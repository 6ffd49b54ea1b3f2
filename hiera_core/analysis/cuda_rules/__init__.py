"""The CUDA rules (HC1xx) over a parsed CudaDocument. Rule texts live in rules.RULES.

`check_cuda` is the one place that decides which rule runs on what: per GPU function (whose
findings an editor's cache reuses while the function is unchanged), per kernel, per launch and
per file. The rules themselves live in this package's modules, one family each; HC116 (kernels
the parser could not see) is here, being about the file as parsed.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from hiera_core.analysis.cuda_document import CudaDocument, CudaFunction, SharedDecl
from hiera_core.analysis.cuda_flow import FunctionFlow
from hiera_core.analysis.cuda_rules.bounds import (
    floor_grid,
    kernels_launched_exactly,
    launched_elsewhere,
    launched_exactly,
    unguarded_index,
)
from hiera_core.analysis.cuda_rules.cache import CachedFindings, CallNames, Named, function_key
from hiera_core.analysis.cuda_rules.divergence import (
    divergent_barrier,
    divergent_warp_intrinsic,
    legacy_warp_intrinsic,
    partial_shuffle_mask,
)
from hiera_core.analysis.cuda_rules.int32 import int32_products, narrow_counts
from hiera_core.analysis.cuda_rules.launches import (
    launch_bounds_values,
    launch_config,
    missing_restrict,
    static_shared,
    unchecked_launches,
)
from hiera_core.analysis.cuda_rules.numeric import atomics_for_arch, double_in_float
from hiera_core.analysis.cuda_rules.shared import shared_race, syncing_functions, unwritten_shared
from hiera_core.analysis.cuda_rules.tensors import unchecked_data_ptr
from hiera_core.analysis.findings import Finding
from hiera_core.analysis.rules import finding

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
    those rules read (function_key) are unchanged; the file-level rules run each time. Only the
    entries of this run are kept. A rule added to _function_findings may read its function's flow
    and function_key's facts only: one that reads other functions belongs with the file-level rules."""
    if cache is not None:
        return _check_cuda_cached(doc, path, arch, cache)
    flows = [FunctionFlow(doc, function) for function in doc.functions if function.is_gpu and function.body]
    exact = kernels_launched_exactly(doc)
    syncing = syncing_functions(flows)
    findings: list[Finding] = []
    for flow in flows:
        findings.extend(_function_findings(doc, flow, path, syncing))
        if not launched_exactly(doc, flow.function, exact) and not launched_elsewhere(doc, flow.function):
            findings.extend(unguarded_index(flow, path))
    findings.extend(unwritten_shared(doc, flows, path))
    target = arch_number(arch) if arch else None
    if target is not None:
        findings.extend(atomics_for_arch(doc, flows, path, arch or "", target))
    for kernel in doc.kernels:
        if kernel.body is None:  # the others' are among their function's findings
            findings.extend(_kernel_findings(doc, kernel, path))
    return findings + _file_findings(doc, path)


def _function_findings(doc: CudaDocument, flow: FunctionFlow, path: str, syncing: set[str],
                       own_shared: list[SharedDecl] | None = None) -> list[Finding]:
    """The findings of the rules about one GPU function but HC101 (which the file's launches decide);
    with `own_shared` (the function's shared declarations), HC119 for them too."""
    findings: list[Finding] = []
    for rule in (divergent_barrier, divergent_warp_intrinsic, double_in_float, legacy_warp_intrinsic,
                 int32_products, partial_shuffle_mask):
        findings.extend(rule(flow, path))
    findings.extend(shared_race(flow, path, syncing))
    if own_shared:
        findings.extend(unwritten_shared(dataclasses.replace(doc, shared=own_shared), [flow], path))
    if flow.function.is_kernel:
        findings.extend(_kernel_findings(doc, flow.function, path))
    return findings


def _kernel_findings(doc: CudaDocument, kernel: CudaFunction, path: str) -> list[Finding]:
    return [*launch_bounds_values(kernel, path), *missing_restrict(kernel, path), *static_shared(doc, kernel, path)]


def _file_findings(doc: CudaDocument, path: str) -> list[Finding]:
    """The rules over launches and the whole file."""
    findings: list[Finding] = []
    floor_spans: set[tuple[int, int]] = set()
    for launch in doc.launches:
        findings.extend(launch_config(doc, launch, path))
        for item in floor_grid(doc, launch, path):  # one grid local launched several times: one finding
            if (item.start_byte, item.end_byte) not in floor_spans:
                floor_spans.add((item.start_byte, item.end_byte))
                findings.append(item)
    findings.extend(narrow_counts(doc, path))
    if doc.is_torch_extension:
        findings.extend(unchecked_launches(doc, path))
        findings.extend(unchecked_data_ptr(doc, path))
    findings.extend(_hidden_kernel_findings(doc, path))
    return findings


def _check_cuda_cached(doc: CudaDocument, path: str, arch: str | None, cache: dict) -> list[Finding]:
    functions = [function for function in doc.functions if function.is_gpu and function.body]
    flows: dict[int, FunctionFlow] = {}

    def flow_of(function: CudaFunction) -> FunctionFlow:
        if function.node.id not in flows:
            flows[function.node.id] = FunctionFlow(doc, function)
        return flows[function.node.id]

    # HC119 of file-scope shared memory reads every function: then it runs over all of them, below
    shared_reads = not doc.shared_in(None)
    kept: dict = {}
    keys, summaries = [], []
    for function in functions:
        key = function_key(doc, function, doc.launches_of(function.name), shared_reads)
        names = cache.get(("calls", key))
        if names is None:
            names = tuple(call.name for call in flow_of(function).calls)
        kept[("calls", key)] = names
        keys.append(key)
        summaries.append(CallNames(function, tuple(Named(name) for name in names)))
    syncing = syncing_functions(summaries)  # type: ignore[arg-type]
    findings: list[Finding] = []
    unguarded: list[tuple[CudaFunction, list[Finding]]] = []
    for function, key, summary in zip(functions, keys, summaries, strict=True):
        entry_key = ("findings", key, frozenset(call.name for call in summary.calls) & syncing)
        entry = cache.get(entry_key)
        if entry is None or not entry.fits(function):
            flow = flow_of(function)
            own_shared = doc.shared_in(function.node) if shared_reads else None
            entry = CachedFindings.of(function, _function_findings(doc, flow, path, syncing, own_shared),
                                      list(unguarded_index(flow, path)))
        kept[entry_key] = entry
        findings.extend(entry.at(function, path, entry.findings))
        if entry.unguarded:
            unguarded.append((function, entry.at(function, path, entry.unguarded)))
    if unguarded:  # which kernels the file launches exactly: only asked when some index is unguarded
        exact = kernels_launched_exactly(doc)
        findings.extend(item for function, items in unguarded if not launched_exactly(doc, function, exact)
                        and not launched_elsewhere(doc, function) for item in items)
    if not shared_reads:
        findings.extend(unwritten_shared(doc, [flow_of(function) for function in functions], path))
    target = arch_number(arch) if arch else None
    if target is not None:
        atomic = [flow_of(function) for function in functions if b"atomicAdd" in function.node.text]
        findings.extend(atomics_for_arch(doc, atomic, path, arch or "", target))
    for kernel in doc.kernels:
        if kernel.body is None:
            findings.extend(_kernel_findings(doc, kernel, path))
    cache.clear()
    cache.update(kept)
    return findings + _file_findings(doc, path)


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

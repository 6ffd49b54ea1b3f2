"""Hover: short markdown from `.hiera/` (never runs anything).

On a module class name or its `forward`: the last profile (latency, top kernels with their
share, FLOPs, bytes, intensity, roofline bound and how close to it) and the best proposal
(speedup, space, verification, GPU, date). On a `__global__` kernel (its name or a launch of
it): what the source says (parameters, launch bounds, static shared memory, launches), ptxas
registers/spills/shared memory/occupancy of the buffer from a background NVRTC compile
(kernel_resources), and what a profile measured. On a
`# hiera:` directive: what each key means.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types

from hiera_core.index_entry import IndexEntry
from hiera_lsp.documents import CUDA, PYTHON, Document
from hiera_lsp.records import all_records, read_record

if TYPE_CHECKING:
    from hiera_core.analysis.cuda_document import CudaDocument, CudaFunction
    from hiera_core.analysis.findings import Span
    from hiera_core.analysis.python_source import PythonDocument

TOP_KERNELS = 3
KernelFigures = Callable[[Document, str], str]  # (document, kernel name) -> NVRTC's line for the hover


def hover(document: Document, position: types.Position, encoding: str,
          kernel_figures: KernelFigures | None = None) -> types.Hover | None:
    offset = document.offset_at(position, encoding)
    view = document.view
    markdown, span = None, None
    if view is not None and document.language == PYTHON:
        markdown, span = _python_hover(document, view, offset)
    elif view is not None and document.language == CUDA:
        markdown, span = _kernel_hover(document, view, offset, kernel_figures)
    if markdown is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown),
                       range=document.range_of(span.start_byte, span.end_byte, encoding))


def _within(span: Span | None, offset: int) -> bool:
    return span is not None and span.start_byte <= offset <= span.end_byte


def _python_hover(document: Document, view: PythonDocument, offset: int):
    for cls in view.classes:
        if not cls.is_module:
            continue
        forward_name = cls.forward.name_span if cls.forward else None
        if _within(cls.name_span, offset) or _within(forward_name, offset):
            span = cls.name_span if _within(cls.name_span, offset) else forward_name
            record = read_record(document.path, cls.name) if document.path else IndexEntry()
            return module_markdown(cls.name, record), span
    for line, span in view.directive_comments:
        if _within(span, offset):
            return _directive_markdown(document, view, line, span), span
    return None, None


def _ms(value) -> str:
    return f"{value:.4g} ms" if isinstance(value, (int, float)) else "?"


def module_markdown(name: str, record: IndexEntry) -> str:
    from hiera_core.spec.model import human_bytes, human_flops  # the spec module is large: loaded on first use

    profile, proposal, last_run = record.profile, record.proposal, record.last_run
    out = [f"**HIERA · {name}**"]
    if profile:
        spread = f" ± {profile.spread_ms:.2g}" if profile.spread_ms else ""
        out.append(f"Last profile: **{_ms(profile.latency_ms)}**{spread} on "
                   f"{profile.device_name or profile.device or '?'} · {profile.date}")
        if profile.bound == "host":
            out.append(f"Host-bound: the GPU works {_ms(profile.gpu_ms)} per call; launches and Python set "
                       "the pace (fewer launches, CUDA graphs and fusion help)")
        if profile.kernels:
            out.append("Top kernels: " + " · ".join(
                f"`{k.name}` {100 * (k.share or 0):.0f}%" for k in profile.kernels[:TOP_KERNELS]))
        workload = []
        if profile.flops is not None:
            workload.append(human_flops(profile.flops))
        if profile.bytes is not None:
            workload.append(human_bytes(profile.bytes))
        if profile.intensity is not None:
            workload.append(f"{profile.intensity:.3g} FLOP/B")
        if profile.roofline_bound_ms is not None:
            pct = f", at {profile.roofline_pct:.0f}% of it" if profile.roofline_pct else ""
            workload.append(f"roofline bound {_ms(profile.roofline_bound_ms)}{pct}")
        if workload:
            out.append(" · ".join(workload))
    if proposal:
        out.append(f"Best proposal: **{proposal.speedup or 0:.2f}x** · "
                   f"{' / '.join(p for p in (proposal.space, proposal.strategy) if p)} · "
                   f"verification {proposal.verification or 'unknown'} · on "
                   f"{proposal.device_name or '?'} · {proposal.date}")
    if last_run and last_run.status == "failed" and last_run.error:
        out.append(f"Last run failed: {last_run.error.get('message', '')}")
    if len(out) == 1:
        out.append("No HIERA run yet: use the code action *HIERA: Optimize this module* or "
                   "*HIERA: Profile this module*.")
    return "\n\n".join(out)


def _directive_markdown(document: Document, view: PythonDocument, line: int, span: Span) -> str:
    from hiera_core.task.directives import DIRECTIVE_RE, KNOWN_KEYS, Directives, parse_directive_body

    text = document.data[span.start_byte:span.end_byte].decode("utf-8", "replace")
    match = DIRECTIVE_RE.match(text)
    body = match.group("body") if match else ""
    parsed = Directives()
    parse_directive_body(body, line + 1, 0, parsed)
    owner = next((cls.name for cls in view.classes if line + 1 in cls.directives.lines), None)
    out = ["**HIERA directive**" + (f" for `class {owner}`" if owner else " (not directly above a class: ignored)")]
    for item in body.split():
        key, _, value = item.partition("=")
        meaning = KNOWN_KEYS.get(key, "unknown key")
        note = ""
        if key in ("inputs", "init") and value:
            note = " (defined)" if value in view.top_level_names else f" — **`{value}` is not defined in this file**"
        out.append(f"- `{item}`: {meaning}{note}")
    out += [f"- problem: {problem.message} ({problem.hint})" for problem in parsed.problems]
    return "\n".join(out)


def _kernel_hover(document: Document, view: CudaDocument, offset: int, kernel_figures: KernelFigures | None):
    for function in view.kernels:
        # Anywhere from `__global__` to the kernel's name (qualifiers, return type, launch bounds).
        if function.node.start_byte <= offset <= function.name_span.end_byte:
            return kernel_markdown(document, view, function, kernel_figures), function.name_span
    for launch in view.launches:
        if _within(launch.name_span, offset):
            function = view.function_named(launch.kernel)
            if function is not None and function.is_kernel:
                return kernel_markdown(document, view, function, kernel_figures), launch.name_span
    return None, None


def kernel_markdown(document: Document, view: CudaDocument, function: CudaFunction,
                    kernel_figures: KernelFigures | None = None) -> str:
    from hiera_core.spec.model import human_bytes

    out = [f"**HIERA · kernel `{function.name}`** ({len(function.params)} parameters)"]
    facts = []
    if function.launch_bounds:
        threads, blocks = function.launch_bounds
        facts.append(f"launch bounds {threads} threads" + (f", min {blocks} blocks/SM" if blocks else ""))
    shared = [decl for decl in view.shared if decl.function is not None
              and decl.function.start_byte == function.node.start_byte]
    static = sum(decl.size_bytes or 0 for decl in shared if not decl.is_extern)
    if static:
        facts.append(f"static shared memory {human_bytes(static)}")
    if any(decl.is_extern for decl in shared):
        facts.append("dynamic shared memory (sized at launch)")
    launches = [launch for launch in view.launches if launch.kernel == function.name]
    if launches:
        blocks = sorted({launch.block.text for launch in launches if launch.block is not None})
        facts.append(f"{len(launches)} launch(es) here" + (f", block {', '.join(blocks)}" if blocks else ""))
    if facts:
        out.append(" · ".join(facts))
    if kernel_figures is not None:
        out.append(kernel_figures(document, function.name))
    out += _measured(document, function.name)
    return "\n\n".join(out)


def _measured(document: Document, kernel: str) -> list[str]:
    """What profiles in `.hiera/` measured for kernels of this name (registers etc. when recorded)."""
    if not document.path:
        return []
    lines = []
    for record in all_records(document.path):
        profile = record.profile
        for entry in profile.kernels if profile else []:
            if not _names_kernel(entry.name, kernel):
                continue
            parts = [f"measured {_ms(entry.ms)} ({100 * (entry.share or 0):.0f}% of "
                     f"{record.class_name or '?'} in {os.path.basename(record.file) or '?'})"]
            for value, label in ((entry.registers, "registers"), (entry.spills, "spill bytes"),
                                 (entry.shared_bytes, "shared memory bytes"), (entry.occupancy, "occupancy")):
                if value is not None:
                    parts.append(f"{label} {value}")
            parts.append(f"on {profile.device_name or '?'} · {profile.date}")
            lines.append(" · ".join(parts))
    return lines or ["Not measured yet: optimize or profile the module that launches it."]


def _names_kernel(profiled: str, kernel: str) -> bool:
    """Profiler names are demangled signatures, e.g. `void scale<float>(float const*, ...)`."""
    head = profiled.split("(", 1)[0].replace("<", " ").replace(":", " ").split()
    return kernel in head

"""The shared-memory rules: HC117 (a thread reads what another wrote with no barrier between) and
HC119 (a shared array read but never written)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from tree_sitter import Node

from hiera_core.analysis.cuda_document import TYPE_SIZES, CudaDocument
from hiera_core.analysis.cuda_flow import FunctionFlow
from hiera_core.analysis.cuda_regions import Region, Subscript, display
from hiera_core.analysis.cuda_rules.common import BARRIERS, short, unparen
from hiera_core.analysis.cuda_syntax import node_text
from hiera_core.analysis.findings import Finding, Span
from hiera_core.analysis.rules import finding

# calls after which shared memory written by other threads is visible: block and warp barriers,
# cooperative groups' sync(), cuda::barrier / pipeline waits, inline PTX
_SYNC_NAME_RE = re.compile(r"(?:sync|barrier|arrive|wait|fence)\w*$|^asm$", re.IGNORECASE)


def _shared_names(flow: FunctionFlow) -> set[str]:
    """Names of the shared arrays a GPU function can see: its own and the file's."""
    return {decl.name for decl in flow.doc.shared_in(None) + flow.doc.shared_in(flow.function.node)}


# -- HC117, HC119 (shared memory) ---------------------------------------------------------------
def syncing_functions(flows: list[FunctionFlow]) -> set[str]:
    """GPU functions of the file that contain a barrier, directly or through each other."""
    calls = {flow.function.name: {call.name for call in flow.calls} for flow in flows}
    syncing = {name for name, called in calls.items() if any(_is_sync_name(callee) for callee in called)}
    changed = True
    while changed:
        changed = False
        for name, called in calls.items():
            if name not in syncing and called & syncing:
                syncing.add(name)
                changed = True
    return syncing


def _is_sync_name(name: str) -> bool:
    return name in BARRIERS or bool(_SYNC_NAME_RE.search(name.rsplit(".", 1)[-1].rsplit("::", 1)[-1]))


def shared_race(flow: FunctionFlow, path: str, syncing: set[str]) -> Iterator[Finding]:
    shared = _shared_names(flow)
    if not shared:
        return
    events: list[tuple[int, int, Subscript | None]] = [
        (access.node.start_byte, 1 if access.is_write else 2, access) for access in flow.subscripts
        if display(access.base) in shared]
    if not events:
        return
    barriers = sorted(call.node.start_byte for call in flow.calls if _is_sync_name(call.name) or call.name in syncing)
    events += [(start, 0, None) for start in barriers]
    events.sort(key=lambda event: (event[2].stored_at if event[1] == 1 else event[0], -event[1]))
    writes: dict[str, list[Subscript]] = {}
    reported: set[int] = set()
    for _, kind, event in events:
        if event is None:
            writes.clear()
            continue
        if kind == 1:
            writes.setdefault(event.base, []).append(event)
            continue
        for write in writes.get(event.base, ()):
            if _other_threads_wrote(flow, write, event) and not _loop_synchronises(write, event, barriers) \
                    and event.node.start_point[0] not in reported:
                reported.add(event.node.start_point[0])
                yield finding("HC117", f"{node_text(event.node)} reads shared memory that other threads wrote at "
                              f"line {write.node.start_point[0] + 1} ({short(write.node)}) with no barrier between",
                              path, Span.of(event.node), "put __syncthreads() between the write and the read")
                break
    for write, read in _loop_carried_races(flow, shared, barriers, reported):
        yield finding("HC117", f"{node_text(read.node)} reads shared memory that other threads wrote in the previous "
                      f"pass of the loop ({short(write.node)}, line {write.node.start_point[0] + 1}) with no barrier "
                      "in the loop", path, Span.of(read.node), "put __syncthreads() at the end of the loop body")


def _loop_carried_races(flow: FunctionFlow, shared: set[str], barriers: list[int],
                        reported: set[int]) -> Iterator[tuple[Subscript, Subscript]]:
    """(write, read) pairs of one loop without a barrier: the next pass reads what another thread
    wrote in this one (`for (...) if (t < s) a[t] += a[t + s];`)."""
    accesses = [access for access in flow.subscripts if display(access.base) in shared]
    loops: dict[int, Region] = {}
    for access in accesses:
        if access.is_write:
            for region in FunctionFlow.controlling(access, with_exits=False):
                if region.kind in ("for", "while", "do"):
                    loops.setdefault(region.condition.id, region)
    for loop in loops.values():
        at = bisect.bisect_left(barriers, loop.start)
        if at < len(barriers) and barriers[at] < loop.end:
            continue
        inside = [access for access in accesses if loop.start <= access.node.start_byte < loop.end]
        for write in (access for access in inside if access.is_write):
            for read in inside:
                if read.base == write.base and (not read.is_write or read.is_update) and read is not write \
                        and read.node.start_point[0] not in reported and _other_threads_wrote(flow, write, read):
                    reported.add(read.node.start_point[0])
                    yield write, read


def _loop_synchronises(write: Subscript, read: Subscript, barriers: list[int]) -> bool:
    """Whether the write sits in a loop with a barrier that the read is outside of: such loops (tree
    reductions, scans) usually narrow to one thread by the last pass, which is not known here."""
    for region in FunctionFlow.controlling(write, with_exits=False):
        if region.kind in ("for", "while", "do") and not region.start <= read.node.start_byte < region.end:
            at = bisect.bisect_left(barriers, region.start)
            if at < len(barriers) and barriers[at] < region.end:
                return True
    return False


def _index_text(access: Subscript) -> str:
    return "".join("".join(node_text(index).split()) for index in access.indices)


def _offset_of(write: Subscript, read: Subscript) -> bool:
    """Whether the read's last index is the write's plus or minus a term (`s[t]` / `s[t + stride]`)."""
    if len(write.indices) != len(read.indices) or not read.indices[-1].named_children:
        return False
    node = unparen(read.indices[-1].named_children[0])
    operator = node.child_by_field_name("operator") if node.type == "binary_expression" else None
    left = node.child_by_field_name("left") if operator is not None else None
    written = write.indices[-1].named_children[0] if write.indices[-1].named_children else None
    return operator is not None and operator.type in ("+", "-") and left is not None and written is not None \
        and "".join(node_text(left).split()) == "".join(node_text(unparen(written)).split()) \
        and all(_index_text_of(a) == _index_text_of(b) for a, b in zip(write.indices[:-1], read.indices[:-1],
                                                                          strict=True))


def _index_text_of(index: Node) -> str:
    return "".join(node_text(index).split())


def _index_names(flow: FunctionFlow, access: Subscript) -> set[str]:
    return set().union(*(flow.names_in(index) for index in access.indices))


def _other_threads_wrote(flow: FunctionFlow, write: Subscript, read: Subscript) -> bool:
    """Whether `read` can see an element that a thread other than the reader wrote in `write`."""
    write_by_thread = any(flow.is_thread_dependent(index) for index in write.indices)
    if write_by_thread:
        # a neighbour's element: the same variables combined differently (`s[t]` / `s[t + 1]`, `s[y][x]` /
        # `s[x][y]`); other variables (double buffers, `s[a]` / `s[b]`) are not known to meet
        if _index_text(write) == _index_text(read):
            return False
        return _index_names(flow, write) == _index_names(flow, read) or _offset_of(write, read)
    # one element written by some threads (`if (tid == 0) s[0] = v;`), read by the others
    selecting = next((region for region in flow.controlling(write) if flow.region_is_thread_dependent(region)), None)
    return selecting is not None and selecting not in set(flow.controlling(read))


def unwritten_shared(doc: CudaDocument, flows: list[FunctionFlow], path: str) -> Iterator[Finding]:
    """HC119: a __shared__ array (or scalar) that is read but that no code of the file writes or hands on."""
    by_function = {flow.function.node.id: flow for flow in flows}
    for decl in doc.shared:
        if decl.function is None:
            scope = flows
        else:
            scope = [by_function[decl.function.id]] if decl.function.id in by_function else []
        reads: list[tuple[int, int]] = []  # (start, end) bytes
        written = False
        for flow in scope:
            variables = {name for _, name in flow.idents if display(name) == decl.name}
            accesses = [access for access in flow.subscripts if access.base in variables]
            bases = {access.node.start_byte for access in accesses}
            plain = [start for start, name in flow.idents if name in variables and start not in bases]
            # `s[i] += v` reads the element first: only plain stores initialise it
            written = written or bool(variables & flow.assigned) or any(
                access.is_write and not access.is_update for access in accesses)
            if decl.is_array:
                # used other than as `s[i]` (a pointer taken, passed to a call, asm): it may be written there
                written = written or bool(plain)
                reads += [(access.node.start_byte, access.node.end_byte) for access in accesses
                          if not access.is_write or access.is_update]
            elif decl.element_type in TYPE_SIZES:
                # a scalar of a class type (`cub::BlockScan<...>::TempStorage`) is handed to its
                # constructor by reference: only plain numbers are known to be read as values
                reads += [(start, start + len(decl.name)) for start in plain]
        if reads and not written:
            start, end = min(reads)
            text = doc.source[start:end].decode("utf-8", "replace")
            yield finding("HC119", f"{text} reads __shared__ '{decl.name}', which no thread writes", path,
                          _byte_span(doc.source, start, end),
                          f"store into {decl.name} (and __syncthreads()) before reading it")


def _byte_span(source: bytes, start: int, end: int) -> Span:
    line = source.count(b"\n", 0, start)
    column = start - (source.rfind(b"\n", 0, start) + 1)
    return Span(start, end, line, column, line, column + end - start)

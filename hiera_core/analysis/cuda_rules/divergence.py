"""The rules about threads that do not all arrive: HC102/HC103 (barriers under divergence or after
an early exit), HC104/HC121 (warp intrinsics and their masks) and HC112 (legacy warp intrinsics)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from hiera_core.analysis import cexpr
from hiera_core.analysis.cuda_document import WARP_SIZE, CudaDocument
from hiera_core.analysis.cuda_flow import FunctionFlow, inactive_for_cuda
from hiera_core.analysis.cuda_regions import Call, Region
from hiera_core.analysis.cuda_rules.common import BARRIERS, comparisons, operator_text, short, unparen
from hiera_core.analysis.cuda_syntax import node_text
from hiera_core.analysis.findings import Finding, Span
from hiera_core.analysis.rules import finding

FULL_MASK = 0xFFFFFFFF
MASKED_WARP_INTRINSICS = {
    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
    "__all_sync", "__any_sync", "__uni_sync", "__match_any_sync", "__match_all_sync", "__syncwarp",
    "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
    "__reduce_or_sync", "__reduce_xor_sync",
}
LEGACY_WARP_INTRINSICS = {"__shfl": "__shfl_sync", "__shfl_up": "__shfl_up_sync",
                          "__shfl_down": "__shfl_down_sync", "__shfl_xor": "__shfl_xor_sync",
                          "__ballot": "__ballot_sync", "__any": "__any_sync", "__all": "__all_sync"}


# -- HC102, HC103 -------------------------------------------------------------------------------
def divergent_barrier(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for call in flow.calls:
        if call.name not in BARRIERS or inactive_for_cuda(call.node):
            continue
        branch = next((region for region in flow.controlling(call, with_exits=False)
                       if flow.region_is_thread_dependent(region) and not flow.has_uniform_trip_count(region)),
                      None)
        if branch is not None:
            yield finding("HC102", f"{call.name}() under a {_describe(branch.kind)} on `{short(branch.condition)}`"
                          f" (line {branch.condition.start_point[0] + 1}), which depends on threadIdx: threads that "
                          "skip it never arrive", path, Span.of(call.node),
                          "move the barrier out of the conditional; make only the work conditional")
            continue
        exit_region = next((region for region in flow.controlling(call) if region.kind == "exit"
                            and flow.region_is_thread_dependent(region) and not _exits_whole_warps(flow, region)),
                           None)
        if exit_region is not None:
            yield finding("HC103", f"{call.name}() after threads may have exited early on "
                          f"`{short(exit_region.condition)}` (line {exit_region.condition.start_point[0] + 1})",
                          path, Span.of(call.node), "keep all threads until the last barrier; guard loads and stores")


def _exits_whole_warps(flow: FunctionFlow, region: Region) -> bool:
    """Whether an exit on a flat thread index (`if (index >= n) return;`, index = threadIdx.x + blockIdx.x
    * blockDim.x) drops whole warps: the kernel then makes `index / W`, W a multiple of 32, its work
    item (a warp per pixel: n counts items x W threads), so no warp is left with some lanes gone."""
    if region.kind != "exit":
        return False
    indices = {node_text(side) for left, _, right in comparisons(region.condition) for side in (left, right)
               if side.type == "identifier"}
    flat = set()
    for name in indices:
        values = flow.values_of(flow.variable_at(_first_identifier(region.condition, name)))
        if values and re.fullmatch(r"threadIdx\.x\+blockIdx\.x\*blockDim\.x|blockIdx\.x\*blockDim\.x\+threadIdx\.x",
                                   "".join(node_text(values[0]).split())):
            flat.add(name)
    if not flat:
        return False
    todo = [flow.function.body] if flow.function.body is not None else []
    while todo:
        node = todo.pop()
        if node.end_byte <= region.condition.end_byte:
            continue
        if node.type == "binary_expression" and operator_text(node) == "/" and node.start_byte > region.condition.end_byte:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and node_text(unparen(left)) in flat \
                    and _whole_warps(flow.doc, right, node.start_byte):
                return True
        todo += node.named_children
    return False


def _whole_warps(doc: CudaDocument, node: Node, at: int) -> bool:
    """Whether `node` is a positive multiple of 32, or a macro every #define of which is one (WARP_SIZE
    defined 64 under HIP and 32 for CUDA)."""
    value = doc.constants.int_at(node, at)
    if value is not None:
        return value > 0 and value % 32 == 0
    if node.type != "identifier":
        return False
    definitions = re.findall(rb"^[ \t]*#[ \t]*define[ \t]+" + re.escape(node.text) + rb"\b[ \t]*([^\n]*)",
                             doc.code_text, re.MULTILINE)
    values = [cexpr.parse_int_literal(text.strip().decode("utf-8", "replace")) for text in definitions]
    return bool(values) and all(value is not None and value > 0 and value % 32 == 0 for value in values)


def _first_identifier(node: Node, name: str) -> Node:
    todo = [node]
    while todo:
        current = todo.pop()
        if current.type == "identifier" and node_text(current) == name:
            return current
        todo += current.named_children
    return node


# -- HC104, HC121 -------------------------------------------------------------------------------
def _mask_value(flow: FunctionFlow, call: Call) -> tuple[Node | None, int | None]:
    args = call.node.child_by_field_name("arguments")
    mask = args.named_children[0] if args is not None and args.named_children else None
    if mask is None:
        return None, FULL_MASK if call.name == "__syncwarp" else None
    value = flow.doc.constants.int_at(mask, mask.start_byte)
    return mask, None if value is None else value & FULL_MASK


def divergent_warp_intrinsic(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for call in flow.calls:
        if call.name not in MASKED_WARP_INTRINSICS or _mask_value(flow, call)[1] != FULL_MASK \
                or inactive_for_cuda(call.node):
            continue
        region = next((region for region in flow.controlling(call) if flow.is_lane_divergent(region.condition)
                       and not _exits_whole_warps(flow, region)), None)
        if region is not None:
            where = "an early exit on" if region.kind == "exit" else f"a {_describe(region.kind)} on"
            yield finding("HC104", f"{call.name}() with the full mask after {where} `{short(region.condition)}` "
                          f"(line {region.condition.start_point[0] + 1}), which differs between lanes of a warp",
                          path, Span.of(call.node),
                          "call it where all 32 lanes are active, or pass the mask of the active lanes")


def partial_shuffle_mask(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for call in flow.calls:
        if call.name not in MASKED_WARP_INTRINSICS:
            continue
        mask_node, mask = _mask_value(flow, call)
        if mask_node is None or mask is None or mask in (FULL_MASK, 0):
            continue
        needed = _lanes_reached(flow, call)
        if needed is not None and mask & needed != needed:
            yield finding("HC121", f"{call.name}() with mask {node_text(mask_node)} exchanges with lanes outside the "
                          f"mask: its offsets reach lanes up to {needed.bit_length() - 1}", path, Span.of(call.node),
                          f"use the mask of every lane that takes part, here {needed:#x}")
            continue
        active = _active_lanes(flow, call)
        if active is not None and active != mask:
            yield finding("HC121", f"{call.name}() with mask {node_text(mask_node)} but lanes {active:#x} run it: "
                          "each calling lane must be in the mask and each lane in the mask must call it", path,
                          Span.of(call.node), f"pass {active:#x}, or take the mask with __ballot_sync before "
                          "the branch")


def _lanes_reached(flow: FunctionFlow, call: Call) -> int | None:
    """The lanes a shuffle reaches through its offset: `__shfl_down_sync(m, v, 16)`, or a loop
    variable starting at 16, exchanges between lanes 0..31, so all of them take part."""
    if call.name not in ("__shfl_down_sync", "__shfl_xor_sync", "__shfl_up_sync"):
        return None
    args = call.node.child_by_field_name("arguments")
    parts = [arg for arg in (args.named_children if args else []) if arg.type != "comment"]
    if len(parts) < 3:
        return None
    offset = _largest_value(flow, parts[2])
    if offset is None or offset <= 0:
        return None
    width = _largest_value(flow, parts[3]) if len(parts) > 3 else WARP_SIZE
    lanes = min(2 * offset if call.name != "__shfl_xor_sync" else 2 * (1 << (offset.bit_length() - 1)),
                width or WARP_SIZE, WARP_SIZE)
    return (1 << lanes) - 1


def _largest_value(flow: FunctionFlow, node: Node) -> int | None:
    """A constant, or the initial value of a loop variable (the largest offset of a halving loop)."""
    value = _int_with_warp_size(flow, node)
    if value is not None or unparen(node).type != "identifier":
        return value
    variable = flow.variable_at(unparen(node))
    declaration = next((d for d in flow.declarations if d.variable == variable), None)
    return None if declaration is None else _int_with_warp_size(flow, declaration.value)


def _int_with_warp_size(flow: FunctionFlow, node: Node) -> int | None:
    value = flow.doc.constants.int_at(node, node.start_byte)
    if value is None and "warpSize" in node_text(node):
        try:
            value = cexpr.parse(node_text(node)).evaluate(lambda name: WARP_SIZE if name == "warpSize" else None)
        except cexpr.CExprError:
            return None
    return value


def _active_lanes(flow: FunctionFlow, call: Call) -> int | None:
    """The lanes that reach `call` when the code says: all 32 in a kernel without lane-dependent control,
    lanes 0..K-1 under `if (lane < K)`; None when that is not known."""
    for region in flow.controlling(call):
        if flow.is_lane_divergent(region.condition):
            bound = flow.lane_bound(region.condition) if region.kind != "exit" else None
            return None if bound is None else (1 << bound) - 1
    if not flow.function.is_kernel:
        return None  # a device function's callers decide
    launches = [launch for launch in flow.doc.launches if launch.kernel == flow.function.name]
    if any(launch.block is None or launch.block.dims is None for launch in launches):
        return None
    widths = {launch.block.dims[0] for launch in launches if launch.block is not None and launch.block.dims}
    if len(widths) > 1 or (widths and min(widths) % WARP_SIZE and min(widths) > WARP_SIZE):
        return None
    width = min(widths) if widths else WARP_SIZE
    return FULL_MASK if width >= WARP_SIZE else (1 << width) - 1


# -- HC112 --------------------------------------------------------------------------------------
def legacy_warp_intrinsic(flow: FunctionFlow, path: str) -> Iterator[Finding]:
    for call in flow.calls:
        # in a HIP-only branch the non-_sync intrinsics are the HIP API
        if call.name in LEGACY_WARP_INTRINSICS and not inactive_for_cuda(call.node):
            replacement = LEGACY_WARP_INTRINSICS[call.name]
            yield finding("HC112", f"{call.name}() was removed for sm_70 and later", path, Span.of(call.node),
                          f"use {replacement}(0xffffffff, ...) with the mask of participating lanes")


def _describe(kind: str) -> str:
    return {"if": "branch", "ternary": "conditional expression", "switch": "switch"}.get(kind, f"{kind} loop")

"""How a row kernel's reductions group into sweeps over the row (`plan_passes`), and the device
helpers every form of the row kernel reduces with: warp and block reductions, online softmax
statistics. Pure (no torch): text generation only.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_core.spaces.custom_cuda.expr import Expr, reductions_in
from hiera_core.spaces.custom_cuda.fused import BLOCK_REDUCE

ROW_THREADS = 256  # most threads per row block (the host picks 32..256 by row length)
REGISTER_ITEMS = (4, 8)  # float4s a thread holds of a row kept in registers (`_hiera_row_registers`)

ROW_HELPERS = BLOCK_REDUCE + r"""// Online softmax statistics: running max m and sum s of exp(v - m), merged pairwise.
// One exp per element: the running sum is rescaled only when the maximum grows.
__device__ __forceinline__ void hi_online_add(float& m, float& s, float v) {
    if (v > m) { s = (m == -__int_as_float(0x7f800000)) ? 0.0f : s * expf(m - v); m = v; }
    s += (m == -__int_as_float(0x7f800000)) ? 0.0f : expf(v - m);
}
__device__ __forceinline__ void hi_online_merge(float& m, float& s, float m2, float s2) {
    const float top = hi_max(m, m2);
    s = (top == -__int_as_float(0x7f800000)) ? 0.0f : s * expf(m - top) + s2 * expf(m2 - top);
    m = top;
}
// Warp-wide reductions, for rows a warp each (eight to a block): no barrier, no shared memory.
#define HI_WARP_REDUCE(NAME, OP)                                                     \
__device__ __forceinline__ float NAME(float v) {                                   \
    for (int o = 16; o > 0; o >>= 1) v = OP(v, __shfl_xor_sync(0xffffffffu, v, o)); \
    return v;                                                                       \
}
HI_WARP_REDUCE(hi_warp_sum, HI_SUM)
HI_WARP_REDUCE(hi_warp_max, HI_MAX)
HI_WARP_REDUCE(hi_warp_min, HI_MIN)
__device__ __forceinline__ void hi_warp_online(float& m, float& s) {
    for (int o = 16; o > 0; o >>= 1)
        hi_online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
}
__device__ __forceinline__ void hi_block_online(float& m, float& s, float* red) {
    for (int o = 16; o > 0; o >>= 1)
        hi_online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
    __syncthreads();
    if ((threadIdx.x & 31) == 0) { red[threadIdx.x >> 5] = m; red[32 + (threadIdx.x >> 5)] = s; }
    __syncthreads();
    const bool live = (threadIdx.x & 31) < (blockDim.x >> 5);
    m = live ? red[threadIdx.x & 31] : -__int_as_float(0x7f800000);
    s = live ? red[32 + (threadIdx.x & 31)] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
        hi_online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
}
"""

BLOCK_REDUCERS = {"rsum": "hi_block_sum", "rmax": "hi_block_max", "rmin": "hi_block_min"}
WARP_REDUCERS = {"rsum": "hi_warp_sum", "rmax": "hi_warp_max", "rmin": "hi_warp_min"}
COMBINE = {"rsum": "{acc} += {v};", "rmax": "{acc} = hi_max({acc}, {v});", "rmin": "{acc} = hi_min({acc}, {v});"}
IDENTITY = {"rsum": "0.0f", "rmax": "-__int_as_float(0x7f800000)", "rmin": "__int_as_float(0x7f800000)"}


@dataclass
class RowPass:
    """One sweep over the row: accumulators for some reductions (an online-softmax pair counts once)."""

    reductions: list[Expr]
    online: list[tuple[Expr, Expr]]  # (rmax node, rsum node) computed together in one pass

    def scalars(self) -> list[Expr]:
        """The row scalars the sweep binds: its reductions, then each online pair's max and sum (the
        order a split block stores its partials in)."""
        return self.reductions + [r for pair in self.online for r in pair]


def plan_passes(reds: list[Expr]) -> list[RowPass]:
    """Reductions grouped by nesting depth; max(A) then sum(exp(A - max)) fused into one online pass."""
    depth: dict[Expr, int] = {}
    for r in reds:  # children first: inner reductions already have their depth
        inner = [depth[x] for x in reductions_in([r.args[0]])]
        depth[r] = 1 + max(inner, default=0)
    online: dict[Expr, Expr] = {}
    for r in reds:
        arg = r.args[0]
        if r.op == "rsum" and arg.op == "exp" and arg.args[0].op == "sub" and arg.args[0].params == (1.0,):
            shifted, peak = arg.args[0].args
            if peak.op == "rmax" and peak.args[0] == shifted and peak.params == r.params and peak not in online:
                online[peak] = r
    paired = set(online.values())
    passes = []
    for level in range(1, max(depth.values(), default=0) + 1):
        members = [r for r in reds if depth[r] == level and r not in paired]
        if members:
            passes.append(RowPass([r for r in members if r not in online], [(r, online[r]) for r in members if r in online]))
    return passes


def partial_count(passes: list[RowPass]) -> int:
    """Floats of partial statistics a split block writes: one a reduction, two an online pair."""
    return sum(len(p.scalars()) for p in passes)


def cached_read(kind: str, k: int, direct: str, cache: str, stored: bool) -> list[str]:
    """Statements reading cached leaf k into v{k}: from the cache once an earlier sweep `stored` it,
    else read `direct` and stored; the cache only where the host found room (flag `use_cache`)."""
    if stored:
        return [f"const {kind} v{k} = use_cache ? {cache} : {direct};"]
    return [f"const {kind} v{k} = {direct};", f"if (use_cache) {cache} = v{k};"]

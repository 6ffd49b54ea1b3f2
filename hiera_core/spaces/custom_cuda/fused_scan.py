"""CUDA source of the scan template: the inclusive cumulative sum or product of a pointwise expression
along one dim, forward or reversed (the suffix scan that `flip(cumsum(flip(x)))` computes), the
expression computed as it is read and never written. Pure (no torch): text generation only; leaves
are read through the modes of `fused`.

Along the last dim (`{name}_vec32/_vec64/_scalar32/_scalar64`): one block per row (grid-stride),
the row in tiles of 4 elements a thread: each thread scans its 4 in registers, warps scan the
threads' totals with shuffles, one shared-memory hop scans the warps', and a carry takes the tile's
total to the next tile. Along another dim of a contiguous (outer, R, inner) view
(`{name}_cols32/_cols64`): one thread per (outer, inner) column walking R, so each step of a warp
reads consecutive inner positions. Columns too few to fill the GPU (a sequence's prefix sum over
16 heads of 256 features: 4096 threads walking 4096 steps) take `{name}_colsplit32/_colsplit64`:
each column's R in chunks, a thread each, in two launches (`stage`): the chunks' totals, then each
chunk's scan from the carry of the totals before it. No atomics: the order of the additions is
fixed, results repeat.
"""

from __future__ import annotations

from hiera_core.spaces.custom_cuda.expr import Expr
from hiera_core.spaces.custom_cuda.fused import (
    LANES,
    KernelSource,
    element_kernel,
    entry_guard,
    entry_points,
    epilogue_function,
    leaf_args,
    leaf_params,
    leaf_reads,
    leaf_reads_source,
)

SCAN_OPS = {"sum": ("HI_SCAN_OP(a, b) ((a) + (b))", "0.0f"), "prod": ("HI_SCAN_OP(a, b) ((a) * (b))", "1.0f")}
COLUMN_THREADS = 256


def scan_source(name: str, value: Expr, op: str, epilogue: Expr | None = None
                ) -> tuple[KernelSource, list[Expr], list[bool]]:
    """The scan kernels of `value` (a pointwise expression, no reductions) with `op` ("sum" |
    "prod"), `epilogue` (a pointwise expression of the scan, `fused.TEMPLATE_OUTPUT`) applied as
    each result is stored. Returns the source, the leaves in argument order and whether each is
    read FULL."""
    if op not in SCAN_OPS:
        raise ValueError(f"unknown scan {op}")
    combine, identity = SCAN_OPS[op]
    kernel = element_kernel([value])
    leaves, full, element = kernel.leaves, kernel.full, kernel.function
    count = len(leaves)
    params = (f"{leaf_params(count)}, float* __restrict__ out, long long rows_, long long length_, "
              f"long long inner_, long long cols_, long long reverse_{kernel.number_params}")
    args = f"{leaf_args(count)}, out, rows_, length_, inner_, cols_, reverse_{kernel.number_args}"
    newline = "\n                "
    vec_lanes = newline.join(kernel.call([f"v{k}.{lane}" for k in range(count)], [f"r.{lane}"]) for lane in LANES)
    scalar_call = kernel.call([f"v{k}" for k in range(count)], ["e[k]"])
    column_call = kernel.call([f"v{k}" for k in range(count)], ["e"])
    rows = f"""
template <typename I, bool VEC>
__device__ __forceinline__ void hi_scan({params}) {{
    __shared__ float warp_totals[32];
    const I rows = (I)rows_, cols = (I)cols_;
    const bool reverse = reverse_ != 0;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const I tile = (I)blockDim.x * 4;
    for (I row = blockIdx.x; row < rows; row += gridDim.x) {{
        float carry = {identity};
        for (I base = 0; base < cols; base += tile) {{
            // This thread's 4 consecutive positions p..p+3 along the scan (from the end when reversed).
            const I p = base + (I)threadIdx.x * 4;
            float e[4];
            if (VEC) {{  // cols % 4 == 0: the 4 positions are one float4 of the row
                if (p < cols) {{
                    const I j = reverse ? cols - 4 - p : p, i = row * cols + j;
                    {newline.join(leaf_reads(leaves, full, True))}
                    float4 r;
                    {vec_lanes}
                    e[0] = reverse ? r.w : r.x; e[1] = reverse ? r.z : r.y;
                    e[2] = reverse ? r.y : r.z; e[3] = reverse ? r.x : r.w;
                }} else {{
                    e[0] = e[1] = e[2] = e[3] = {identity};
                }}
            }} else {{
                #pragma unroll
                for (int k = 0; k < 4; ++k) {{
                    if (p + k < cols) {{
                        const I j = reverse ? cols - 1 - (p + k) : p + k, i = row * cols + j;
                        {newline.join(leaf_reads(leaves, full, False))}
                        {scalar_call}
                    }} else {{
                        e[k] = {identity};
                    }}
                }}
            }}
            e[1] = HI_SCAN_OP(e[0], e[1]); e[2] = HI_SCAN_OP(e[1], e[2]); e[3] = HI_SCAN_OP(e[2], e[3]);
            float t = e[3];  // inclusive scan of the threads' totals within the warp
            #pragma unroll
            for (int o = 1; o < 32; o <<= 1) {{
                const float up = __shfl_up_sync(0xffffffffu, t, o);
                if (lane >= o) t = HI_SCAN_OP(up, t);
            }}
            if (lane == 31) warp_totals[warp] = t;
            __syncthreads();
            if (warp == 0) {{
                float w = lane < warps ? warp_totals[lane] : {identity};
                #pragma unroll
                for (int o = 1; o < 32; o <<= 1) {{
                    const float up = __shfl_up_sync(0xffffffffu, w, o);
                    if (lane >= o) w = HI_SCAN_OP(up, w);
                }}
                if (lane < warps) warp_totals[lane] = w;
            }}
            __syncthreads();
            const float before = __shfl_up_sync(0xffffffffu, t, 1);
            float prefix = carry;
            if (warp > 0) prefix = HI_SCAN_OP(prefix, warp_totals[warp - 1]);
            if (lane > 0) prefix = HI_SCAN_OP(prefix, before);
            carry = HI_SCAN_OP(carry, warp_totals[warps - 1]);
            if (VEC) {{
                if (p < cols) {{
                    const I j = reverse ? cols - 4 - p : p;
                    const float a = hi_epilogue(HI_SCAN_OP(prefix, e[0])), b = hi_epilogue(HI_SCAN_OP(prefix, e[1]));
                    const float c = hi_epilogue(HI_SCAN_OP(prefix, e[2])), d = hi_epilogue(HI_SCAN_OP(prefix, e[3]));
                    *reinterpret_cast<float4*>(out + row * cols + j) = reverse ? make_float4(d, c, b, a)
                                                                               : make_float4(a, b, c, d);
                }}
            }} else {{
                #pragma unroll
                for (int k = 0; k < 4; ++k)
                    if (p + k < cols) out[row * cols + (reverse ? cols - 1 - (p + k) : p + k)] = hi_epilogue(HI_SCAN_OP(prefix, e[k]));
            }}
            __syncthreads();  // warp_totals is rewritten by the next tile
        }}
    }}
}}
"""
    rowcol = "const I row = i / cols, j = i - row * cols;" if not all(full) else ""
    split_params = (f"{leaf_params(count)}, float* __restrict__ out, long long rows_, long long length_, "
                    f"long long inner_, long long cols_, long long reverse_, float* __restrict__ parts, "
                    f"long long chunks_, long long stage{kernel.number_params}")
    split_args = f"{leaf_args(count)}, out, rows_, length_, inner_, cols_, reverse_, parts, chunks_, stage{kernel.number_args}"
    # the whole column: one chunk, its scan stage, no totals
    whole_args = f"{leaf_args(count)}, out, rows_, length_, inner_, cols_, reverse_, nullptr, 1LL, 1LL{kernel.number_args}"
    columns = f"""
template <typename I>
__device__ __forceinline__ void hi_scan_cols({split_params}) {{
    const I outer = (I)rows_, length = (I)length_, inner = (I)inner_, cols = (I)cols_, chunks = (I)chunks_;
    const bool reverse = reverse_ != 0;
    const I columns = outer * inner, per = (length + chunks - 1) / chunks;
    const I stride = (I)gridDim.x * blockDim.x;
    // a warp's threads: consecutive columns of one chunk
    for (I t = (I)blockIdx.x * blockDim.x + threadIdx.x; t < columns * chunks; t += stride) {{
        const I chunk = t / columns, column = t - chunk * columns;
        const I o = column / inner, c = column - o * inner;
        const I s0 = chunk * per, s1 = s0 + per < length ? s0 + per : length;
        float acc = {identity};
        if (stage == 1)  // the carry: the totals of the chunks before this one, in scan order
            for (I k = 0; k < chunk; ++k) acc = HI_SCAN_OP(acc, parts[k * columns + column]);
        #pragma unroll (sizeof(I) == 4 ? 4 : 1)  // unrolled 64-bit divisions spill
        for (I s = s0; s < s1; ++s) {{
            const I i = (o * length + (reverse ? length - 1 - s : s)) * inner + c;
            {rowcol}
            {newline.join(leaf_reads(leaves, full, False))}
            float e;
            {column_call}
            acc = HI_SCAN_OP(acc, e);
            if (stage == 1) out[i] = hi_epilogue(acc);
        }}
        if (stage == 0) parts[chunk * columns + column] = acc;
    }}
}}
"""
    column_entries = "".join(entry_guard(
        f"{name}_cols{bits}",
        f'extern "C" __global__ void __launch_bounds__({COLUMN_THREADS}) {name}_cols{bits}({params}) '
        f"{{ hi_scan_cols<{index}>({whole_args}); }}\n") for bits, index in (("32", "unsigned int"), ("64", "long long")))
    column_entries += "".join(entry_guard(
        f"{name}_colsplit{bits}",
        f'extern "C" __global__ void __launch_bounds__({COLUMN_THREADS}) {name}_colsplit{bits}({split_params}) '
        f"{{ hi_scan_cols<{index}>({split_args}); }}\n") for bits, index in (("32", "unsigned int"), ("64", "long long")))
    source = (f"// HIERA scan kernel {name}: inclusive cumulative {op} of {count} inputs' expression along one dim\n"
              + f"#define {combine}\n" + (leaf_reads_source(leaves) if not all(full) else "") + element + epilogue_function(epilogue) + rows + columns
              + entry_points(name, 256, params, "hi_scan", args) + column_entries)
    return KernelSource(name, source), leaves, full

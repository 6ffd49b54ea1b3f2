"""CUDA sources of the standalone templates: reductions over one dim, pooling, and radius-1
stencils. Pure (no torch): text generation only; the host side is in the proposal runtime.
"""

from __future__ import annotations

from hiera_core.spaces.custom_cuda.fused import KernelSource, entry_guard

REDUCE_OPS = ("sum", "mean", "amax", "amin", "argmax", "argmin")
REDUCE_SLICES = 8  # warps per block splitting the reduced dim in the column kernel


def reduce_source(name: str, op: str) -> KernelSource:
    """Reduce dim 1 of a contiguous (outer, R, inner) view.

    `_cols` (inner > 1): a warp spans 32 consecutive inner positions (coalesced), the block's 8
    warps interleave over R, and blockIdx.z splits R into chunks so that the grid fills the GPU;
    with several chunks, per-chunk partials go to a buffer that `_finalize` combines in chunk
    order (deterministic, no atomics). `_rows` (inner == 1): one warp per row, lanes striding R.
    Ties in arg-reductions go to the lowest index and NaN wins, as in PyTorch.
    """
    if op not in REDUCE_OPS:
        raise ValueError(f"unknown reduction {op}")
    code = REDUCE_OPS.index(op)
    cols = f"""extern "C" __global__ void __launch_bounds__(256) {name}_cols(
        const float* __restrict__ x, float* __restrict__ pv, long long* __restrict__ pi, float* __restrict__ ov,
        long long* __restrict__ oi, long long outer, long long R, long long inner, long long chunk, long long split) {{
    __shared__ float sv[{REDUCE_SLICES}][32];
    __shared__ long long si[{REDUCE_SLICES}][32];
    const long long c = (long long)blockIdx.x * 32 + threadIdx.x;
    const long long r0 = (long long)blockIdx.z * chunk, r1 = min(R, r0 + chunk);
    for (long long o = blockIdx.y; o < outer; o += gridDim.y) {{
        HiAcc acc = hi_identity();
        if (c < inner) {{
            const float* base = x + o * R * inner + c;
            #pragma unroll 4
            for (long long r = r0 + threadIdx.y; r < r1; r += {REDUCE_SLICES}) acc = hi_combine(acc, HiAcc{{base[r * inner], r}});
        }}
        sv[threadIdx.y][threadIdx.x] = acc.v;
        si[threadIdx.y][threadIdx.x] = acc.i;
        __syncthreads();
        if (threadIdx.y == 0 && c < inner) {{
            for (int k = 1; k < {REDUCE_SLICES}; ++k) acc = hi_combine(acc, HiAcc{{sv[k][threadIdx.x], si[k][threadIdx.x]}});
            if (split) {{
                const long long at = ((long long)blockIdx.z * outer + o) * inner + c;
                pv[at] = acc.v;
                pi[at] = acc.i;
            }} else {{
                hi_store(ov, oi, o * inner + c, acc, R);
            }}
        }}
        __syncthreads();
    }}
}}
"""
    finalize = f"""extern "C" __global__ void __launch_bounds__(256) {name}_finalize(
        const float* __restrict__ pv, const long long* __restrict__ pi, float* __restrict__ ov,
        long long* __restrict__ oi, long long chunks, long long count, long long R) {{
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < count; k += (long long)gridDim.x * blockDim.x) {{
        HiAcc acc = hi_identity();
        for (long long s = 0; s < chunks; ++s) acc = hi_combine(acc, HiAcc{{pv[s * count + k], pi[s * count + k]}});
        hi_store(ov, oi, k, acc, R);
    }}
}}
"""
    rows = f"""extern "C" __global__ void __launch_bounds__(256) {name}_rows(
        const float* __restrict__ x, float* __restrict__ ov, long long* __restrict__ oi, long long rows, long long R) {{
    const int lane = threadIdx.x & 31;
    const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
    for (long long row = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); row < rows; row += warps) {{
        HiAcc acc = hi_identity();
        for (long long r = lane; r < R; r += 32) acc = hi_combine(acc, HiAcc{{x[row * R + r], r}});
        for (int o = 16; o > 0; o >>= 1)
            acc = hi_combine(acc, HiAcc{{__shfl_xor_sync(0xffffffffu, acc.v, o), __shfl_xor_sync(0xffffffffu, acc.i, o)}});
        if (lane == 0) hi_store(ov, oi, row, acc, R);
    }}
}}
"""
    cols, finalize, rows = (entry_guard(f"{name}_{entry}", text)
                            for entry, text in (("cols", cols), ("finalize", finalize), ("rows", rows)))
    source = f"""// HIERA dim reduction {name}: {op}
#define HI_OP {code}
#define HI_ARG (HI_OP >= 4)
struct HiAcc {{ float v; long long i; }};
__device__ __forceinline__ HiAcc hi_identity() {{
    const float inf = __int_as_float(0x7f800000);
    return HiAcc{{HI_OP <= 1 ? 0.0f : (HI_OP == 2 || HI_OP == 4) ? -inf : inf, 0x7fffffffffffffffLL}};
}}
// b is kept over a when it is larger (max) / smaller (min), NaN, or equal with a lower index.
__device__ __forceinline__ HiAcc hi_combine(HiAcc a, HiAcc b) {{
    if (HI_OP <= 1) return HiAcc{{a.v + b.v, 0}};
    const bool a_nan = a.v != a.v, b_nan = b.v != b.v;
    const bool wins = (HI_OP == 2 || HI_OP == 4) ? b.v > a.v : b.v < a.v;
    const bool ties = (a.v == b.v || (a_nan && b_nan)) && b.i < a.i;
    return ((b_nan && !a_nan) || (!a_nan && wins) || ties) ? b : a;
}}
__device__ __forceinline__ void hi_store(float* ov, long long* oi, long long at, HiAcc acc, long long count) {{
    if (HI_ARG) oi[at] = acc.i;
    else ov[at] = HI_OP == 1 ? acc.v / (float)count : acc.v;
}}
{cols}{finalize}{rows}"""
    return KernelSource(name, source)


def pool_source(name: str, config: dict) -> KernelSource:
    """Max/avg pooling over 1-3 trailing dims (mapped to D, H, W with unit extra dims), one thread
    per output element, 32-bit indices inside a plane; the window's shape, stride, padding and
    dilation are compile-time constants (fully unrolled loops). Averages follow PyTorch's divisor rules (padding counted up
    to the padded border, count_include_pad, divisor_override); max propagates NaN."""
    rank = config["rank"]

    def dims(key: str, fill: int) -> tuple[int, int, int]:
        values = tuple(config[key]) if key in config else (fill,) * rank
        return (fill,) * (3 - rank) + values

    (kd, kh, kw), (sd, sh, sw), (pd, ph, pw) = dims("kernel", 1), dims("stride", 1), dims("padding", 0)
    dd, dh, dw = dims("dilation", 1) if config["kind"] == "max" else (1, 1, 1)
    divisor = config.get("divisor_override") or 0
    source = f"""// HIERA {config['kind']}_pool{rank}d {name}: kernel {config['kernel']}, stride {config['stride']}, padding {config['padding']}
constexpr int KD = {kd}, KH = {kh}, KW = {kw}, SD = {sd}, SH = {sh}, SW = {sw};
constexpr int PD = {pd}, PH = {ph}, PW = {pw}, DD = {dd}, DH = {dh}, DW = {dw};
constexpr bool IS_MAX = {'true' if config['kind'] == 'max' else 'false'};
constexpr bool COUNT_PAD = {'true' if config.get('count_include_pad', True) else 'false'};
constexpr int DIVISOR = {int(divisor)};
extern "C" __global__ void __launch_bounds__(256) {name}(const float* __restrict__ x, float* __restrict__ out,
        long long planes, long long D_, long long H_, long long W_, long long OD_, long long OH_, long long OW_) {{
    const int D = (int)D_, H = (int)H_, W = (int)W_, OD = (int)OD_, OH = (int)OH_, OW = (int)OW_;
    // blockIdx.y walks (plane, output depth); x threads walk one output plane with 32-bit indices.
    const unsigned area = (unsigned)OH * OW;
    for (long long pz = blockIdx.y; pz < planes * OD; pz += gridDim.y) {{
        const int od = (int)(pz % OD);
        const float* src = x + pz / OD * D * H * W;
        float* dst = out + pz * area;
        for (unsigned s = blockIdx.x * blockDim.x + threadIdx.x; s < area; s += gridDim.x * blockDim.x) {{
            const int ow = (int)(s % OW), oh = (int)(s / OW);
            const int d0 = od * SD - PD, h0 = oh * SH - PH, w0 = ow * SW - PW;
            float acc = IS_MAX ? -__int_as_float(0x7f800000) : 0.0f;
            #pragma unroll
            for (int a = 0; a < KD; ++a) {{
                const int d = d0 + a * DD;
                if (d < 0 || d >= D) continue;
                #pragma unroll
                for (int b = 0; b < KH; ++b) {{
                    const int h = h0 + b * DH;
                    if (h < 0 || h >= H) continue;
                    #pragma unroll
                    for (int c = 0; c < KW; ++c) {{
                        const int w = w0 + c * DW;
                        if (w < 0 || w >= W) continue;
                        const float v = src[(d * H + h) * W + w];
                        if (IS_MAX) {{ if (v > acc || v != v) acc = v; }} else acc += v;
                    }}
                }}
            }}
            if (!IS_MAX) {{
                const int d1 = min(d0 + KD, D + PD), h1 = min(h0 + KH, H + PH), w1 = min(w0 + KW, W + PW);
                const int padded = (d1 - d0) * (h1 - h0) * (w1 - w0);
                const int inside = (min(d1, D) - max(d0, 0)) * (min(h1, H) - max(h0, 0)) * (min(w1, W) - max(w0, 0));
                acc /= (float)(DIVISOR ? DIVISOR : COUNT_PAD ? padded : inside);
            }}
            dst[s] = acc;
        }}
    }}
}}
"""
    return KernelSource(name, source)


# Tile of the 3D stencil, measured on an H200 (benchmarks/bench_nvrtc.py --gpu sweeps it).
STENCIL_TILE_3D = {"bx": 64, "by": 4, "ry": 4, "zc": 32}
STENCIL_TILE_2D = {"bx": 128, "by": 1, "ry": 1, "zc": 32}


def stencil_tile(rank: int, width: int | None) -> dict:
    """The measured tile, its rows halved while the grid fits in half of them: threads past the
    edge would only idle, e.g. 72 of the 2D tile's 128 on a 56-wide feature map. Powers of two
    only (a 96-thread block made ptxas spill), at least a warp."""
    tile = dict(STENCIL_TILE_3D if rank == 3 else STENCIL_TILE_2D)
    while width and tile["bx"] > 32 and width <= tile["bx"] // 2:
        tile["bx"] //= 2
    return tile


def stencil_source(name: str, taps: list[tuple[int, ...]], rank: int, tile: dict | None = None) -> KernelSource:
    """A radius-1 stencil (zero padding, per-channel coefficients read from the weight at run time).

    The block owns a BX x (BY*RY) tile of (H, W) and marches along D, the slowest axis, over ZC
    planes: each thread keeps its column's values at z-1, z, z+1 (and z+2, z+3, prefetched) in
    registers, so neighbours along D cost no extra reads; in-plane neighbours come from the
    plane's tile in shared memory (plus a one-point halo), double-buffered so that one barrier per
    plane suffices. Taps off the centre column in the z+-1 planes need those planes in shared
    memory too: a ring of 4 tiles. A 2D stencil runs the same kernel with its H as the marching
    axis and a one-row tile.
    """
    tile = dict(tile or (STENCIL_TILE_3D if rank == 3 else STENCIL_TILE_2D))
    per_channel = 3 ** rank
    taps3 = [tuple(t) if rank == 3 else (t[0], 0, t[1]) for t in taps]  # 2D (dy, dx) -> (dz, 0, dx)
    ring = any(dz != 0 and (dy, dx) != (0, 0) for dz, dy, dx in taps3)
    slots = 4 if ring else 2  # double-buffered: the next plane is written while this one is read

    def weight_index(tap: tuple[int, ...]) -> int:
        index = 0
        for offset in tap:
            index = index * 3 + offset + 1
        return index

    coefficients = "\n        ".join(f"const float k{n} = wc[{weight_index(t)}];" for n, t in enumerate(taps))
    terms = []
    for n, (dz, dy, dx) in enumerate(taps3):
        if (dy, dx) == (0, 0):
            value = {-1: "below[r]", 0: "cur[r]", 1: "above[r]"}[dz]
        else:
            value = f"tile[s{ {-1: 'm', 0: 'c', 1: 'p'}[dz]}][sy + {dy}][sx + {dx}]"
        terms.append(f"acc = fmaf(k{n}, {value}, acc);")
    # Slots of planes z-1, z, z+1 and which plane each iteration writes (after computing, when a
    # ring needs z+2: its interior is the prefetched `ahead`).
    if ring:
        prologue = "fill(0, z0 - 1, below); fill(1, z0, cur); fill(2, z0 + 1, above);"
        slot_names = "const int sm = (z - z0) & 3, sc = (z - z0 + 1) & 3, sp = (z - z0 + 2) & 3;"
        fill_before, fill_after = "", "if (z + 2 <= z1) fill((z - z0 + 3) & 3, z + 2, ahead);"  # loaded earlier
    else:
        prologue = "fill(0, z0, cur);"
        slot_names = "const int sc = (z - z0) & 1;"
        fill_before, fill_after = "if (z + 1 < z1) fill((z - z0 + 1) & 1, z + 1, above);", ""
    source = f"""// HIERA {rank}D stencil {name}: {len(taps)} taps {taps}
constexpr int BX = {tile['bx']}, BY = {tile['by']}, RY = {tile['ry']}, ZC = {tile['zc']};
constexpr int TY = BY * RY, SX = BX + 2, SY = TY + 2, SLOTS = {slots}, HALO = 2 * SX + 2 * TY;
// Offsets inside one volume are 32-bit (the host checks D*H*W < 2^31); volumes are addressed in 64 bits.
extern "C" __global__ void __launch_bounds__(BX * BY) {name}(
        const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias, float* __restrict__ out,
        long long volumes, long long channels, long long D_, long long H_, long long W_, long long chunks) {{
    const int D = (int)D_, H = (int)H_, W = (int)W_;
    __shared__ float tile[SLOTS][SY][SX];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const int x0 = blockIdx.x * BX, y0 = blockIdx.y * TY, gx = x0 + tx, plane = H * W;
    // This thread's columns (RY rows of the tile) and halo points: offsets and validity, fixed over z.
    int column[RY];
    bool column_in[RY];
    #pragma unroll
    for (int r = 0; r < RY; ++r) {{
        const int y = y0 + ty + r * BY;
        column[r] = y * W + gx;
        column_in[r] = y < H && gx < W;
    }}
    constexpr int HALO_PER_THREAD = (HALO + BX * BY - 1) / (BX * BY);
    int halo_at[HALO_PER_THREAD], halo_offset[HALO_PER_THREAD];
    bool halo_in[HALO_PER_THREAD];
    #pragma unroll
    for (int h = 0; h < HALO_PER_THREAD; ++h) {{
        const int k = tid + h * BX * BY;
        int hy = 0, hx = 0;
        if (k < SX) {{ hx = k; }}
        else if (k < 2 * SX) {{ hy = SY - 1; hx = k - SX; }}
        else {{ hy = 1 + (k - 2 * SX) / 2; hx = ((k - 2 * SX) & 1) ? SX - 1 : 0; }}
        const int y = y0 + hy - 1, xx = x0 + hx - 1;
        halo_at[h] = k < HALO ? hy * SX + hx : -1;
        halo_in[h] = k < HALO && y >= 0 && y < H && xx >= 0 && xx < W;
        halo_offset[h] = halo_in[h] ? y * W + xx : 0;
    }}
    for (long long job = blockIdx.z; job < volumes * chunks; job += gridDim.z) {{
        const long long volume = job / chunks;
        const int z0 = (int)(job % chunks) * ZC, z1 = min(z0 + ZC, D);
        const int last = min(z1, D - 1);  // the chunk reads planes z0-1 .. z1 and no further
        const float* src = x + volume * D * plane;
        float* dst = out + volume * D * plane;
        const float* wc = w + volume % channels * {per_channel};
        const float b = bias ? bias[volume % channels] : 0.0f;
        {coefficients}
        auto column_at = [&](int z, int r) {{
            return (column_in[r] && z >= 0 && z <= last) ? src[z * plane + column[r]] : 0.0f;
        }};
        // Plane z into tile slot s: the interior from the caller's registers, the halo from memory.
        auto fill = [&](int s, int z, const float* interior) {{
            float* t = &tile[s][0][0];
            #pragma unroll
            for (int r = 0; r < RY; ++r) t[(ty + r * BY + 1) * SX + tx + 1] = interior[r];
            const bool z_in = z >= 0 && z <= last;
            #pragma unroll
            for (int h = 0; h < HALO_PER_THREAD; ++h)
                if (halo_at[h] >= 0) t[halo_at[h]] = (z_in && halo_in[h]) ? src[z * plane + halo_offset[h]] : 0.0f;
        }};
        // Register queue along z; loads run two planes ahead of the plane being computed.
        float below[RY], cur[RY], above[RY], ahead[RY], far[RY];
        #pragma unroll
        for (int r = 0; r < RY; ++r) {{
            below[r] = column_at(z0 - 1, r);
            cur[r] = column_at(z0, r);
            above[r] = column_at(z0 + 1, r);
            ahead[r] = column_at(z0 + 2, r);
        }}
        {prologue}
        __syncthreads();
        for (int z = z0; z < z1; ++z) {{
            #pragma unroll
            for (int r = 0; r < RY; ++r) far[r] = column_at(z + 3, r);  // in flight for two planes
            {fill_before}
            {slot_names}
            #pragma unroll
            for (int r = 0; r < RY; ++r) {{
                const int sy = ty + r * BY + 1, sx = tx + 1;
                float acc = b;
                {chr(10).join('                ' + t for t in terms).strip()}
                if (column_in[r]) dst[z * plane + column[r]] = acc;
            }}
            {fill_after}
            __syncthreads();
            #pragma unroll
            for (int r = 0; r < RY; ++r) {{ below[r] = cur[r]; cur[r] = above[r]; above[r] = ahead[r]; ahead[r] = far[r]; }}
        }}
    }}
}}
"""
    return KernelSource(name, source)

"""CUDA source of the radius-1 3D stencil template (depthwise or single-channel 3x3x3 convolutions,
and 3D stencils spelled with slices of a zero-padded grid) and its measured tile (2D stencils fused
in time are in stencil_steps_template). A single 2D stencil takes the column kernel (columns_template), which ran every
measured 2D grid faster than this template's one-row tile did. Pure (no torch): text generation
only; the host side is in the proposal runtime.
"""

from __future__ import annotations

import itertools

from hiera_core.spaces.custom_cuda.expr import Expr
from hiera_core.spaces.custom_cuda.fused import KernelSource, channel_epilogue, epilogue_function

# Tiles measured on an H200 (benchmarks/bench_nvrtc.py --sweep-stencil). 3D, 256^3: 44.6 us, 70% of
# the bound, against 50.2 us for the previous 64x16 scalar tile (benchmarks/results/h200-2026-11-29-s6).
STENCIL_TILE_3D = {"bx": 64, "by": 4, "ry": 1, "zc": 16, "vx": 4, "mb": 4, "halo_ahead": 1, "stcs": 1}


def nonzero_taps(coefficients: tuple[float, ...], rank: int) -> list[tuple[int, ...]]:
    """The taps of a radius-1 stencil's 3^rank coefficients (in tap order: offsets over (-1, 0, 1)^rank)
    that are not zero."""
    offsets = itertools.product((-1, 0, 1), repeat=rank)
    return [offset for offset, coefficient in zip(offsets, coefficients) if coefficient != 0.0]


def stencil_tile(width: int | None) -> dict:
    """The measured tile, its rows halved while the grid fits in half of them: threads past the
    edge would only idle. Powers of two only (a 96-thread block made ptxas spill), at least a warp."""
    tile = dict(STENCIL_TILE_3D)
    while width and tile["bx"] > 32 and width <= tile["bx"] * tile.get("vx", 1) // 2:
        tile["bx"] //= 2
    return tile


def stencil_launch_tile(tile: dict) -> tuple[int, int, int, int, int]:
    """What `_hiera_stencil` launches a tile with: (BX, BY, rows per block, planes per block, columns
    per thread)."""
    return tile["bx"], tile["by"], tile["by"] * tile["ry"], tile["zc"], tile.get("vx", 1)


def stencil_source(name: str, taps: list[tuple[int, int, int]], tile: dict | None = None,
                   epilogue: Expr | None = None, channel_leaves: list[Expr] | tuple = ()) -> KernelSource:
    """A radius-1 3D stencil (zero padding, per-channel coefficients read from the weight at run time).

    The block owns a (BX*VX) x (BY*RY) tile of (H, W) and marches along D, the slowest axis, over ZC
    planes: each thread keeps its VX columns' values at z-1, z, z+1 (and z+2, z+3, prefetched) in
    registers, so neighbours along D cost no extra reads; in-plane neighbours come from the
    plane's tile in shared memory (plus a one-point halo), double-buffered so that one barrier per
    plane suffices. Taps off the centre column in the z+-1 planes need those planes in shared
    memory too: a ring of 4 tiles.

    Options of the tile (bench_nvrtc.py --sweep-stencil measures them): vx, columns per thread,
    read and written as float4 where rows are 16-byte aligned (4) or one float each (1); stcs,
    streaming (evict-first) stores of the output; halo_ahead, the halo's loads queued in
    registers three planes ahead like the interior's instead of loaded and stored in the same
    iteration; mb, blocks per SM that registers must leave room for (`__launch_bounds__`'s second
    argument). Unrolling the plane loop by 4 was measured too (session 6): 74 us against 46, dropped.

    `epilogue`, a pointwise expression of the output (a leaf TEMPLATE_OUTPUT: the activation after a
    depthwise conv), is applied as each output is stored; it may read `channel_leaves` (a batch
    norm's per-channel tensors), passed after `chunks` as e0, e1..., one value read per volume.
    Without one the source is the plain stencil's.
    """
    tile = dict(tile or STENCIL_TILE_3D)
    vx = tile.get("vx", 1)
    if vx not in (1, 4):
        raise ValueError(f"stencil columns per thread must be 1 or 4, not {vx}")
    taps = [tuple(t) for t in taps]
    ring = any(dz != 0 and (dy, dx) != (0, 0) for dz, dy, dx in taps)
    slots = 4 if ring else 2  # double-buffered: the next plane is written while this one is read

    def weight_index(tap: tuple[int, ...]) -> int:
        index = 0
        for offset in tap:
            index = index * 3 + offset + 1
        return index

    coefficients = "\n        ".join(f"const float k{n} = wc[{weight_index(t)}];" for n, t in enumerate(taps))
    centre = {-1: "below", 0: "cur", 1: "above"}
    slot = {-1: "sm", 0: "sc", 1: "sp"}
    if vx == 1:
        terms = []
        for n, (dz, dy, dx) in enumerate(taps):
            value = (f"{centre[dz]}[r][0]" if (dy, dx) == (0, 0)
                     else f"tile[{slot[dz]}][sy + {dy}][sx + {dx}]")
            terms.append(f"acc = fmaf(k{n}, {value}, acc);")
        compute = f"""const int sy = ty + r * BY + 1, sx = OX + tx;
                float acc = b;
                {(chr(10) + ' ' * 16).join(terms)}
                result[0] = acc;"""
    else:
        # Each in-plane row a tap needs, as the 6 points around this thread's 4 columns: the middle 4
        # one aligned float4 from shared memory (or the registers, in the centre row), the edges scalars.
        lines = ["const int sy = ty + r * BY + 1;"]
        for dz, dy in sorted({(dz, dy) for dz, dy, dx in taps if (dy, dx) != (0, 0)}):
            row = f"v{dz + 1}{dy + 1}"
            offsets = {dx for a, b, dx in taps if (a, b) == (dz, dy)}
            lines.append(f"float {row}[6];")
            lines.append(f"const float* {row}_at = &tile[{slot[dz]}][sy + {dy}][OX + tx * 4];")
            if dy == 0:
                lines.append(" ".join(f"{row}[{i + 1}] = {centre[dz]}[r][{i}];" for i in range(4)))
            else:
                lines.append(f"{{ const float4 q = *reinterpret_cast<const float4*>({row}_at); "
                             f"{row}[1] = q.x; {row}[2] = q.y; {row}[3] = q.z; {row}[4] = q.w; }}")
            if -1 in offsets:
                lines.append(f"{row}[0] = {row}_at[-1];")
            if 1 in offsets:
                lines.append(f"{row}[5] = {row}_at[4];")
        for i in range(4):
            lines.append(f"result[{i}] = b;")
            for n, (dz, dy, dx) in enumerate(taps):
                value = f"{centre[dz]}[r][{i}]" if (dy, dx) == (0, 0) else f"v{dz + 1}{dy + 1}[{i + dx + 1}]"
                lines.append(f"result[{i}] = fmaf(k{n}, {value}, result[{i}]);")
        compute = (chr(10) + " " * 16).join(lines)
    halo_ahead = bool(tile.get("halo_ahead"))
    # Slots of planes z-1, z, z+1 and which plane each iteration writes (after computing, when a
    # ring needs z+2: its interior is the prefetched `ahead`).
    if ring:
        prologue = "fill(0, z0 - 1, below, nullptr); fill(1, z0, cur, nullptr); fill(2, z0 + 1, above, nullptr);"
        slot_names = "const int sm = (z - z0) & 3, sc = (z - z0 + 1) & 3, sp = (z - z0 + 2) & 3;"
        queued = "halo_ahead" if halo_ahead else "nullptr"
        fill_before, fill_after = "", f"if (z + 2 <= z1) fill((z - z0 + 3) & 3, z + 2, ahead, {queued});"
    else:
        prologue = "fill(0, z0, cur, nullptr);"
        slot_names = "const int sc = (z - z0) & 1;"
        queued = "halo_above" if halo_ahead else "nullptr"
        fill_before, fill_after = f"if (z + 1 < z1) fill((z - z0 + 1) & 1, z + 1, above, {queued});", ""
    if halo_ahead:
        halo_queue = """float halo_above[HALO_PER_THREAD], halo_ahead[HALO_PER_THREAD], halo_far[HALO_PER_THREAD];
        halo_load(z0 + 1, halo_above);
        halo_load(z0 + 2, halo_ahead);"""
        halo_far = "halo_load(z + 3, halo_far);"
        halo_rotate = """#pragma unroll
            for (int h = 0; h < HALO_PER_THREAD; ++h) { halo_above[h] = halo_ahead[h]; halo_ahead[h] = halo_far[h]; }"""
    else:
        halo_queue = halo_far = halo_rotate = ""
    store = "__stcs" if tile.get("stcs") else ""
    write = (f"{store}(&dst[z * plane + column[r] + i], acc)" if store else "dst[z * plane + column[r] + i] = acc")
    write_vector = (f"{store}(reinterpret_cast<float4*>(dst + z * plane + column[r]), v)" if store
                    else "*reinterpret_cast<float4*>(dst + z * plane + column[r]) = v")
    bounds = f"BX * BY, {tile['mb']}" if tile.get("mb") else "BX * BY"
    helpers = extra_params = channel_values = applied = ""
    if epilogue is not None:
        helpers = epilogue_function(epilogue, channel_leaves)
        extra_params, channel_values, arguments = channel_epilogue(len(channel_leaves), "volume % channels")
        applied = f"""
                #pragma unroll
                for (int i = 0; i < VX; ++i) result[i] = hi_epilogue(result[i]{arguments});"""
    source = f"""// HIERA 3D stencil {name}: {len(taps)} taps {taps}
{helpers}constexpr int BX = {tile['bx']}, BY = {tile['by']}, RY = {tile['ry']}, ZC = {tile['zc']}, VX = {vx};
// Tile rows in shared memory: the TX interior points from column OX (16-byte aligned for float4
// columns), the halo at OX - 1 and OX + TX.
constexpr int TX = BX * VX, TY = BY * RY, OX = VX == 4 ? 4 : 1, SX = TX + 2 * OX, SY = TY + 2, SLOTS = {slots};
constexpr int HW = TX + 2, HALO = 2 * HW + 2 * TY;  // halo points: two rows of HW, two columns of TY
constexpr int HALO_PER_THREAD = (HALO + BX * BY - 1) / (BX * BY);
// Offsets inside one volume are 32-bit (the host checks D*H*W < 2^31); volumes are addressed in 64 bits.
extern "C" __global__ void __launch_bounds__({bounds}) {name}(
        const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias, float* __restrict__ out,
        long long volumes, long long channels, long long D_, long long H_, long long W_, long long chunks{extra_params}) {{
    const int D = (int)D_, H = (int)H_, W = (int)W_;
    __shared__ __align__(16) float tile[SLOTS][SY][SX];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY, gx = x0 + tx * VX, plane = H * W;
    // Whole float4s: rows of a multiple of 4 points from a 16-byte aligned base (one branch for all threads).
    const bool vector = VX == 4 && W % 4 == 0 && ((reinterpret_cast<unsigned long long>(x) | reinterpret_cast<unsigned long long>(out)) & 15) == 0;
    // This thread's columns (RY rows of the tile, VX points each) and halo points: offsets and validity, fixed over z.
    int column[RY];
    bool column_in[RY][VX];
    #pragma unroll
    for (int r = 0; r < RY; ++r) {{
        const int y = y0 + ty + r * BY;
        column[r] = y * W + gx;
        #pragma unroll
        for (int i = 0; i < VX; ++i) column_in[r][i] = y < H && gx + i < W;
    }}
    int halo_at[HALO_PER_THREAD], halo_offset[HALO_PER_THREAD];
    bool halo_in[HALO_PER_THREAD];
    #pragma unroll
    for (int h = 0; h < HALO_PER_THREAD; ++h) {{
        const int k = tid + h * BX * BY;
        int hy = 0, hx = 0;
        if (k < HW) {{ hx = k; }}
        else if (k < 2 * HW) {{ hy = SY - 1; hx = k - HW; }}
        else {{ hy = 1 + (k - 2 * HW) / 2; hx = ((k - 2 * HW) & 1) ? HW - 1 : 0; }}
        const int y = y0 + hy - 1, xx = x0 + hx - 1;
        halo_at[h] = k < HALO ? hy * SX + OX - 1 + hx : -1;
        halo_in[h] = k < HALO && y >= 0 && y < H && xx >= 0 && xx < W;
        halo_offset[h] = halo_in[h] ? y * W + xx : 0;
    }}
    for (long long job = blockIdx.z; job < volumes * chunks; job += gridDim.z) {{
        const long long volume = job / chunks;
        const int z0 = (int)(job % chunks) * ZC, z1 = min(z0 + ZC, D);
        const int last = min(z1, D - 1);  // the chunk reads planes z0-1 .. z1 and no further
        const float* src = x + volume * D * plane;
        float* dst = out + volume * D * plane;
        const float* wc = w + volume % channels * 27;
        const float b = bias ? bias[volume % channels] : 0.0f;{channel_values}
        {coefficients}
        auto column_at = [&](int z, int r, float* v) {{
            const bool z_in = z >= 0 && z <= last;
            if (vector && z_in && column_in[r][0]) {{
                const float4 q = __ldg(reinterpret_cast<const float4*>(src + z * plane + column[r]));
                v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
                return;
            }}
            #pragma unroll
            for (int i = 0; i < VX; ++i) v[i] = (z_in && column_in[r][i]) ? src[z * plane + column[r] + i] : 0.0f;
        }};
        auto halo_load = [&](int z, float* v) {{
            const bool z_in = z >= 0 && z <= last;
            #pragma unroll
            for (int h = 0; h < HALO_PER_THREAD; ++h) v[h] = (z_in && halo_in[h]) ? src[z * plane + halo_offset[h]] : 0.0f;
        }};
        // Plane z into tile slot s: the interior from the caller's registers, the halo from the
        // caller's queue (loaded planes earlier) or from memory now.
        auto fill = [&](int s, int z, float (*interior)[VX], const float* halo) {{
            float* t = &tile[s][0][0];
            #pragma unroll
            for (int r = 0; r < RY; ++r) {{
                float* at = t + (ty + r * BY + 1) * SX + OX + tx * VX;
                if (VX == 4) *reinterpret_cast<float4*>(at) = make_float4(interior[r][0], interior[r][VX > 1 ? 1 : 0], interior[r][VX > 2 ? 2 : 0], interior[r][VX > 3 ? 3 : 0]);
                else at[0] = interior[r][0];
            }}
            float loaded[HALO_PER_THREAD];
            if (!halo) {{ halo_load(z, loaded); halo = loaded; }}
            #pragma unroll
            for (int h = 0; h < HALO_PER_THREAD; ++h)
                if (halo_at[h] >= 0) t[halo_at[h]] = halo[h];
        }};
        // Register queue along z; loads run two planes ahead of the plane being computed.
        float below[RY][VX], cur[RY][VX], above[RY][VX], ahead[RY][VX], far[RY][VX];
        #pragma unroll
        for (int r = 0; r < RY; ++r) {{
            column_at(z0 - 1, r, below[r]);
            column_at(z0, r, cur[r]);
            column_at(z0 + 1, r, above[r]);
            column_at(z0 + 2, r, ahead[r]);
        }}
        {halo_queue}
        {prologue}
        __syncthreads();
        for (int z = z0; z < z1; ++z) {{
            #pragma unroll
            for (int r = 0; r < RY; ++r) column_at(z + 3, r, far[r]);  // in flight for two planes
            {halo_far}
            {fill_before}
            {slot_names}
            #pragma unroll
            for (int r = 0; r < RY; ++r) {{
                float result[VX];
                {compute}{applied}
                if (vector && column_in[r][0]) {{
                    const float4 v = make_float4(result[0], result[VX > 1 ? 1 : 0], result[VX > 2 ? 2 : 0], result[VX > 3 ? 3 : 0]);
                    {write_vector};
                }} else {{
                    #pragma unroll
                    for (int i = 0; i < VX; ++i) {{
                        const float acc = result[i];
                        if (column_in[r][i]) {write};
                    }}
                }}
            }}
            {fill_after}
            __syncthreads();
            #pragma unroll
            for (int r = 0; r < RY; ++r)
                #pragma unroll
                for (int i = 0; i < VX; ++i) {{ below[r][i] = cur[r][i]; cur[r][i] = above[r][i]; above[r][i] = ahead[r][i]; ahead[r][i] = far[r][i]; }}
            {halo_rotate}
        }}
    }}
}}
"""
    return KernelSource(name, source)

"""CUDA source of radius-1 2D stencils fused in time (Jacobi or heat sweeps, each step padding its
input with zeros): one kernel reads the grid once and writes it once for up to STENCIL_STEPS_MAX
steps, and its measured tile. Pure (no torch): text generation only; the host side is the proposal
runtime's `_hiera_stencil_steps`.
"""

from __future__ import annotations

from hiera_core.spaces.custom_cuda.fused import KernelSource

# Outputs per block of the time-fused 2D stencil (a 32 x 8 thread block) and its loads: 128 x 16 with
# float4 loads, the best cold (L2 flushed before each call, as hiera bench times) of four tiles at 2
# steps on three grids on an H100 (benchmarks/bench_stencil_steps.py, session 30): on 2048^2 20.7 us,
# 53.9% of the bound, against 26.6 us (42.1%) for the 256 x 16 scalar tile before it; 73.1% against
# 59.0% on 4096^2, 49.0% against 35.0% on 3 x 1000^2. Warm (the grid in L2) 256 x 16 with float4 loads
# was 2% faster on 2048^2 only. The `sweep` option (registers down a column) was slower cold on all
# three grids (session 31: 21.6 us against 20.6 on 2048^2; 256 x 16 swept 22.0) though faster warm
# (256 x 16 swept 13.0 us against 15.0): cold, the loads bound it, not shared memory.
STENCIL_STEPS_TILE = {"tw": 128, "th": 16, "vector": True}
STENCIL_STEPS_MAX = 4  # steps fused in one kernel: the halo grows by one point per step
_SHARED_LIMIT = 48 * 1024  # static shared memory per block
VECTOR_WIDTH = 4  # floats per vector load
# Steps fused with float4 loads: at 4, the loads in flight beside the steps' 20 coefficients spilled
# (NVRTC, 128 x 16), so 4 steps take the scalar loads.
VECTOR_STEPS_MAX = 3


def stencil_steps_tile(steps: int, tile: dict | None = None) -> dict:
    """The tile for `steps` fused steps (float4 loads up to VECTOR_STEPS_MAX), its rows (down to a
    block's 8), then its columns, halved until both grids of the ping-pong buffer (tile plus a
    `steps`-point halo) fit in static shared memory."""
    tile = dict(tile or STENCIL_STEPS_TILE)
    if steps > VECTOR_STEPS_MAX:
        tile["vector"] = False
    while 2 * 4 * (tile["th"] + 2 * steps) * (tile["tw"] + 2 * _halo_columns(steps, tile)) > _SHARED_LIMIT:
        tile["th" if tile["th"] > 8 else "tw"] //= 2
    return tile


def _halo_columns(steps: int, tile: dict) -> int:
    """Columns kept each side of a block's tile: the steps' halo, or with `vector` loads a float4's 4,
    so that each row's loads start 16-byte aligned (at most STENCIL_STEPS_MAX steps, so 4 covers it)."""
    return VECTOR_WIDTH if tile.get("vector") else steps


def stencil_steps_source(name: str, steps: list[list[tuple[int, int]]], tile: dict | None = None) -> KernelSource:
    """`len(steps)` radius-1 2D stencils applied one after the other (each step's input zero outside
    the grid, as when every step pads its input with zeros), fused in time: one read and one write
    of the grid instead of one of each per step.

    `steps` holds each step's taps (dy, dx); the coefficients are read at run time from a (steps, 9)
    weight in tap order ((dy, dx) over (-1, 0, 1)^2). A block loads its tile of outputs plus a halo
    of one point per step into shared memory, zero outside the grid; step s computes the tile plus
    the halo the steps after it still need (values outside the grid are zero), ping-ponging between
    two buffers; the last step writes the tile. The halo's points are recomputed by the
    neighbouring blocks: (TW + 2K)(TH + 2K) / (TW TH) of the loads, the extra ones mostly from L2.
    The tile's option `batched` issues a thread's loads 8 at a time before storing them; `vector` loads
    the tile as float4s, all of a thread's in flight at once, its rows starting VECTOR_WIDTH columns
    left of the tile so that each is 16-byte aligned (when the grid's rows and base are: a uniform
    branch takes the scalar loads otherwise). bench_stencil_steps.py measures them.
    """
    if not 1 <= len(steps) <= STENCIL_STEPS_MAX:
        raise ValueError(f"the time-fused stencil takes 1 to {STENCIL_STEPS_MAX} steps, not {len(steps)}")
    tile = stencil_steps_tile(len(steps), tile)
    px = _halo_columns(len(steps), tile)
    if tile.get("vector") and tile["tw"] % VECTOR_WIDTH:
        raise ValueError(f"vector loads need a tile a multiple of {VECTOR_WIDTH} columns wide, not {tile['tw']}")
    coefficients = "\n    ".join(f"const float k{number}_{dy + 1}{dx + 1} = __ldg(w + {number * 9 + (dy + 1) * 3 + dx + 1});"
                                  for number, taps in enumerate(steps) for dy, dx in taps)

    def update(number: int, read: int) -> str:
        return "\n                ".join(f"acc = fmaf(k{number}_{dy + 1}{dx + 1}, buf[{read}][r + {dy}][c + {dx}], acc);"
                                         for dy, dx in steps[number])

    stages = []
    for number in range(1, len(steps)):
        read, write = (number - 1) & 1, number & 1
        in_grid = f"buf[{write}][r][c] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? acc : 0.0f;"
        if tile.get("sweep"):
            body = _swept_stage(steps[number - 1], number, read, f"{number}", f"SH - {number}",
                                f"PX - K + {number}", f"SW - (PX - K) - {number}", in_grid)
        else:
            body = f"""for (int r = {number} + ty; r < SH - {number}; r += 8)
            for (int c = PX - K + {number} + tx; c < SW - (PX - K) - {number}; c += 32) {{
                float acc = 0.0f;
                {update(number - 1, read)}
                const int gy = y0 + r, gx = x0 + c;
                {in_grid}
            }}"""
        stages.append(f"""// step {number}: the tile and a {len(steps) - number}-point halo, zero outside the grid
        {body}
        __syncthreads();""")
    last = (len(steps) - 1) & 1
    if tile.get("batched"):
        # A thread's loads of the tile 8 at a time in flight (registers first, then shared memory),
        # instead of one per loop iteration: more bytes in flight per SM, for more registers.
        load = """constexpr int LOADS = (SH * SW + 255) / 256, BATCH = 8;
        for (int first = 0; first < LOADS; first += BATCH) {
            float loaded[BATCH];
            #pragma unroll
            for (int i = 0; i < BATCH; ++i) {
                const int k = ty * 32 + tx + (first + i) * 256, r = k / SW, gy = y0 + r, gx = x0 + k - r * SW;
                loaded[i] = (k < SH * SW && gy >= 0 && gy < H && gx >= 0 && gx < W) ? __ldg(src + gy * W + gx) : 0.0f;
            }
            #pragma unroll
            for (int i = 0; i < BATCH; ++i) {
                const int k = ty * 32 + tx + (first + i) * 256;
                if (k < SH * SW) (&buf[0][0][0])[k] = loaded[i];
            }
        }"""
    else:
        load = """for (int r = ty; r < SH; r += 8)
            for (int c = tx; c < SW; c += 32) {
                const int gy = y0 + r, gx = x0 + c;
                buf[0][r][c] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? __ldg(src + gy * W + gx) : 0.0f;
            }"""
    if tile.get("vector"):
        # float4s, a thread's all issued before any is stored; a float4 starting inside the grid ends
        # inside it (rows a multiple of 4 long, x0 a multiple of 4), so one test covers its 4 columns.
        load = f"""if ((W & 3) == 0 && (reinterpret_cast<unsigned long long>(src) & 15) == 0) {{
            constexpr int QW = SW / 4, LOADS = (SH * QW + 255) / 256;
            float4 loaded[LOADS];
            #pragma unroll
            for (int i = 0; i < LOADS; ++i) {{
                const int k = ty * 32 + tx + i * 256, r = k / QW, gy = y0 + r, gx = x0 + 4 * (k - r * QW);
                loaded[i] = (k < SH * QW && gy >= 0 && gy < H && gx >= 0 && gx < W)
                    ? __ldg(reinterpret_cast<const float4*>(src + gy * W + gx)) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            }}
            #pragma unroll
            for (int i = 0; i < LOADS; ++i) {{
                const int k = ty * 32 + tx + i * 256, r = k / QW, c = 4 * (k - r * QW);
                if (k < SH * QW) *reinterpret_cast<float4*>(&buf[0][r][c]) = loaded[i];
            }}
        }} else {{
            {load}
        }}"""
    store = "if (gy < H && gx < W) dst[gy * W + gx] = acc;"
    if tile.get("sweep"):
        last_stage = _swept_stage(steps[-1], len(steps), last, "K", "K + TH", "PX", "PX + TW", store)
    else:
        last_stage = f"""for (int r = K + ty; r < K + TH; r += 8)
            for (int c = PX + tx; c < PX + TW; c += 32) {{
                float acc = 0.0f;
                {update(len(steps) - 1, last)}
                const int gy = y0 + r, gx = x0 + c;
                {store}
            }}"""
    source = f"""// HIERA 2D stencil {name}: {len(steps)} steps fused in time
constexpr int K = {len(steps)}, PX = {px}, TW = {tile['tw']}, TH = {tile['th']}, SW = TW + 2 * PX, SH = TH + 2 * K;
// Offsets inside one grid are 32-bit (the host checks H*W < 2^31); grids are addressed in 64 bits.
extern "C" __global__ void __launch_bounds__(256) {name}(
        const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ out, long long grids,
        long long H_, long long W_) {{
    const int H = (int)H_, W = (int)W_;
    __shared__ __align__(16) float buf[2][SH][SW];
    {coefficients}
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x0 = blockIdx.x * TW - PX, y0 = blockIdx.y * TH - K;  // the halo's corner
    for (long long grid = blockIdx.z; grid < grids; grid += gridDim.z) {{
        const float* src = x + grid * H * W;
        float* dst = out + grid * H * W;
        {load}
        __syncthreads();
        {(chr(10) + '        ').join(stages)}
        // step {len(steps)}: the tile itself, to memory
        {last_stage}
        __syncthreads();  // the next grid's loads overwrite the buffers
    }}
}}
"""
    return KernelSource(name, source)


SWEEP_LANES = 128  # columns a block's threads sweep side by side; its 256 threads make two bands of rows


def _swept_stage(taps: list[tuple[int, int]], number: int, read: int, row_begin: str, row_end: str,
                 column_begin: str, column_end: str, write: str) -> str:
    """One step with each thread sweeping a column down a band of rows, the three rows its taps read
    held in registers: per point it loads one new row's values from shared memory (the columns the
    taps read) instead of every tap's. Columns past the last whole SWEEP_LANES (an earlier step's
    halo) are computed a point per thread, so that no warp sweeps twice as many. `write` stores `acc`
    for the point (r, c) at (gy, gx)."""
    columns = sorted({dx for _, dx in taps})
    names = {-1: "up", 0: "mid", 1: "down"}

    def row(dy: int, source: str) -> str:
        return " ".join(f"float {names[dy]}{dx + 1} = buf[{read}][{source}][c + {dx}];" for dx in columns)

    def fmas(operand, indent: int) -> str:
        return ("\n" + " " * indent).join(f"acc = fmaf(k{number - 1}_{dy + 1}{dx + 1}, {operand(dy, dx)}, acc);"
                                            for dy, dx in taps)

    shift = " ".join(f"up{dx + 1} = mid{dx + 1}; mid{dx + 1} = down{dx + 1};" for dx in columns)
    return f"""{{
            constexpr int R0 = {row_begin}, R1 = {row_end}, BANDS = 256 / {SWEEP_LANES}, BAND = (R1 - R0 + BANDS - 1) / BANDS;
            constexpr int C0 = {column_begin}, C1 = {column_end}, SWEPT = (C1 - C0) / {SWEEP_LANES} * {SWEEP_LANES};
            constexpr int REST = C1 - C0 - SWEPT, REST_DIVISOR = REST > 0 ? REST : 1;
            const int t = ty * 32 + tx, lane = t % {SWEEP_LANES}, first = R0 + t / {SWEEP_LANES} * BAND;
            for (int c = C0 + lane; c < C0 + SWEPT; c += {SWEEP_LANES}) {{
                {row(-1, "first - 1")}
                {row(0, "first")}
                #pragma unroll
                for (int i = 0; i < BAND; ++i) {{
                    const int r = first + i;
                    if (r >= R1) break;
                    {row(1, "r + 1")}
                    float acc = 0.0f;
                    {fmas(lambda dy, dx: f"{names[dy]}{dx + 1}", 20)}
                    const int gy = y0 + r, gx = x0 + c;
                    {write}
                    {shift}
                }}
            }}
            for (int p = t; p < REST * (R1 - R0); p += 256) {{
                const int r = R0 + p / REST_DIVISOR, c = C0 + SWEPT + p % REST_DIVISOR;
                float acc = 0.0f;
                {fmas(lambda dy, dx: f"buf[{read}][r + {dy}][c + {dx}]", 16)}
                const int gy = y0 + r, gx = x0 + c;
                {write}
            }}
        }}"""

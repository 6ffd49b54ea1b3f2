"""CUDA source of the wide depthwise 2D convolution template (kernel 5x5 to 9x9, stride 1, same zero
padding; the 3x3 ones take the stencil template). Pure (no torch): text generation only; the host
side is `_hiera_depthwise` in the proposal runtime.
"""

from __future__ import annotations

from hiera_core.spaces.custom_cuda.expr import Expr
from hiera_core.spaces.custom_cuda.fused import KernelSource, channel_epilogue, epilogue_function

DEPTHWISE_KERNELS = (5, 7, 9)  # odd sizes whose radius fits the tile's 4-point side pads
DEPTHWISE_ROWS = 16  # output rows a block computes (threads in y times rows per thread). Not yet swept on a GPU.


def depthwise_tile(width: int | None) -> dict:
    """Threads across a row (4 outputs each; 32, 16 or 8: the fewest that cover the grid's width up
    to 128 columns, so a 56-wide map does not leave 72 of 128 columns idle) and down the tile,
    256 in all."""
    bx = 32
    while bx > 8 and width and width <= (bx // 2) * 4:
        bx //= 2
    return {"bx": bx, "by": 256 // bx, "ry": max(1, DEPTHWISE_ROWS * bx // 256)}


def depthwise_source(name: str, kernel: int, tile: dict, epilogue: Expr | None = None,
                     per_channel: list[Expr] | tuple = ()) -> KernelSource:
    """A depthwise `kernel` x `kernel` convolution (weight (C, 1, k, k), optional bias (C,)) over
    (N*C) grids of H x W, zero outside the grid.

    A block owns a (4 BX) x (BY RY) tile of outputs of one grid and loads it with a radius-wide halo
    into shared memory (each thread's loads all issued before any is stored); each row of the
    tile in shared memory starts 4 points left of the tile, so a thread's 4 outputs read their
    4 + 2r inputs of each filter row as 3 aligned float4s (conflict-free) and reuse them for all
    k taps of the row. The channel's k*k weights are read into registers per grid. `epilogue`, a
    pointwise expression of the output (a leaf TEMPLATE_OUTPUT: a ReLU6 after the convolution), is
    applied as each output is stored; it may read `per_channel` tensors (a batch norm's statistics
    and affine), which come after the output as pointers e0, e1..., one value read per grid.
    """
    if kernel not in DEPTHWISE_KERNELS:
        raise ValueError(f"the wide depthwise template takes kernels {DEPTHWISE_KERNELS}, not {kernel}")
    radius = kernel // 2
    extra_params, channel_values, channel_args = channel_epilogue(len(per_channel), "channel")
    source = f"""// HIERA depthwise {kernel}x{kernel} convolution {name}
{epilogue_function(epilogue, per_channel)}constexpr int K = {kernel}, R = {radius}, BX = {tile['bx']}, BY = {tile['by']}, RY = {tile['ry']};
constexpr int TW = 4 * BX, TH = BY * RY, SW = TW + 8, SH = TH + 2 * R;  // rows start 4 points left of the tile
constexpr int LOADS = (SH * SW + BX * BY - 1) / (BX * BY);
// Offsets inside one grid are 32-bit (the host checks H*W < 2^31); grids are addressed in 64 bits.
extern "C" __global__ void __launch_bounds__(BX * BY) {name}(
        const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias,
        float* __restrict__ out, long long grids, long long channels, long long H_, long long W_{extra_params}) {{
    const int H = (int)H_, W = (int)W_;
    __shared__ __align__(16) float tile[SH][SW];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
    const bool vector = W % 4 == 0 && (reinterpret_cast<unsigned long long>(out) & 15) == 0;
    for (long long grid = blockIdx.z; grid < grids; grid += gridDim.z) {{
        const float* src = x + grid * H * W;
        float* dst = out + grid * H * W;
        const int channel = (int)(grid % channels);
        float wk[K * K];
        #pragma unroll
        for (int i = 0; i < K * K; ++i) wk[i] = __ldg(w + channel * K * K + i);
        const float b = bias ? __ldg(bias + channel) : 0.0f;{channel_values}
        float loaded[LOADS];
        #pragma unroll
        for (int i = 0; i < LOADS; ++i) {{
            const int k = tid + i * BX * BY, r = k / SW, gy = y0 - R + r, gx = x0 - 4 + k - r * SW;
            loaded[i] = (k < SH * SW && gy >= 0 && gy < H && gx >= 0 && gx < W) ? __ldg(src + gy * W + gx) : 0.0f;
        }}
        #pragma unroll
        for (int i = 0; i < LOADS; ++i) {{
            const int k = tid + i * BX * BY;
            if (k < SH * SW) (&tile[0][0])[k] = loaded[i];
        }}
        __syncthreads();
        #pragma unroll
        for (int row = 0; row < RY; ++row) {{
            const int y = ty + row * BY;  // in the tile
            float acc[4] = {{b, b, b, b}};
            #pragma unroll
            for (int dy = 0; dy < K; ++dy) {{
                // inputs of outputs 4tx..4tx+3 for this filter row: columns 4tx + 4 - R .. 4tx + 7 + R
                const float4* at = reinterpret_cast<const float4*>(&tile[y + dy][4 * tx]);
                const float4 q0 = at[0], q1 = at[1], q2 = at[2];
                const float v[12] = {{q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w, q2.x, q2.y, q2.z, q2.w}};
                #pragma unroll
                for (int dx = 0; dx < K; ++dx) {{
                    const float c = wk[dy * K + dx];
                    #pragma unroll
                    for (int i = 0; i < 4; ++i) acc[i] = fmaf(c, v[4 - R + i + dx], acc[i]);
                }}
            }}
            #pragma unroll
            for (int i = 0; i < 4; ++i) acc[i] = hi_epilogue(acc[i]{channel_args});
            const int gy = y0 + y, gx = x0 + 4 * tx;
            if (gy < H && gx < W) {{
                if (vector && gx + 3 < W) {{
                    *reinterpret_cast<float4*>(dst + gy * W + gx) = make_float4(acc[0], acc[1], acc[2], acc[3]);
                }} else {{
                    #pragma unroll
                    for (int i = 0; i < 4; ++i)
                        if (gx + i < W) dst[gy * W + gx + i] = acc[i];
                }}
            }}
        }}
        __syncthreads();  // the next grid's loads overwrite the tile
    }}
}}
"""
    return KernelSource(name, source)

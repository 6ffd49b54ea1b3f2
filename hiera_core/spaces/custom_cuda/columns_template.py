"""CUDA source of the column kernel: 2D stencils (depthwise or single-channel convolutions with a
k x k window, stride 1, zero padding from none to same, and stencils spelled with slices), a thread per column of
each grid sliding its window down the rows. Consecutive threads take consecutive columns across grid
boundaries, so no thread idles whatever the width, and a warp's loads are contiguous rows.

Measured on an H100 (benchmarks/bench_depthwise_narrow.py and the sweep in
benchmarks/results/h100-2026-12-06-s24): faster than the tiled templates at every 3x3 grid tried,
7 to 2048 wide (MobileNetV2's 14x14 with its BN and ReLU6: 14.4 us against 40.0 for the one-row
tile and 32.7 for torch.compile; a 2048^2 single-channel grid: 12.4 us against 21.4, 90% of the
bound), and for wider windows on maps up to 56 wide (ConvNeXt's 7x7 on 14x14: 46 us against 100);
the wide depthwise tile stays ahead on wider maps (5x5 on 128 wide: 30.7 us against 50.1). Pure
(no torch): text generation only; the host side is `_hiera_columns` in the proposal runtime.
"""

from __future__ import annotations

from hiera_core.spaces.custom_cuda.expr import Expr
from hiera_core.spaces.custom_cuda.fused import KernelSource, channel_epilogue, hoisted_epilogue

# The widest map a window wider than 3x3 takes this kernel on (56 measured faster, 128 slower).
WIDE_WINDOW_WIDTH = 64
COLUMN_THREADS = 256  # threads per block, one column each: the runtime launches this many


def takes_columns(rank: int, kernel: int | tuple[int, int], width: int | None) -> bool:
    """Whether a `rank`-D stencil with a `kernel`-wide window (or a (rows, columns) one) on maps `width`
    wide (as traced; None when dynamic) takes this kernel: every 2D 3x3 one and every window that is
    not square (no other template takes those), wider square windows on maps at most WIDE_WINDOW_WIDTH."""
    return rank == 2 and (kernel == 3 or not isinstance(kernel, int)
                          or (width is not None and width <= WIDE_WINDOW_WIDTH))


def square_taps(kernel: int | tuple[int, int]) -> list[tuple[int, int]]:
    """Every (dy, dx) of a dense `kernel` x `kernel` window (or a (rows, columns) one)."""
    rows, columns = _pair(kernel)
    return [(dy, dx) for dy in range(-(rows // 2), rows // 2 + 1) for dx in range(-(columns // 2), columns // 2 + 1)]


def _pair(value: int | tuple[int, int]) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else (int(value[0]), int(value[1]))


def columns_source(name: str, kernel: int | tuple[int, int], taps: list[tuple[int, int]], epilogue: Expr | None = None,
                   per_channel: list[Expr] | tuple = (), crop: int | tuple[int, int] = 0) -> KernelSource:
    """A `kernel` x `kernel` stencil (or a (KH, KW) window, both odd) with taps `taps` ((dy, dx)
    offsets, each within the radii) and per-channel weights (C, 1, KH, KW) read at run time, an
    optional bias (C,), over (N*C) grids of H x W, zero outside each grid. With `crop` (cy, cx) (a
    convolution padded by radius - c, KernelBench's unpadded depthwise ones), the output is the
    same-padded one without its cy outer rows and cx outer columns on each side,
    (H - 2cy) x (W - 2cx), and only it is computed.

    Thread t takes column t % W of grid t / W, over a run of `rows` rows the host chooses (fewer
    when the grids' columns alone do not fill the GPU); on channels-last maps (`channels_last`, the
    layout cuDNN's NHWC convolutions leave) channel t % C of column t / C % W of image t / (C W),
    so a warp's loads stay contiguous either way and the maps are read and written in place. It
    keeps a KH x KW window of its neighbourhood in registers and slides it down one row per output:
    KW loads a row (neighbouring threads read the same lines, from L1), the next row's issued before
    this row's sum. `epilogue`
    (a leaf TEMPLATE_OUTPUT: an activation, a batch norm reading `per_channel` tensors passed after
    the output as e0, e1..., one value read per grid) is applied as each output is stored.
    """
    (kh, kw), (cy, cx) = _pair(kernel), _pair(crop)
    ry, rx = kh // 2, kw // 2
    if kh % 2 == 0 or kw % 2 == 0 or any(abs(dy) > ry or abs(dx) > rx for dy, dx in taps):
        raise ValueError(f"the column kernel takes odd windows and taps within their radii: {kernel}, {taps}")
    if not (0 <= cy <= ry and 0 <= cx <= rx):
        raise ValueError(f"the column kernel crops at most its radii ({ry}, {rx}) a side, not {crop}")
    columns = sorted({dx + rx for _, dx in taps})  # window columns any tap reads
    extra_params, channel_values, _ = channel_epilogue(len(per_channel), "channel")
    epilogue_functions, channel_parts, stored = hoisted_epilogue(epilogue, per_channel, "acc")
    weights = "\n".join(f"    const float k{i} = __ldg(wc + {(dy + ry) * kw + dx + rx});"
                        for i, (dy, dx) in enumerate(taps))
    inside = "\n".join(f"    const bool in{c} = gc + {c - rx} >= 0 && gc + {c - rx} < W;" for c in columns)
    loads = "\n".join(f"        row[{c}] = y_in && in{c} ? __ldg(src + y * sy + (gc + {c - rx}) * sx) : 0.0f;"
                      for c in columns)
    shifts = "\n".join(f"            v[r][{c}] = v[r + 1][{c}];" for c in columns)
    takes = "\n".join(f"        v[KH - 1][{c}] = ahead[{c}];" for c in columns)
    sums = "\n".join(f"        acc = fmaf(k{i}, v[{dy + ry}][{dx + rx}], acc);"
                     for i, (dy, dx) in enumerate(taps))
    source = f"""// HIERA {kh}x{kw} column stencil {name}: {len(taps)} taps {taps}, a thread per column
{epilogue_functions}constexpr int KH = {kh}, KW = {kw}, RY = {ry}, CY = {cy}, CX = {cx}, THREADS = {COLUMN_THREADS};
// Offsets inside a grid (an image, channels-last) are 32-bit (the host checks); those are addressed in 64 bits.
extern "C" __global__ void __launch_bounds__(THREADS) {name}(
        const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias,
        float* __restrict__ out, long long grids, long long channels, long long H_, long long W_,
        long long rows, long long channels_last{extra_params}) {{
    const int H = (int)H_, W = (int)W_, HO = H - 2 * CY, WO = W - 2 * CX;  // input and output grids
    const long long column = (long long)blockIdx.x * THREADS + threadIdx.x;
    if (column >= grids * WO) return;
    long long grid, base, out_base;
    int gx, sx, sy, out_sy;  // an output column; a column's step and a row's, in floats
    if (channels_last) {{
        const long long c = column % channels, at = column / channels, image = at / WO;
        gx = (int)(at - image * WO);
        grid = image * channels + c;
        base = image * H * W * channels + c;
        out_base = image * HO * WO * channels + c;
        sx = (int)channels;
        sy = W * (int)channels;
        out_sy = WO * (int)channels;
    }} else {{
        grid = column / WO;
        gx = (int)(column - grid * WO);
        base = grid * H * W;
        out_base = grid * HO * WO;
        sx = 1;
        sy = W;
        out_sy = WO;
    }}
    const int gc = gx + CX;  // the window's centre column in the input
    const int y0 = (int)(blockIdx.y * rows), y1 = min(y0 + (int)rows, HO);
    const float* src = x + base;
    float* dst = out + out_base;
    const long long channel = grid % channels;
    const float* wc = w + channel * KH * KW;
{weights}
    const float b = bias ? __ldg(bias + channel) : 0.0f;{channel_values}{channel_parts}
{inside}
    auto load = [&](int y, float* row) {{
        const bool y_in = y >= 0 && y < H;
{loads}
    }};
    float v[KH][KW] = {{}}, ahead[KW] = {{}};  // v[r][c]: input row y + CY - RY + r, column gc - KW / 2 + c
    #pragma unroll
    for (int r = 1; r < KH; ++r) load(y0 + CY - RY - 1 + r, v[r]);
    load(y0 + CY + RY, ahead);
    for (int y = y0; y < y1; ++y) {{
        #pragma unroll
        for (int r = 0; r < KH - 1; ++r) {{
{shifts}
        }}
{takes}
        load(y + CY + RY + 1, ahead);
        float acc = b;
{sums}
        dst[y * out_sy + gx * sx] = {stored};
    }}
}}
"""
    return KernelSource(name, source)

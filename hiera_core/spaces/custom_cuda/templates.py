"""CUDA sources of the standalone templates: reductions over one dim, pooling and group norm (the
radius-1 stencil's is in `stencil_template`). Pure (no torch): text generation only; the host side
is in the proposal runtime.
"""

from __future__ import annotations

from hiera_core.spaces.custom_cuda.expr import Expr
from hiera_core.spaces.custom_cuda.fused import KernelSource, channel_epilogue, entry_guard, epilogue_function

REDUCE_OPS = ("sum", "mean", "amax", "amin", "argmax", "argmin", "prod")
REDUCE_SLICES = 8  # warps per block splitting the reduced dim in the column kernel


def reduce_source(name: str, op: str) -> KernelSource:
    """Reduce dim 1 of a contiguous (outer, R, inner) view.

    `_cols` (inner > 1): a warp spans 32 consecutive inner positions (coalesced), the block's 8
    warps interleave over R, and blockIdx.z splits R into chunks so that the grid fills the GPU;
    with several chunks, per-chunk partials go to a buffer that `_finalize` combines in chunk
    order (deterministic, no atomics). `_vec` (value reductions, inner a multiple of 4 dividing
    1024): the same with float4 columns and whole rows per block step, `_vec_finalize` its partials.
    `_rows` (inner == 1): one warp per row, lanes striding R; rows too few to fill the GPU (an argmax
    over a vocabulary) split R into chunks of warps of their own, their partials combined by `_finalize`.
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
    # Value reductions of float4 columns: inner % 4 == 0 and inner / 4 divides the block (the host
    # checks), so thread t always holds columns 4 * (t % groups) .. + 3 and the block streams whole
    # rows: 16-byte loads, each warp's reads contiguous however small inner is.
    vec = f"""extern "C" __global__ void __launch_bounds__(256) {name}_vec(
        const float* __restrict__ x, float* __restrict__ pv, float* __restrict__ ov,
        long long outer, long long R, long long inner, long long chunk, long long split) {{
    __shared__ float4 sv[256];
    const unsigned groups = (unsigned)(inner / 4), lanes = blockDim.x / groups;
    const unsigned g = threadIdx.x % groups, lane = threadIdx.x / groups;
    const long long r0 = (long long)blockIdx.x * chunk + lane, r1 = min(R, (long long)blockIdx.x * chunk + chunk);
    const int steps = r0 < r1 ? (int)((r1 - r0 + lanes - 1) / lanes) : 0;
    const float id = hi_identity().v;
    for (long long o = blockIdx.y; o < outer; o += gridDim.y) {{
        const float4* p = reinterpret_cast<const float4*>(x + o * R * inner) + r0 * groups + g;
        float4 acc = make_float4(id, id, id, id);
        #pragma unroll 4
        for (int k = 0; k < steps; ++k, p += lanes * groups) {{
            const float4 v = *p;
            acc = make_float4(hi_value(acc.x, v.x), hi_value(acc.y, v.y), hi_value(acc.z, v.z), hi_value(acc.w, v.w));
        }}
        sv[threadIdx.x] = acc;
        __syncthreads();
        for (unsigned half = lanes / 2; half > 0; half >>= 1) {{
            if (lane < half) {{
                const float4 a = sv[threadIdx.x], b = sv[threadIdx.x + half * groups];
                sv[threadIdx.x] = make_float4(hi_value(a.x, b.x), hi_value(a.y, b.y), hi_value(a.z, b.z), hi_value(a.w, b.w));
            }}
            __syncthreads();
        }}
        if (lane == 0) {{
            const float4 a = sv[g];
            const long long at = (split ? (long long)blockIdx.x * outer + o : o) * inner + 4 * (long long)g;
            if (split) {{
                pv[at] = a.x; pv[at + 1] = a.y; pv[at + 2] = a.z; pv[at + 3] = a.w;
            }} else {{
                hi_store(ov, nullptr, at, HiAcc{{a.x, 0}}, R); hi_store(ov, nullptr, at + 1, HiAcc{{a.y, 0}}, R);
                hi_store(ov, nullptr, at + 2, HiAcc{{a.z, 0}}, R); hi_store(ov, nullptr, at + 3, HiAcc{{a.w, 0}}, R);
            }}
        }}
        __syncthreads();
    }}
}}
"""
    vec_finalize = f"""extern "C" __global__ void __launch_bounds__(256) {name}_vec_finalize(
        const float* __restrict__ pv, float* __restrict__ ov, long long chunks, long long count, long long R) {{
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < count; k += (long long)gridDim.x * blockDim.x) {{
        float v = hi_identity().v;
        for (long long s = 0; s < chunks; ++s) v = hi_value(v, pv[s * count + k]);
        hi_store(ov, nullptr, k, HiAcc{{v, 0}}, R);
    }}
}}
"""
    rows = f"""extern "C" __global__ void __launch_bounds__(256) {name}_rows(
        const float* __restrict__ x, float* __restrict__ pv, long long* __restrict__ pi, float* __restrict__ ov,
        long long* __restrict__ oi, long long rows, long long R, long long chunk, long long split) {{
    const int lane = threadIdx.x & 31;
    const long long chunks = (R + chunk - 1) / chunk, warps = (long long)gridDim.x * (blockDim.x >> 5);
    for (long long w = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); w < rows * chunks; w += warps) {{
        const long long s = w / rows, row = w - s * rows, r1 = min(R, s * chunk + chunk);
        HiAcc acc = hi_identity();
        for (long long r = s * chunk + lane; r < r1; r += 32) acc = hi_combine(acc, HiAcc{{x[row * R + r], r}});
        for (int o = 16; o > 0; o >>= 1)
            acc = hi_combine(acc, HiAcc{{__shfl_xor_sync(0xffffffffu, acc.v, o), __shfl_xor_sync(0xffffffffu, acc.i, o)}});
        if (lane == 0 && split) {{
            pv[s * rows + row] = acc.v;
            pi[s * rows + row] = acc.i;
        }} else if (lane == 0) {{
            hi_store(ov, oi, row, acc, R);
        }}
    }}
}}
"""
    cols, finalize, rows = (entry_guard(f"{name}_{entry}", text)
                            for entry, text in (("cols", cols), ("finalize", finalize), ("rows", rows)))
    vec = "" if op.startswith("arg") else (entry_guard(f"{name}_vec", vec) + entry_guard(f"{name}_vec_finalize", vec_finalize))
    source = f"""// HIERA dim reduction {name}: {op}
#define HI_OP {code}
#define HI_ARG (HI_OP == 4 || HI_OP == 5)
struct HiAcc {{ float v; long long i; }};
__device__ __forceinline__ HiAcc hi_identity() {{
    const float inf = __int_as_float(0x7f800000);
    return HiAcc{{HI_OP <= 1 ? 0.0f : HI_OP == 6 ? 1.0f : (HI_OP == 2 || HI_OP == 4) ? -inf : inf, 0x7fffffffffffffffLL}};
}}
// b is kept over a when it is larger (max) / smaller (min), NaN, or (arg-reductions only: for
// values a tie changes nothing, and then the indices are dead code) equal with a lower index.
__device__ __forceinline__ HiAcc hi_combine(HiAcc a, HiAcc b) {{
    if (HI_OP <= 1) return HiAcc{{a.v + b.v, 0}};
    if (HI_OP == 6) return HiAcc{{a.v * b.v, 0}};
    const bool a_nan = a.v != a.v, b_nan = b.v != b.v;
    const bool wins = (HI_OP == 2 || HI_OP == 4) ? b.v > a.v : b.v < a.v;
    const bool ties = HI_ARG && (a.v == b.v || (a_nan && b_nan)) && b.i < a.i;
    return ((b_nan && !a_nan) || (!a_nan && wins) || ties) ? b : a;
}}
__device__ __forceinline__ float hi_value(float a, float b) {{ return hi_combine(HiAcc{{a, 0}}, HiAcc{{b, 0}}).v; }}
__device__ __forceinline__ void hi_store(float* ov, long long* oi, long long at, HiAcc acc, long long count) {{
    if (HI_ARG) oi[at] = acc.i;
    else ov[at] = HI_OP == 1 ? acc.v / (float)count : acc.v;
}}
{cols}{finalize}{rows}{vec}"""
    return KernelSource(name, source)


def pool_source(name: str, config: dict) -> KernelSource:
    """Max/avg pooling over 1-3 trailing dims (mapped to D, H, W with unit extra dims), one thread
    per output element, 32-bit indices inside a plane; the window's shape, stride, padding and
    dilation are compile-time constants (fully unrolled loops). Averages follow PyTorch's divisor rules (padding counted up
    to the padded border, count_include_pad, divisor_override); max propagates NaN.

    `config["prologue"]` (a pointwise expression of the value read, a leaf TEMPLATE_OUTPUT, and of
    `config["per_channel"]` tensors, one value per channel of (N, C, ...)) is applied to each value
    of the window as it is read: a batch norm and ReLU before a max pool (the ResNet stem) read the
    convolution's output once instead of writing and reading the activated map. Padding stays
    outside the prologue, as PyTorch pads its input. `{name}` walks (plane, output depth) in
    blockIdx.y; `{name}_nhwc` (2D, channels-last maps read and written in place) walks output rows
    in blockIdx.y and a row's points channels fastest, so a warp's reads are contiguous."""
    rank = config["rank"]

    def dims(key: str, fill: int) -> tuple[int, int, int]:
        values = tuple(config[key]) if key in config else (fill,) * rank
        return (fill,) * (3 - rank) + values

    (kd, kh, kw), (sd, sh, sw), (pd, ph, pw) = dims("kernel", 1), dims("stride", 1), dims("padding", 0)
    dd, dh, dw = dims("dilation", 1) if config["kind"] == "max" else (1, 1, 1)
    divisor = config.get("divisor_override") or 0
    per_channel = config.get("per_channel", [])
    extra_params, channel_values, args = channel_epilogue(len(per_channel), "channel")
    window = f"""// HIERA {config['kind']}_pool{rank}d {name}: kernel {config['kernel']}, stride {config['stride']}, padding {config['padding']}
{epilogue_function(config.get("prologue"), per_channel, name="hi_prologue")}constexpr int KD = {kd}, KH = {kh}, KW = {kw}, SD = {sd}, SH = {sh}, SW = {sw};
constexpr int PD = {pd}, PH = {ph}, PW = {pw}, DD = {dd}, DH = {dh}, DW = {dw};
constexpr bool IS_MAX = {'true' if config['kind'] == 'max' else 'false'};
constexpr bool COUNT_PAD = {'true' if config.get('count_include_pad', True) else 'false'};
constexpr int DIVISOR = {int(divisor)};
// The window at (d0, h0, w0) (its first point, padding included) of a D x H x W plane, `at(d, h, w)`
// the value of a point inside it.
template <typename At>
__device__ __forceinline__ float hi_window(const At& at, int D, int H, int W, int d0, int h0, int w0) {{
    // Every point is read, padding at the nearest point inside and left out of the result: no branch
    // around `at`, so the prologue's per-channel part (a batch norm's rsqrt) is computed once, not
    // once a point (9 rsqrt a 3x3 window, each under its own bounds check, before).
    float acc = IS_MAX ? -__int_as_float(0x7f800000) : 0.0f;
    #pragma unroll
    for (int a = 0; a < KD; ++a) {{
        const int d = d0 + a * DD;
        const bool d_in = d >= 0 && d < D;
        #pragma unroll
        for (int b = 0; b < KH; ++b) {{
            const int h = h0 + b * DH;
            const bool h_in = d_in && h >= 0 && h < H;
            #pragma unroll
            for (int c = 0; c < KW; ++c) {{
                const int w = w0 + c * DW;
                const float v = at(min(max(d, 0), D - 1), min(max(h, 0), H - 1), min(max(w, 0), W - 1));
                if (h_in && w >= 0 && w < W) {{
                    if (IS_MAX) {{ if (v > acc || v != v) acc = v; }} else acc += v;
                }}
            }}
        }}
    }}
    if (!IS_MAX) {{
        const int d1 = min(d0 + KD, D + PD), h1 = min(h0 + KH, H + PH), w1 = min(w0 + KW, W + PW);
        const int padded = (d1 - d0) * (h1 - h0) * (w1 - w0);
        const int inside = (min(d1, D) - max(d0, 0)) * (min(h1, H) - max(h0, 0)) * (min(w1, W) - max(w0, 0));
        acc /= (float)(DIVISOR ? DIVISOR : COUNT_PAD ? padded : inside);
    }}
    return acc;
}}
"""
    params = ("const float* __restrict__ x, float* __restrict__ out, long long planes, long long channels, "
              f"long long D_, long long H_, long long W_, long long OD_, long long OH_, long long OW_{extra_params}")
    planar = f"""extern "C" __global__ void __launch_bounds__(256) {name}({params}) {{
    const int D = (int)D_, H = (int)H_, W = (int)W_, OD = (int)OD_, OH = (int)OH_, OW = (int)OW_;
    // blockIdx.y walks (plane, output depth); x threads walk one output plane with 32-bit indices.
    const unsigned area = (unsigned)OH * OW;
    for (long long pz = blockIdx.y; pz < planes * OD; pz += gridDim.y) {{
        const int od = (int)(pz % OD);
        const long long plane = pz / OD, channel = plane % channels;
        const float* src = x + plane * D * H * W;
        float* dst = out + pz * area;{channel_values}
        const auto at = [&](int d, int h, int w) {{ return hi_prologue(src[(d * H + h) * W + w]{args}); }};
        for (unsigned s = blockIdx.x * blockDim.x + threadIdx.x; s < area; s += gridDim.x * blockDim.x) {{
            const int ow = (int)(s % OW), oh = (int)(s / OW);
            dst[s] = hi_window(at, D, H, W, od * SD - PD, oh * SH - PH, ow * SW - PW);
        }}
    }}
}}
"""
    nhwc = f"""extern "C" __global__ void __launch_bounds__(256) {name}_nhwc({params}) {{
    // (planes: the images) blockIdx.y walks output rows (image, oh); x threads walk a row's points
    // (ow, c), c fastest, so a warp's reads are contiguous channels; offsets inside an image are
    // 32-bit (the host checks), one division a point: 64-bit ones took most of the kernel's time.
    const int H = (int)H_, W = (int)W_, OH = (int)OH_;
    const unsigned C = (unsigned)channels, row_points = (unsigned)OW_ * C;
    for (long long row = blockIdx.y; row < planes * OH; row += gridDim.y) {{
        const long long n = row / OH;
        const int oh = (int)(row - n * OH);
        const float* image = x + n * H * W * C;
        float* dst = out + row * row_points;
        for (unsigned s = blockIdx.x * blockDim.x + threadIdx.x; s < row_points; s += gridDim.x * blockDim.x) {{
            const unsigned channel = s % C;
            const int ow = (int)(s / C);
            const float* src = image + channel;{channel_values}
            const auto at = [&](int, int h, int w) {{ return hi_prologue(src[(unsigned)(h * W + w) * C]{args}); }};
            dst[s] = hi_window(at, 1, H, W, 0, oh * SH - PH, ow * SW - PW);
        }}
    }}
}}
"""
    source = window + entry_guard(name, planar) + (entry_guard(f"{name}_nhwc", nhwc) if rank == 2 else "")
    return KernelSource(name, source)


def group_norm_source(name: str, epilogue: Expr | None = None) -> KernelSource:
    """Group norm of a contiguous (N, C, *spatial) tensor in two kernels over the same grid, (chunks,
    N * G): a group's row of C/G * spatial points is spread over many blocks, where one block per
    row would leave most of the GPU idle when N * G is small.

    `_stats`: each block sums x - K and (x - K)^2 over its chunk of a row, K the row's first value
    (a shift that keeps the variance free of cancellation when the mean is far from 0). `_apply`:
    each block combines its row's partials (a warp, in chunk order: deterministic, no atomics) and
    writes (x - mean) * rstd * w[c] + b[c]. PyTorch's semantics: biased variance, eps inside the
    square root. `epilogue`, a pointwise expression of the output (a leaf TEMPLATE_OUTPUT), is
    applied in the same pass (GroupNorm + SiLU: no second read and write). The float4 paths need
    whole float4s per chunk and per channel (the host's chunks
    are multiples of 4; spatial % 4 == 0 for `_apply`) and 16-byte aligned tensors. Offsets inside a
    row are 32-bit (the host checks a row has fewer than 2^31 points): cheaper division by spatial.
    """
    helpers = epilogue_function(epilogue) + """constexpr int THREADS = 256;
// The block's sums of s and q, in every thread (blockDim.x == THREADS, a multiple of 32).
__device__ __forceinline__ void hi_pair_sum(float& s, float& q, float* red) {
    for (int o = 16; o > 0; o >>= 1) { s += __shfl_xor_sync(0xffffffffu, s, o); q += __shfl_xor_sync(0xffffffffu, q, o); }
    __syncthreads();
    if ((threadIdx.x & 31) == 0) { red[threadIdx.x >> 5] = s; red[32 + (threadIdx.x >> 5)] = q; }
    __syncthreads();
    const bool live = (threadIdx.x & 31) < (THREADS >> 5);
    s = live ? red[threadIdx.x & 31] : 0.0f;
    q = live ? red[32 + (threadIdx.x & 31)] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) { s += __shfl_xor_sync(0xffffffffu, s, o); q += __shfl_xor_sync(0xffffffffu, q, o); }
}
"""
    stats = f"""extern "C" __global__ void __launch_bounds__(THREADS) {name}_stats(
        const float* __restrict__ x, float* __restrict__ partial, long long rows, long long length, long long chunk) {{
    __shared__ float red[64];
    const long long chunks = gridDim.x;
    const bool vector = length % 4 == 0 && chunk % 4 == 0 && (reinterpret_cast<unsigned long long>(x) & 15) == 0;
    for (long long row = blockIdx.y; row < rows; row += gridDim.y) {{
        const float* src = x + row * length;
        const float shift = src[0];
        const unsigned begin = blockIdx.x * (unsigned)chunk, end = (unsigned)min((long long)begin + chunk, length);
        float s = 0.0f, q = 0.0f;
        if (vector) {{
            for (unsigned i = begin + 4 * threadIdx.x; i < end; i += 4 * THREADS) {{
                const float4 v = __ldg(reinterpret_cast<const float4*>(src + i));
                const float a = v.x - shift, b = v.y - shift, c = v.z - shift, d = v.w - shift;
                s += (a + b) + (c + d);
                q += (a * a + b * b) + (c * c + d * d);
            }}
        }} else {{
            for (unsigned i = begin + threadIdx.x; i < end; i += THREADS) {{
                const float a = src[i] - shift;
                s += a;
                q += a * a;
            }}
        }}
        hi_pair_sum(s, q, red);
        if (threadIdx.x == 0) {{
            partial[2 * (row * chunks + blockIdx.x)] = s;
            partial[2 * (row * chunks + blockIdx.x) + 1] = q;
        }}
    }}
}}
"""
    apply = f"""extern "C" __global__ void __launch_bounds__(THREADS) {name}_apply(
        const float* __restrict__ x, const float* __restrict__ partial, const float* __restrict__ w,
        const float* __restrict__ b, float* __restrict__ out, long long rows, long long length, long long chunk,
        long long groups, long long per_group, long long spatial, float eps) {{
    __shared__ float stats[2];
    const long long chunks = gridDim.x;
    const bool vector = length % 4 == 0 && chunk % 4 == 0 && spatial % 4 == 0
        && ((reinterpret_cast<unsigned long long>(x) | reinterpret_cast<unsigned long long>(out)) & 15) == 0;
    for (long long row = blockIdx.y; row < rows; row += gridDim.y) {{
        const float* src = x + row * length;
        float* dst = out + row * length;
        if (threadIdx.x < 32) {{
            float s = 0.0f, q = 0.0f;
            for (long long k = threadIdx.x; k < chunks; k += 32) {{
                s += partial[2 * (row * chunks + k)];
                q += partial[2 * (row * chunks + k) + 1];
            }}
            for (int o = 16; o > 0; o >>= 1) {{ s += __shfl_xor_sync(0xffffffffu, s, o); q += __shfl_xor_sync(0xffffffffu, q, o); }}
            if (threadIdx.x == 0) {{
                const float shifted_mean = s / (float)length;
                stats[0] = src[0] + shifted_mean;
                stats[1] = rsqrtf(fmaxf(q / (float)length - shifted_mean * shifted_mean, 0.0f) + eps);
            }}
        }}
        __syncthreads();
        const float mean = stats[0], rstd = stats[1];
        const unsigned channel0 = (unsigned)(row % groups * per_group), per_channel = (unsigned)spatial;
        const unsigned begin = blockIdx.x * (unsigned)chunk, end = (unsigned)min((long long)begin + chunk, length);
        if (vector) {{
            for (unsigned i = begin + 4 * threadIdx.x; i < end; i += 4 * THREADS) {{
                const unsigned c = channel0 + i / per_channel;  // one channel for the 4 lanes: spatial % 4 == 0
                const float scale = w ? rstd * w[c] : rstd, offset = b ? b[c] : 0.0f;
                float4 v = __ldg(reinterpret_cast<const float4*>(src + i));
                v.x = hi_epilogue(fmaf(v.x - mean, scale, offset));
                v.y = hi_epilogue(fmaf(v.y - mean, scale, offset));
                v.z = hi_epilogue(fmaf(v.z - mean, scale, offset));
                v.w = hi_epilogue(fmaf(v.w - mean, scale, offset));
                *reinterpret_cast<float4*>(dst + i) = v;
            }}
        }} else {{
            for (unsigned i = begin + threadIdx.x; i < end; i += THREADS) {{
                const unsigned c = channel0 + i / per_channel;
                const float scale = w ? rstd * w[c] : rstd, offset = b ? b[c] : 0.0f;
                dst[i] = hi_epilogue(fmaf(src[i] - mean, scale, offset));
            }}
        }}
        __syncthreads();  // stats are rewritten for the block's next row
    }}
}}
"""
    source = (f"// HIERA group norm {name}: statistics in chunks of each group's row, then one normalising pass\n"
              + helpers + entry_guard(f"{name}_stats", stats) + entry_guard(f"{name}_apply", apply))
    return KernelSource(name, source)

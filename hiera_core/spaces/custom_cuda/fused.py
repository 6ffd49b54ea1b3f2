"""CUDA sources of the fused kernels: pointwise (any expression DAG) and total (its sum over every
element), and the pieces the row kernels (`fused_rows`) share with them. Pure (no torch): text
generation only.

Fused kernels read each leaf through a *mode* the host picks at run time from the actual shapes (see
`_hiera_leaf` in the proposal runtime), so one compiled kernel serves every shape:
FULL p[i], SCALAR p[0], COL p[j] (per-last-dim vector), ROW p[row] (per-row value), BCAST
p[(i / inner) % extent] (any broadcast over a contiguous block of dims, e.g. a per-channel bias),
PITCHED p[row * inner + j] (rows apart: a chunk of a wider last dim); masks add 8 (bytes).
Leaves that have the output's shape in the traced graph are always read FULL (the host makes
them contiguous), which skips the mode switch.

Each kernel comes in four entry points: `_vec32/_vec64/_scalar32/_scalar64`. The vec variants
move float4s (guarded by the host: last dim % 4 == 0 and FULL/COL pointers 16-byte aligned); the
32-bit variants index with unsigned 32-bit integers (tensors below 2^31 elements), cheaper for
the div/mod of broadcast reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from hiera_core.spaces.custom_cuda.expr import Emitter, Expr, leaf, leaves_in, read_full, rolled_by, scalars_in

VARIANTS = (("vec32", "unsigned int", "true"), ("vec64", "long long", "true"),
            ("scalar32", "unsigned int", "false"), ("scalar64", "long long", "false"))
POINTWISE_THREADS = 256

LEAF_READS = r"""
// How a leaf is read at flat index i of the iteration space (row = i / cols, j = i % cols). HI_PITCHED:
// rows `inner` floats apart (a chunk or slice of a wider last dim, read in place). HI_ROLLED:
// torch.roll along the dim of stride `inner` and size `extent`, the element (mode >> 4) places on
// (cyclically). With HI_BYTES set the leaf is a bool tensor (one byte, 0 or 1), read as 0.0f or 1.0f.
#define HI_FULL 0
#define HI_SCALAR 1
#define HI_COL 2
#define HI_ROW 3
#define HI_PITCHED 5
#define HI_ROLLED 6
#define HI_BYTES 8
#ifdef HI_ROLLS  // only a rolled read's mode has bits above the kind
#define HI_KIND(mode) ((mode) & 7)
#else
#define HI_KIND(mode) (mode)
#endif
template <typename I>
__device__ __forceinline__ I hi_at(int mode, I i, I row, I j, I inner, I extent) {
    switch (mode & 7) {
        case HI_FULL: return i;
        case HI_SCALAR: return 0;
        case HI_COL: return j;
        case HI_ROW: return row;
        case HI_PITCHED: return row * inner + j;
#ifdef HI_ROLLS
        case HI_ROLLED: {
            const I at = i / inner % extent;
            I from = at + (I)(mode >> 4);
            if (from >= extent) from -= extent;
            return i - at * inner + from * inner;
        }
#endif
        default: return i / inner % extent;
    }
}
__device__ __forceinline__ float hi_byte(const float* __restrict__ p, long long at) {
    return (float)reinterpret_cast<const unsigned char*>(p)[at];
}
template <typename I>
__device__ __forceinline__ float hi_ld(const float* __restrict__ p, int mode, I i, I row, I j, I inner, I extent) {
    if (mode & HI_BYTES) return hi_byte(p, hi_at<I>(mode, i, row, j, inner, extent));
    switch (HI_KIND(mode)) {  // a load per case: one load of a computed index made ptxas spill the 64-bit builds
        case HI_FULL: return p[i];
        case HI_SCALAR: return p[0];
        case HI_COL: return p[j];
        case HI_ROW: return p[row];
        case HI_PITCHED: return p[row * inner + j];
#ifdef HI_ROLLS
        case HI_ROLLED: return p[hi_at<I>(mode, i, row, j, inner, extent)];
#endif
        default: return p[i / inner % extent];
    }
}
template <typename I>
__device__ __forceinline__ float4 hi_ld4(const float* __restrict__ p, int mode, I i, I row, I j, I inner, I extent) {
    if (mode & HI_BYTES) {  // four bytes; a float4 of the row's elements i..i+3
        if ((mode & 7) == HI_SCALAR || (mode & 7) == HI_ROW || ((mode & 7) == 4 && inner % 4 == 0)) {
            const float v = hi_byte(p, hi_at<I>(mode, i, row, j, inner, extent));
            return make_float4(v, v, v, v);
        }
        return make_float4(hi_byte(p, hi_at<I>(mode, i, row, j, inner, extent)),
                           hi_byte(p, hi_at<I>(mode, i + 1, row, j + 1, inner, extent)),
                           hi_byte(p, hi_at<I>(mode, i + 2, row, j + 2, inner, extent)),
                           hi_byte(p, hi_at<I>(mode, i + 3, row, j + 3, inner, extent)));
    }
    switch (HI_KIND(mode)) {
        case HI_FULL: return *reinterpret_cast<const float4*>(p + i);
#ifdef HI_ROLLS
        case HI_ROLLED:  // along a dim before the last the four lanes move together (the host checks alignment)
            if (inner % 4 == 0) return *reinterpret_cast<const float4*>(p + hi_at<I>(mode, i, row, j, inner, extent));
            return make_float4(p[hi_at<I>(mode, i, row, j, inner, extent)], p[hi_at<I>(mode, i + 1, row, j + 1, inner, extent)],
                               p[hi_at<I>(mode, i + 2, row, j + 2, inner, extent)],
                               p[hi_at<I>(mode, i + 3, row, j + 3, inner, extent)]);
#endif
        case HI_COL: return *reinterpret_cast<const float4*>(p + j);
        case HI_SCALAR: { const float v = p[0]; return make_float4(v, v, v, v); }
        case HI_ROW: { const float v = p[row]; return make_float4(v, v, v, v); }
        case HI_PITCHED: return *reinterpret_cast<const float4*>(p + row * inner + j);  // the host checks alignment
        default:
            // i is a multiple of 4: when inner is too, the four lanes share one broadcast element
            // (a per-channel value over H*W), so one division instead of four.
            if (inner % 4 == 0) { const float v = p[i / inner % extent]; return make_float4(v, v, v, v); }
            return make_float4(p[i / inner % extent], p[(i + 1) / inner % extent],
                               p[(i + 2) / inner % extent], p[(i + 3) / inner % extent]);
    }
}
"""


def leaf_reads_source(leaves: list[Expr]) -> str:
    """LEAF_READS, with the rolled read compiled in only where a leaf is read rolled (its 64-bit
    index arithmetic in every kernel made ptxas spill the 64-bit builds)."""
    return ("#define HI_ROLLS\n" if any(rolled_by(e) for e in leaves) else "") + LEAF_READS


LANES = ("x", "y", "z", "w")


@dataclass
class KernelSource:
    name: str  # fused kernels' entry points are f"{name}_{variant}"
    source: str


def leaf_params(count: int) -> str:
    return ", ".join(f"const float* __restrict__ p{k}, long long m{k}, long long in{k}, long long ex{k}"
                     for k in range(count))


def leaf_args(count: int) -> str:
    return ", ".join(f"p{k}, m{k}, in{k}, ex{k}" for k in range(count))


def scalar_arguments(exprs: list[Expr]) -> tuple[list[tuple[Expr, str]], str, str]:
    """The Python numbers `exprs` read, as kernel arguments: each bound to its name (s0, s1...), the
    parameters' declaration and the arguments' names (both "" or starting with ", ")."""
    bound = [(e, f"s{k}") for k, e in enumerate(scalars_in(exprs))]
    return (bound, "".join(f", float {name}" for _, name in bound), "".join(f", {name}" for _, name in bound))


@dataclass
class ElementKernel:
    """What a kernel computing `values` element by element reads and calls: its leaves (argument
    order) and whether each is read FULL, the Python numbers' parameter names and declarations,
    and `hi_elem(leaf values..., numbers..., outputs&...)`."""

    leaves: list[Expr]
    full: list[bool]
    numbers: list[str]
    number_params: str
    number_args: str
    function: str

    def call(self, values: list[str], results: list[str]) -> str:
        return f"hi_elem({', '.join(values + self.numbers + results)});"


def element_kernel(values: list[Expr]) -> ElementKernel:
    shape = values[0].shape
    leaves = leaves_in(values)
    bound, number_params, number_args = scalar_arguments(values)
    return ElementKernel(leaves, [read_full(e, shape) for e in leaves], [name for _, name in bound], number_params,
                         number_args, element_function("hi_elem", leaves, bound, values))


def element_function(name: str, inputs: list[Expr], bound: list[tuple[Expr, str]], outputs: list[Expr]) -> str:
    """`__device__ void name(float l.., float r.., float& o..)` computing `outputs` for one element."""
    emitter = Emitter(names={e: f"l{k}" for k, e in enumerate(inputs)} | {e: n for e, n in bound})
    results = [emitter.emit(e) for e in outputs]
    params = [f"const float l{k}" for k in range(len(inputs))] + [f"const float {n}" for _, n in bound]
    params += [f"float& o{k}" for k in range(len(outputs))]
    body = emitter.lines + [f"o{k} = {r};" for k, r in enumerate(results)]
    return (f"__device__ __forceinline__ void {name}({', '.join(params)}) {{\n    "
            + "\n    ".join(body) + "\n}\n")


# A template's own output inside an epilogue expression fused into the template's store.
TEMPLATE_OUTPUT = "hiera_template_output"


def epilogue_function(epilogue: Expr | None, per_channel: list[Expr] | tuple = (), name: str = "hi_epilogue") -> str:
    """`hi_epilogue(y, c0, ...)`: the pointwise `epilogue` of a template's output (a leaf
    TEMPLATE_OUTPUT) applied as it is stored, or the identity; `per_channel`, leaves it also reads,
    one value per channel (a folded batch norm's statistics), which the caller passes as c0, c1...
    `name`: another function's (a prologue applied to each value a template reads)."""
    params = "const float y" + "".join(f", const float c{k}" for k in range(len(per_channel)))
    if epilogue is None:
        return f"__device__ __forceinline__ float {name}({params}) {{ return y; }}\n"
    output = leaf(TEMPLATE_OUTPUT, epilogue.shape)
    args = "y" + "".join(f", c{k}" for k in range(len(per_channel)))
    return (element_function(f"{name}_of", [output, *per_channel], [], [epilogue])
            + f"__device__ __forceinline__ float {name}({params}) {{ float r; {name}_of({args}, r); return r; }}\n")


# Nodes an epilogue part is never made of: they cost nothing to read where they are used.
_FREE = ("leaf", "const", "scalar", "inv_n")


def hoisted_epilogue(epilogue: Expr | None, per_channel: list[Expr] | tuple, output: str) -> tuple[str, str, str]:
    """A template's epilogue for a loop that stores many outputs of one channel: (its functions,
    the statements computing its per-channel parts once, after channel_epilogue's values, and the
    call applying it to `output`). The parts are the largest sub-expressions of the per-channel
    values alone (a batch norm's rsqrt(var + eps)), which nvcc left inside a loop with branches:
    an rsqrt per output in the column kernel (sm_90 PTX). Without such parts, hi_epilogue as it is."""
    values = [f"c{k}" for k in range(len(per_channel))]
    parts: list[Expr] = []
    if epilogue is not None and per_channel:
        stored = leaf(TEMPLATE_OUTPUT, epilogue.shape)
        varying = set()
        for node in epilogue.walk():
            if node == stored or any(arg in varying for arg in node.args):
                varying.add(node)
                parts += [arg for arg in node.args if arg not in varying and arg.op not in _FREE and arg not in parts]
    if not parts:
        return epilogue_function(epilogue, per_channel), "", f"hi_epilogue({', '.join([output, *values])})"
    names = [f"h{k}" for k in range(len(parts))]
    functions = (element_function("hi_epilogue_parts", list(per_channel), [], parts)
                 + element_function("hi_epilogue_hoisted", [stored, *per_channel],
                                    list(zip(parts, names)), [epilogue]))
    prepare = f"\n    float {', '.join(names)};\n    hi_epilogue_parts({', '.join(values + names)});"
    return (functions, prepare,
            f"[&] {{ float r; hi_epilogue_hoisted({', '.join([output, *values, *names])}, r); return r; }}()")


def channel_epilogue(count: int, channel: str) -> tuple[str, str, str]:
    """What a convolution template adds for an epilogue reading `count` per-channel tensors: its
    kernel's parameters (pointers e0, e1...), the statements reading their values c0, c1... for the
    C++ expression `channel`, and the arguments those values add to hi_epilogue's call."""
    params = "".join(f", const float* __restrict__ e{k}" for k in range(count))
    values = "".join(f"\n        const float c{k} = __ldg(e{k} + {channel});" for k in range(count))
    return params, values, "".join(f", c{k}" for k in range(count))


def entry_guard(entry: str, text: str) -> str:
    """Compile `text` unless the runtime asked for another entry point only (HIERA_ENTRY_<name>)."""
    return f"#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_{entry})\n{text}#endif\n"


def entry_points(name: str, threads: int, params: str, body: str, args: str) -> str:
    return "".join(entry_guard(
        f"{name}_{suffix}",
        f'extern "C" __global__ void __launch_bounds__({threads}) {name}_{suffix}({params}) '
        f"{{ {body}<{index}, {vec}>({args}); }}\n") for suffix, index, vec in VARIANTS)


def leaf_reads(leaves: list[Expr], full: list[bool], vec: bool) -> list[str]:
    """Statements reading leaf k at flat index i into v{k} (a float4 at i..i+3 when vec).

    Element by element, broadcast leaves of one traced shape (a batch norm's four per-channel
    tensors) share the first one's broadcast index `i / inner % extent` where their
    modes and extents agree at run time (a check every thread makes alike): one integer division by
    a run-time value per element instead of one per leaf, which made such kernels ALU-bound
    (MobileNetV2's batch norm + ReLU6 on a 14-wide map, H100: 37 us against inductor's 17 us). The
    float4 loads already divide once per float4 and leaf, and sharing there made ptxas spill."""
    leader: dict[int, int] = {}  # leaf -> the first leaf of its shape, for shapes two or more leaves share
    if not vec:
        groups: dict[tuple, list[int]] = {}
        for k, is_full in enumerate(full):
            if not is_full:
                groups.setdefault(leaves[k].shape, []).append(k)
        leader = {k: ks[0] for ks in groups.values() if len(ks) > 1 for k in ks}
    lines = []
    for k, is_full in enumerate(full):
        if vec:
            load = (f"*reinterpret_cast<const float4*>(p{k} + i)" if is_full
                    else f"hi_ld4<I>(p{k}, (int)m{k}, i, row, j, (I)in{k}, (I)ex{k})")
            lines.append(f"const float4 v{k} = {load};")
            continue
        load = f"p{k}[i]" if is_full else f"hi_ld<I>(p{k}, (int)m{k}, i, row, j, (I)in{k}, (I)ex{k})"
        if k in leader:  # HI_BCAST (4) with no other bits: not a mask's bytes
            first = leader[k]
            if k == first:
                lines.append(f"const bool hs{k} = m{k} == 4;")
                lines.append(f"const I hb{k} = hs{k} ? i / (I)in{k} % (I)ex{k} : 0;")
                condition = f"hs{k}"
            else:
                condition = f"hs{first} && m{k} == 4 && in{k} == in{first} && ex{k} == ex{first}"
            load = f"{condition} ? p{k}[hb{first}] : {load}"
        lines.append(f"const float v{k} = {load};")
    return lines


def pointwise_source(name: str, outputs: list[Expr]) -> tuple[KernelSource, list[Expr], list[bool]]:
    """One kernel computing `outputs` (same shape, no reductions). Returns the source, the leaves
    in argument order and whether each leaf is read FULL."""
    kernel = element_kernel(outputs)
    leaves, full, element = kernel.leaves, kernel.full, kernel.function
    needs_rowcol = not all(full)
    count, outs = len(leaves), len(outputs)
    reads = partial(leaf_reads, leaves, full)
    rowcol = "const I row = i / cols, j = i - row * cols;" if needs_rowcol else ""
    lane_calls = "\n            ".join(
        kernel.call([f"v{k}.{lane}" for k in range(count)], [f"r{o}.{lane}" for o in range(outs)]) for lane in LANES)
    scalar_call = kernel.call([f"v{k}" for k in range(count)], [f"o{o}[i]" for o in range(outs)])
    out_params = ", ".join(f"float* __restrict__ o{o}" for o in range(outs))
    params = ", ".join(p for p in (leaf_params(count), out_params, "long long n_, long long cols_") if p)
    params += kernel.number_params
    args = ", ".join(a for a in (leaf_args(count), ", ".join(f"o{o}" for o in range(outs)), "n_, cols_") if a)
    args += kernel.number_args
    newline = "\n            "
    body = f"""
template <typename I, bool VEC>
__device__ __forceinline__ void hi_pointwise({params}) {{
    const I n = (I)n_, cols = (I)cols_;
    const I stride = (I)gridDim.x * blockDim.x;
    const I first = (I)blockIdx.x * blockDim.x + threadIdx.x;
    if (VEC) {{
        for (I q = first; q < n / 4; q += stride) {{
            const I i = q * 4;
            {rowcol}
            {newline.join(reads(True))}
            {' '.join(f'float4 r{o};' for o in range(outs))}
            {lane_calls}
            {' '.join(f'reinterpret_cast<float4*>(o{o})[q] = r{o};' for o in range(outs))}
        }}
    }} else {{
        for (I i = first; i < n; i += stride) {{
            {rowcol}
            {newline.join(reads(False))}
            {scalar_call}
        }}
    }}
}}
"""
    source = (f"// HIERA pointwise kernel {name}: one pass, {count} inputs, {outs} outputs\n"
              + (leaf_reads_source(leaves) if needs_rowcol else "") + element + body
              + entry_points(name, POINTWISE_THREADS, params, "hi_pointwise", args))
    return KernelSource(name, source), leaves, full


def total_source(name: str, value: Expr) -> tuple[KernelSource, list[Expr], list[bool]]:
    """The sum of `value` (a pointwise expression, no reductions) over all its elements, never
    writing `value` itself: `{name}_{variant}` leaves one partial sum per block, `{name}_finalize`
    adds them in block order in one block (deterministic, no atomics) and scales the total (1/n
    for a mean). Returns the source, the leaves in argument order and whether each is read FULL."""
    kernel = element_kernel([value])
    leaves, full, element = kernel.leaves, kernel.full, kernel.function
    count = len(leaves)
    rowcol = "const I row = i / cols, j = i - row * cols;" if not all(full) else ""
    lanes = "\n            ".join(kernel.call([f"v{k}.{lane}" for k in range(count)], [f"r.{lane}"]) for lane in LANES)
    params = f"{leaf_params(count)}, float* __restrict__ partial, long long n_, long long cols_{kernel.number_params}"
    args = f"{leaf_args(count)}, partial, n_, cols_{kernel.number_args}"
    newline = "\n            "
    body = f"""
template <typename I, bool VEC>
__device__ __forceinline__ void hi_total({params}) {{
    __shared__ float red[32];
    const I n = (I)n_, cols = (I)cols_;
    const I stride = (I)gridDim.x * blockDim.x;
    const I first = (I)blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    if (VEC) {{
        for (I q = first; q < n / 4; q += stride) {{
            const I i = q * 4;
            {rowcol}
            {newline.join(leaf_reads(leaves, full, True))}
            float4 r;
            {lanes}
            acc += (r.x + r.y) + (r.z + r.w);
        }}
    }} else {{
        for (I i = first; i < n; i += stride) {{
            {rowcol}
            {newline.join(leaf_reads(leaves, full, False))}
            float r;
            {kernel.call([f'v{k}' for k in range(count)], ['r'])}
            acc += r;
        }}
    }}
    acc = hi_block_sum(acc, red);
    if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}}
"""
    threads = POINTWISE_THREADS
    finalize = entry_guard(f"{name}_finalize", f"""extern "C" __global__ void __launch_bounds__({threads}) {name}_finalize(
        const float* __restrict__ partial, float* __restrict__ out, long long blocks, float scale) {{
    __shared__ float red[32];
    float acc = 0.0f;
    for (long long k = threadIdx.x; k < blocks; k += blockDim.x) acc += partial[k];
    acc = hi_block_sum(acc, red);
    if (threadIdx.x == 0) out[0] = acc * scale;
}}
""")
    source = (f"// HIERA total reduction {name}: one pass over {count} inputs, partial sums, then their total\n"
              + (leaf_reads_source(leaves) if not all(full) else "") + BLOCK_REDUCE + element + body
              + entry_points(name, POINTWISE_THREADS, params, "hi_total", args) + finalize)
    return KernelSource(name, source), leaves, full


BLOCK_REDUCE = r"""
__device__ __forceinline__ float hi_max(float a, float b) { return (b > a || b != b) ? b : a; }
__device__ __forceinline__ float hi_min(float a, float b) { return (b < a || b != b) ? b : a; }
#define HI_SUM(a, b) ((a) + (b))
#define HI_MAX(a, b) hi_max(a, b)
#define HI_MIN(a, b) hi_min(a, b)
// Block-wide reduction; every thread gets the result. blockDim.x is a multiple of 32.
#define HI_BLOCK_REDUCE(NAME, OP, IDENTITY)                                          \
__device__ __forceinline__ float NAME(float v, float* red) {                       \
    for (int o = 16; o > 0; o >>= 1) v = OP(v, __shfl_xor_sync(0xffffffffu, v, o)); \
    __syncthreads();                                                                \
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;                         \
    __syncthreads();                                                                \
    v = (threadIdx.x & 31) < (blockDim.x >> 5) ? red[threadIdx.x & 31] : (IDENTITY); \
    for (int o = 16; o > 0; o >>= 1) v = OP(v, __shfl_xor_sync(0xffffffffu, v, o)); \
    return v;                                                                       \
}
HI_BLOCK_REDUCE(hi_block_sum, HI_SUM, 0.0f)
HI_BLOCK_REDUCE(hi_block_max, HI_MAX, -__int_as_float(0x7f800000))
HI_BLOCK_REDUCE(hi_block_min, HI_MIN, __int_as_float(0x7f800000))
"""

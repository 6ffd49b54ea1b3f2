"""CUDA sources of the fused kernels: pointwise (any expression DAG) and row kernels (expressions
with reductions over the last dim). Pure (no torch): text generation only.

Both read each leaf through a *mode* the host picks at run time from the actual shapes (see
`_hiera_leaf` in the proposal runtime), so one compiled kernel serves every shape:
FULL p[i], SCALAR p[0], COL p[j] (per-last-dim vector), ROW p[row] (per-row value), BCAST
p[(i / inner) % extent] (any broadcast over a contiguous block of dims, e.g. a per-channel bias).
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

from hiera_core.spaces.custom_cuda.expr import Emitter, Expr, leaves_in, reductions_in

VARIANTS = (("vec32", "unsigned int", "true"), ("vec64", "long long", "true"),
            ("scalar32", "unsigned int", "false"), ("scalar64", "long long", "false"))
POINTWISE_THREADS = 256
ROW_THREADS = 256  # most threads per row block (the host picks 32..256 by row length)

LEAF_READS = r"""
// How a leaf is read at flat index i of the iteration space (row = i / cols, j = i % cols).
#define HI_FULL 0
#define HI_SCALAR 1
#define HI_COL 2
#define HI_ROW 3
template <typename I>
__device__ __forceinline__ float hi_ld(const float* __restrict__ p, int mode, I i, I row, I j, I inner, I extent) {
    switch (mode) {
        case HI_FULL: return p[i];
        case HI_SCALAR: return p[0];
        case HI_COL: return p[j];
        case HI_ROW: return p[row];
        default: return p[i / inner % extent];
    }
}
template <typename I>
__device__ __forceinline__ float4 hi_ld4(const float* __restrict__ p, int mode, I i, I row, I j, I inner, I extent) {
    switch (mode) {
        case HI_FULL: return *reinterpret_cast<const float4*>(p + i);
        case HI_COL: return *reinterpret_cast<const float4*>(p + j);
        case HI_SCALAR: { const float v = p[0]; return make_float4(v, v, v, v); }
        case HI_ROW: { const float v = p[row]; return make_float4(v, v, v, v); }
        default:
            // i is a multiple of 4: when inner is too, the four lanes share one broadcast element
            // (a per-channel value over H*W), so one division instead of four.
            if (inner % 4 == 0) { const float v = p[i / inner % extent]; return make_float4(v, v, v, v); }
            return make_float4(p[i / inner % extent], p[(i + 1) / inner % extent],
                               p[(i + 2) / inner % extent], p[(i + 3) / inner % extent]);
    }
}
"""

LANES = ("x", "y", "z", "w")


@dataclass
class KernelSource:
    name: str  # fused kernels' entry points are f"{name}_{variant}"
    source: str


def _leaf_params(count: int) -> str:
    return ", ".join(f"const float* __restrict__ p{k}, long long m{k}, long long in{k}, long long ex{k}"
                     for k in range(count))


def _leaf_args(count: int) -> str:
    return ", ".join(f"p{k}, m{k}, in{k}, ex{k}" for k in range(count))


def element_function(name: str, inputs: list[Expr], bound: list[tuple[Expr, str]], outputs: list[Expr]) -> str:
    """`__device__ void name(float l.., float r.., float& o..)` computing `outputs` for one element."""
    emitter = Emitter(names={e: f"l{k}" for k, e in enumerate(inputs)} | {e: n for e, n in bound})
    results = [emitter.emit(e) for e in outputs]
    params = [f"const float l{k}" for k in range(len(inputs))] + [f"const float {n}" for _, n in bound]
    params += [f"float& o{k}" for k in range(len(outputs))]
    body = emitter.lines + [f"o{k} = {r};" for k, r in enumerate(results)]
    return (f"__device__ __forceinline__ void {name}({', '.join(params)}) {{\n    "
            + "\n    ".join(body) + "\n}\n")


def entry_guard(entry: str, text: str) -> str:
    """Compile `text` unless the runtime asked for another entry point only (HIERA_ENTRY_<name>)."""
    return f"#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_{entry})\n{text}#endif\n"


def _entry_points(name: str, threads: int, params: str, body: str, args: str) -> str:
    return "".join(entry_guard(
        f"{name}_{suffix}",
        f'extern "C" __global__ void __launch_bounds__({threads}) {name}_{suffix}({params}) '
        f"{{ {body}<{index}, {vec}>({args}); }}\n") for suffix, index, vec in VARIANTS)


def _leaf_reads(full: list[bool], vec: bool) -> list[str]:
    """Statements reading leaf k at flat index i into v{k} (a float4 at i..i+3 when vec)."""
    lines = []
    for k, is_full in enumerate(full):
        if vec:
            load = (f"*reinterpret_cast<const float4*>(p{k} + i)" if is_full
                    else f"hi_ld4<I>(p{k}, (int)m{k}, i, row, j, (I)in{k}, (I)ex{k})")
            lines.append(f"const float4 v{k} = {load};")
        else:
            load = f"p{k}[i]" if is_full else f"hi_ld<I>(p{k}, (int)m{k}, i, row, j, (I)in{k}, (I)ex{k})"
            lines.append(f"const float v{k} = {load};")
    return lines


def pointwise_source(name: str, outputs: list[Expr]) -> tuple[KernelSource, list[Expr], list[bool]]:
    """One kernel computing `outputs` (same shape, no reductions). Returns the source, the leaves
    in argument order and whether each leaf is read FULL."""
    shape = outputs[0].shape
    leaves = leaves_in(outputs)
    full = [e.shape == shape for e in leaves]
    needs_rowcol = not all(full)
    count, outs = len(leaves), len(outputs)
    element = element_function("hi_elem", leaves, [], outputs)
    reads = partial(_leaf_reads, full)
    rowcol = "const I row = i / cols, j = i - row * cols;" if needs_rowcol else ""
    lane_calls = "\n            ".join(
        "hi_elem(" + ", ".join([f"v{k}.{lane}" for k in range(count)] + [f"r{o}.{lane}" for o in range(outs)]) + ");"
        for lane in LANES)
    scalar_call = "hi_elem(" + ", ".join([f"v{k}" for k in range(count)] + [f"o{o}[i]" for o in range(outs)]) + ");"
    out_params = ", ".join(f"float* __restrict__ o{o}" for o in range(outs))
    params = ", ".join(p for p in (_leaf_params(count), out_params, "long long n_, long long cols_") if p)
    args = ", ".join(a for a in (_leaf_args(count), ", ".join(f"o{o}" for o in range(outs)), "n_, cols_") if a)
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
              + (LEAF_READS if needs_rowcol else "") + element + body
              + _entry_points(name, POINTWISE_THREADS, params, "hi_pointwise", args))
    return KernelSource(name, source), leaves, full


def total_source(name: str, value: Expr) -> tuple[KernelSource, list[Expr], list[bool]]:
    """The sum of `value` (a pointwise expression, no reductions) over all its elements, never
    writing `value` itself: `{name}_{variant}` leaves one partial sum per block, `{name}_finalize`
    adds them in block order in one block (deterministic, no atomics) and scales the total (1/n
    for a mean). Returns the source, the leaves in argument order and whether each is read FULL."""
    shape = value.shape
    leaves = leaves_in([value])
    full = [e.shape == shape for e in leaves]
    count = len(leaves)
    element = element_function("hi_elem", leaves, [], [value])
    rowcol = "const I row = i / cols, j = i - row * cols;" if not all(full) else ""
    lanes = "\n            ".join(f"hi_elem({', '.join(f'v{k}.{lane}' for k in range(count))}, r.{lane});"
                                  for lane in LANES)
    params = f"{_leaf_params(count)}, float* __restrict__ partial, long long n_, long long cols_"
    args = f"{_leaf_args(count)}, partial, n_, cols_"
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
            {newline.join(_leaf_reads(full, True))}
            float4 r;
            {lanes}
            acc += (r.x + r.y) + (r.z + r.w);
        }}
    }} else {{
        for (I i = first; i < n; i += stride) {{
            {rowcol}
            {newline.join(_leaf_reads(full, False))}
            float r;
            hi_elem({', '.join([f'v{k}' for k in range(count)] + ['r'])});
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
              + (LEAF_READS if not all(full) else "") + BLOCK_REDUCE + element + body
              + _entry_points(name, POINTWISE_THREADS, params, "hi_total", args) + finalize)
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

_BLOCK_REDUCE = {"rsum": "hi_block_sum", "rmax": "hi_block_max", "rmin": "hi_block_min"}
_COMBINE = {"rsum": "{acc} += {v};", "rmax": "{acc} = hi_max({acc}, {v});", "rmin": "{acc} = hi_min({acc}, {v});"}
_IDENTITY = {"rsum": "0.0f", "rmax": "-__int_as_float(0x7f800000)", "rmin": "__int_as_float(0x7f800000)"}


@dataclass
class RowPass:
    """One sweep over the row: accumulators for some reductions (an online-softmax pair counts once)."""

    reductions: list[Expr]
    online: list[tuple[Expr, Expr]]  # (rmax node, rsum node) computed together in one pass


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
            if peak.op == "rmax" and peak.args[0] == shifted and peak not in online:
                online[peak] = r
    paired = set(online.values())
    passes = []
    for level in range(1, max(depth.values(), default=0) + 1):
        members = [r for r in reds if depth[r] == level and r not in paired]
        if members:
            passes.append(RowPass([r for r in members if r not in online], [(r, online[r]) for r in members if r in online]))
    return passes


def rows_source(name: str, outputs: list[Expr], row_shape: tuple) -> tuple[KernelSource, list[Expr], list[bool], int, list[str]]:
    """One block per row (grid-stride): sweeps computing the reductions (warp shuffles plus one
    shared-memory hop per block), then the outputs. Row leaves read in more than one sweep are
    cached in dynamic shared memory on their first read (each thread re-reads only what it wrote,
    so no barrier is needed) when the host finds room (flag `use_cache`).

    Returns the source, leaves in argument order, FULL flags, the number of cached leaves and
    each output's kind ("row" | "keep" | "drop").
    """
    reds = reductions_in(outputs)
    passes = plan_passes(reds)
    per_row = row_shape[:-1] + (1,)
    kinds = ["row" if e.shape == row_shape else "keep" if e.shape == per_row else "drop" for e in outputs]
    row_outputs = [e for e, k in zip(outputs, kinds) if k == "row"]
    leaves = leaves_in(outputs)
    full = [e.shape == row_shape for e in leaves]
    scalar_names = {r: f"r{k}" for k, r in enumerate(reds)}

    # Which leaves each sweep reads: its reductions' arguments, not counting earlier reductions.
    sweep_targets = [[r.args[0] for r in p.reductions] + [m.args[0] for m, _ in p.online] for p in passes]
    if row_outputs:
        sweep_targets.append(row_outputs)
    sweep_leaves = [leaves_in(targets, stop_at_reductions=True) for targets in sweep_targets]
    uses = {e: sum(e in s for s in sweep_leaves) for e in leaves}
    cached = [e for e, is_full in zip(leaves, full) if is_full and uses[e] > 1]
    slot = {e: k for k, e in enumerate(cached)}

    functions, sweeps = [], []
    read_before: set = set()
    known: list[tuple[Expr, str]] = [(Expr("inv_n"), "inv_n")]  # row scalars visible to a sweep
    for index, targets in enumerate(sweep_targets):
        inputs = sweep_leaves[index]
        functions.append(element_function(f"hi_sweep{index}", inputs, known, targets))
        row_pass = passes[index] if index < len(passes) else None
        sweeps.append(_sweep(index, row_pass, inputs, leaves, full, slot, read_before, known, scalar_names,
                             [outputs.index(e) for e in targets] if row_pass is None else []))
        read_before |= set(inputs)
        if row_pass is not None:
            known = known + [(r, scalar_names[r]) for r in row_pass.reductions]
            known += [(r, scalar_names[r]) for pair in row_pass.online for r in pair]

    per_row_code = _per_row_outputs(outputs, kinds, leaves, scalar_names)
    count, outs = len(leaves), len(outputs)
    out_params = ", ".join(f"float* __restrict__ o{o}" for o in range(outs))
    params = f"{_leaf_params(count)}, {out_params}, long long rows_, long long cols_, long long use_cache"
    args = f"{_leaf_args(count)}, {', '.join(f'o{o}' for o in range(outs))}, rows_, cols_, use_cache"
    body = f"""
template <typename I, bool VEC>
__device__ __forceinline__ void hi_rows({params}) {{
    extern __shared__ float4 hi_cache4[];
    float* hi_cache = reinterpret_cast<float*>(hi_cache4);
    __shared__ float red[64];
    const I rows = (I)rows_, cols = (I)cols_;
    const float inv_n = 1.0f / (float)cols;
    for (I row = blockIdx.x; row < rows; row += gridDim.x) {{
{''.join(sweeps)}{per_row_code}    }}
}}
"""
    source = (f"// HIERA row kernel {name}: {len(passes)} reduction sweep(s) over each row\n"
              + LEAF_READS + ROW_HELPERS + "".join(functions) + body
              + _entry_points(name, ROW_THREADS, params, "hi_rows", args))
    return KernelSource(name, source), leaves, full, len(cached), kinds


def _sweep(index: int, row_pass: RowPass | None, inputs: list[Expr], leaves: list[Expr], full: list[bool],
           slot: dict, read_before: set, known: list, scalar_names: dict, out_slots: list[int]) -> str:
    """Code of one sweep over a row: load the leaves (from the cache when an earlier sweep stored
    them), evaluate the sweep's element function per element, and either accumulate (a reduction
    sweep, then a block reduction binding the row scalars) or store (the output sweep)."""
    position = [leaves.index(e) for e in inputs]
    scalars = [name for _, name in known]
    accumulators: list[str] = []
    setup: list[str] = []
    finish: list[str] = []
    if row_pass is not None:
        for r in row_pass.reductions:
            name = scalar_names[r]
            accumulators.append(_COMBINE[r.op].format(acc=f"acc_{name}", v="{}"))
            setup.append(f"float acc_{name} = {_IDENTITY[r.op]};")
            finish.append(f"const float {name} = {_BLOCK_REDUCE[r.op]}(acc_{name}, red);")
        for peak, total in row_pass.online:
            m, s_ = scalar_names[peak], scalar_names[total]
            accumulators.append(f"hi_online_add(acc_{m}, acc_{s_}, {{}});")
            setup.append(f"float acc_{m} = {_IDENTITY['rmax']}, acc_{s_} = 0.0f;")
            finish.append(f"hi_block_online(acc_{m}, acc_{s_}, red);\n        const float {m} = acc_{m}, {s_} = acc_{s_};")

    def loads(vec: bool) -> list[str]:
        lines = []
        for e, k in zip(inputs, position):
            kind = "float4" if vec else "float"
            if full[k]:
                direct = f"*reinterpret_cast<const float4*>(p{k} + i)" if vec else f"p{k}[i]"
            else:
                mode_read = "hi_ld4" if vec else "hi_ld"
                direct = f"{mode_read}<I>(p{k}, (int)m{k}, i, row, j, (I)in{k}, (I)ex{k})"
            if e not in slot:
                lines.append(f"const {kind} v{k} = {direct};")
                continue
            cache = f"hi_cache4[(I){slot[e]} * (cols / 4) + q]" if vec else f"hi_cache[(I){slot[e]} * cols + j]"
            if e in read_before:
                lines.append(f"const {kind} v{k} = use_cache ? {cache} : {direct};")
            else:
                lines.append(f"const {kind} v{k} = {direct};")
                lines.append(f"if (use_cache) {cache} = v{k};")
        return lines

    def evaluate(lane: str, results: list[str]) -> str:
        values = [f"v{k}{lane}" for k in position]
        return f"hi_sweep{index}(" + ", ".join(values + scalars + results) + ");"

    def body(vec: bool) -> list[str]:
        lines = loads(vec)
        if row_pass is not None:
            for lane in ([".x", ".y", ".z", ".w"] if vec else [""]):
                results = [f"e{t}" for t in range(len(accumulators))]
                lines.append("{ float " + ", ".join(results) + "; " + evaluate(lane, results) + " "
                             + " ".join(a.format(v) for a, v in zip(accumulators, results)) + " }")
        elif vec:
            lines.append("float4 " + ", ".join(f"w{t}" for t in range(len(out_slots))) + ";")
            for lane in LANES:
                lines.append(evaluate("." + lane, [f"w{t}.{lane}" for t in range(len(out_slots))]))
            lines += [f"reinterpret_cast<float4*>(o{o})[q + row * (cols / 4)] = w{t};" for t, o in enumerate(out_slots)]
        else:
            lines.append(evaluate("", [f"o{o}[i]" for o in out_slots]))
        return lines

    vec_loop = ("#pragma unroll (sizeof(I) == 4 ? 2 : 1)\n            for (I q = threadIdx.x; q < cols / 4; q += blockDim.x) {\n                const I j = q * 4, i = row * cols + j;\n                "
                + "\n                ".join(body(True)) + "\n            }")
    scalar_loop = ("#pragma unroll (sizeof(I) == 4 ? 2 : 1)\n            for (I j = threadIdx.x; j < cols; j += blockDim.x) {\n                const I i = row * cols + j;\n                "
                   + "\n                ".join(body(False)) + "\n            }")
    return ("        // sweep " + str(index) + ("" if row_pass is not None else " (outputs)") + "\n        "
            + "\n        ".join(setup + [f"if (VEC) {{\n            {vec_loop}\n        }} else {{\n            {scalar_loop}\n        }}"]
                                + finish) + "\n")


def _per_row_outputs(outputs, kinds, leaves, scalar_names) -> str:
    """Thread 0 writes the per-row outputs (functions of the row's reductions and per-row leaves)."""
    per_row = [(o, e) for o, (e, k) in enumerate(zip(outputs, kinds)) if k != "row"]
    if not per_row:
        return ""
    emitter = Emitter(names={**scalar_names, Expr("inv_n"): "inv_n"})
    loads = []
    for e in leaves_in([e for _, e in per_row], stop_at_reductions=True):
        k = leaves.index(e)
        emitter.names[e] = f"u{k}"
        loads.append(f"const float u{k} = hi_ld<I>(p{k}, (int)m{k}, row * cols, row, (I)0, (I)in{k}, (I)ex{k});")
    results = [emitter.emit(e) for _, e in per_row]
    stores = [f"o{o}[row] = {value};" for (o, _), value in zip(per_row, results)]
    return ("        if (threadIdx.x == 0) {\n            "
            + "\n            ".join(loads + emitter.lines + stores) + "\n        }\n")

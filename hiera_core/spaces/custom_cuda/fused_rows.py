"""CUDA source of the row kernels: expressions with reductions over the last dim (softmax, the norms,
row sums...), one block per row (a warp per row where one warp covers it; rows along another dim
in `fused_column_rows`), each reduction a sweep over the row (`row_passes`). Pure (no torch): text generation
only; leaves are read and entry points made as in `fused`.
"""

from __future__ import annotations

from hiera_core.spaces.custom_cuda.expr import Emitter, Expr, leaves_in, read_full, reductions_in
from hiera_core.spaces.custom_cuda.fused import (
    LANES,
    KernelSource,
    element_function,
    entry_guard,
    entry_points,
    leaf_args,
    leaf_params,
    leaf_reads_source,
    scalar_arguments,
)
from hiera_core.spaces.custom_cuda.fused_column_rows import column_rows
from hiera_core.spaces.custom_cuda.row_passes import (
    BLOCK_REDUCERS,
    COMBINE,
    IDENTITY,
    REGISTER_ITEMS,
    ROW_HELPERS,
    ROW_THREADS,
    WARP_REDUCERS,
    RowPass,
    cached_read,
    partial_count,
    plan_passes,
)


def rows_source(name: str, outputs: list[Expr], row_shape: tuple, dim: int | None = None
                ) -> tuple[KernelSource, list[Expr], list[bool], int, list[str]]:
    """One block per row (grid-stride): sweeps computing the reductions (warp shuffles plus one
    shared-memory hop per block), then the outputs. Rows one warp covers (entry points `{name}_warp_*`) go a
    warp each, several to a block, reduced by shuffles alone: a block of one warp a row left most
    of an SM idle (32 resident blocks) and paid two barriers a reduction. Row leaves read in more
    than one sweep are cached in dynamic shared memory on their first read (each thread re-reads
    only what it wrote, so no barrier is needed; a warp row has its own part of the cache) when
    the host finds room (flag `use_cache`).

    Rows along another dim than the last (`dim`: softmax over channels) take `column_rows` instead.

    Returns the source, leaves in argument order, FULL flags, the number of cached leaves and
    each output's kind ("row" | "keep" | "drop").
    """
    reds = reductions_in(outputs)
    passes = plan_passes(reds)
    dim = len(row_shape) - 1 if dim is None else dim
    per_row = row_shape[:dim] + (1,) + row_shape[dim + 1:]
    kinds = ["row" if e.shape == row_shape else "keep" if e.shape == per_row else "drop" for e in outputs]
    row_outputs = [e for e, k in zip(outputs, kinds) if k == "row"]
    leaves = leaves_in(outputs)
    full = [read_full(e, row_shape) for e in leaves]
    scalar_names = {r: f"r{k}" for k, r in enumerate(reds)}

    # Which leaves each sweep reads: its reductions' arguments, not counting earlier reductions.
    sweep_targets = [[r.args[0] for r in p.reductions] + [m.args[0] for m, _ in p.online] for p in passes]
    if row_outputs:
        sweep_targets.append(row_outputs)
    sweep_leaves = [leaves_in(targets, stop_at_reductions=True) for targets in sweep_targets]
    scalars, scalar_params, scalar_args = scalar_arguments(outputs)
    uses = {e: sum(e in s for s in sweep_leaves) for e in leaves}
    cached = [e for e, is_full in zip(leaves, full) if is_full and uses[e] > 1]
    if dim != len(row_shape) - 1:
        source = column_rows(name, outputs, kinds, passes, sweep_targets, sweep_leaves, leaves, full, scalar_names,
                             scalars, scalar_params, scalar_args, cached)
        return source, leaves, full, len(cached), kinds
    slot = {e: k for k, e in enumerate(cached)}

    functions, sweeps = [], []
    read_before: set = set()
    known: list[tuple[Expr, str]] = [(Expr("inv_n"), "inv_n"), *scalars]  # row scalars visible to a sweep
    for index, targets in enumerate(sweep_targets):
        inputs = sweep_leaves[index]
        functions.append(element_function(f"hi_sweep{index}", inputs, known, targets))
        row_pass = passes[index] if index < len(passes) else None
        sweeps.append(_sweep(index, row_pass, inputs, leaves, full, slot, read_before, known, scalar_names,
                             [outputs.index(e) for e in targets] if row_pass is None else []))
        read_before |= set(inputs)
        if row_pass is not None:
            known = known + [(r, scalar_names[r]) for r in row_pass.scalars()]

    per_row_code = _per_row_outputs(outputs, kinds, leaves, {**scalar_names, **dict(scalars)})
    count, outs = len(leaves), len(outputs)
    out_params = ", ".join(f"float* __restrict__ o{o}" for o in range(outs))
    params = f"{leaf_params(count)}, {out_params}, long long rows_, long long cols_, long long use_cache{scalar_params}"
    args = f"{leaf_args(count)}, {', '.join(f'o{o}' for o in range(outs))}, rows_, cols_, use_cache{scalar_args}"
    # Zeroed: elements a short row leaves unset put the array on the stack (spilled).
    registers = "".join(f"        float4 hi_reg{k}[ITEMS > 0 ? ITEMS : 1] = {{}}; (void)hi_reg{k};\n" for k in range(len(cached)))
    body = f"""
template <typename I, bool VEC, bool WARP_ROWS = false, int ITEMS = 0>
__device__ __forceinline__ void hi_rows({params}) {{
    extern __shared__ float4 hi_cache_all[];
    __shared__ float red[64];
    const I rows = (I)rows_, cols = (I)cols_;
    constexpr bool warp_rows = WARP_ROWS;
    const unsigned lane = warp_rows ? (threadIdx.x & 31u) : threadIdx.x, width = warp_rows ? 32u : blockDim.x;
    const I per_block = warp_rows ? (I)(blockDim.x >> 5) : (I)1;
    float* hi_cache = reinterpret_cast<float*>(hi_cache_all)
                      + (warp_rows ? (size_t)(threadIdx.x >> 5) * {len(cached)} * (size_t)cols : (size_t)0);
    float4* hi_cache4 = reinterpret_cast<float4*>(hi_cache);
    (void)hi_cache; (void)hi_cache4; (void)red;
    const float inv_n = 1.0f / (float)cols;
    const I q0 = 0, q1 = cols / 4, j0 = 0, j1 = cols;
    for (I row = (I)blockIdx.x * per_block + (warp_rows ? (I)(threadIdx.x >> 5) : (I)0); row < rows;
         row += (I)gridDim.x * per_block) {{
{registers}{''.join(sweeps)}{per_row_code}    }}
}}
"""
    split_params = (f"{leaf_params(count)}, {out_params}, long long rows_, long long cols_, float* parts_, "
                    f"long long chunks_, long long stage{scalar_params}")
    split_args = (f"{leaf_args(count)}, {', '.join(f'o{o}' for o in range(outs))}, rows_, cols_, parts_, chunks_, "
                  f"stage{scalar_args}")
    split = _split_rows(passes, sweep_targets, sweep_leaves, leaves, full, outputs, scalar_names, scalars, per_row_code,
                        split_params)
    source = (f"// HIERA row kernel {name}: {len(passes)} reduction sweep(s) over each row\n"
              + leaf_reads_source(leaves) + ROW_HELPERS + "".join(functions) + body + split
              + entry_points(name, ROW_THREADS, params, "hi_rows", args)
              + _warp_entry_points(name, params, args)
              + (_register_entry_points(name, params, args) if cached else "")
              + entry_points(f"{name}_split", ROW_THREADS, split_params, "hi_rows_split", split_args))
    return KernelSource(name, source), leaves, full, len(cached), kinds


def _warp_entry_points(name: str, params: str, args: str) -> str:
    """Entry points `{name}_warp_vec32/_scalar32`, rows a warp each; 32-bit indices only (the host
    takes the block form at 2^31 elements or more: 64-bit index math there spilled registers)."""
    return "".join(entry_guard(f"{name}_warp_{suffix}",
                               f'extern "C" __global__ void __launch_bounds__({ROW_THREADS}) {name}_warp_{suffix}'
                               f"({params}) {{ hi_rows<unsigned int, {vec}, true>({args}); }}\n")
                   for suffix, vec in (("vec32", "true"), ("scalar32", "false")))


def _register_entry_points(name: str, params: str, args: str) -> str:
    """Entry points `{name}_regs{4,8}_vec32`: a row of up to 4 or 8 float4s a thread held in
    registers between sweeps, every load of the first sweep issued at once (the host takes them for
    rows of 1025..8192 floats). The shared-memory cache's loop kept two loads in flight a thread,
    and its 16 KB a row of 4096 capped the blocks an SM held: RMSNorm over 4096 ran at 55% of its
    bound against torch.compile's 77% (H200)."""
    return "".join(entry_guard(f"{name}_regs{items}_vec32",
                               f'extern "C" __global__ void __launch_bounds__({ROW_THREADS}, 2) {name}_regs{items}_vec32'
                               f"({params}) {{ hi_rows<unsigned int, true, false, {items}>({args}); }}\n")
                   for items in REGISTER_ITEMS)


def row_split(outputs: list[Expr]) -> tuple[int, int]:
    """The split row kernel's launches (one per reduction sweep, then the outputs') and the partial
    statistics each block writes."""
    passes = plan_passes(reductions_in(outputs))
    return len(passes) + 1, partial_count(passes)


def _split_rows(passes: list[RowPass], sweep_targets: list, sweep_leaves: list, leaves: list[Expr], full: list[bool],
                outputs: list[Expr], scalar_names: dict, scalars: list, per_row_code: str, params: str) -> str:
    """The row kernel for rows too few to fill the GPU one block each (32 rows of a 128256-entry
    vocabulary kept 32 of 132 SMs busy): each row split into `chunks` blocks, one launch per sweep
    (`stage`). A reduction sweep's blocks write their chunk's partial statistics; later launches
    combine a row's partials (a few dozen floats, from L2) before their own sweep. The row is read
    once per sweep, the later reads mostly from L2."""
    slots = partial_count(passes)
    known: list[tuple[Expr, str]] = [(Expr("inv_n"), "inv_n"), *scalars]
    parts, offset = [], 0
    for index, targets in enumerate(sweep_targets):
        row_pass = passes[index] if index < len(passes) else None
        sweep = _sweep(index, row_pass, sweep_leaves[index], leaves, full, {}, set(), known, scalar_names,
                       [outputs.index(e) for e in targets] if row_pass is None else [])
        if row_pass is None:
            parts.append(sweep)
            continue
        names = [scalar_names[r] for r in row_pass.scalars()]
        stores = " ".join(f"hi_part[{offset + t}] = {n};" for t, n in enumerate(names))
        parts.append(f"        if (stage == {index}) {{\n{sweep}        if (threadIdx.x == 0) {{ {stores} }}\n"
                     f"        return;\n        }}\n")
        for r in row_pass.reductions:
            n = scalar_names[r]
            parts.append(f"        float all_{n} = {IDENTITY[r.op]};\n"
                         f"        for (I c = 0; c < chunks; ++c) {{ const float v = hi_parts[c * {slots} + {offset}]; "
                         + COMBINE[r.op].format(acc=f"all_{n}", v="v") + f" }}\n        const float {n} = all_{n};\n")
            offset += 1
        for peak, total in row_pass.online:
            m, t = scalar_names[peak], scalar_names[total]
            parts.append(f"        float all_{m} = {IDENTITY['rmax']}, all_{t} = 0.0f;\n"
                         f"        for (I c = 0; c < chunks; ++c) hi_online_merge(all_{m}, all_{t}, "
                         f"hi_parts[c * {slots} + {offset}], hi_parts[c * {slots} + {offset + 1}]);\n"
                         f"        const float {m} = all_{m}, {t} = all_{t};\n")
            offset += 2
        known = known + [(r, scalar_names[r]) for r in row_pass.scalars()]
    per_row = f"        if (chunk == 0) {{\n{per_row_code}        }}\n" if per_row_code else ""
    return f"""
template <typename I, bool VEC>
__device__ __forceinline__ void hi_rows_split({params}) {{
    __shared__ float red[64];
    constexpr bool warp_rows = false;
    const unsigned lane = threadIdx.x, width = blockDim.x;
    const I rows = (I)rows_, cols = (I)cols_, chunks = (I)chunks_;
    const float inv_n = 1.0f / (float)cols;
    const I row = (I)blockIdx.x / chunks, chunk = (I)blockIdx.x - row * chunks;
    if (row >= rows) return;
    // the chunk's span, in float4s when VEC (cols a multiple of 4), else in floats
    const I units = VEC ? cols / 4 : cols, per = (units + chunks - 1) / chunks;
    const I q0 = chunk * per < units ? chunk * per : units, q1 = q0 + per < units ? q0 + per : units;
    const I j0 = q0, j1 = q1;
    const float* hi_parts = parts_ + (size_t)row * chunks * {max(slots, 1)};
    float* hi_part = parts_ + ((size_t)row * chunks + chunk) * {max(slots, 1)};
    (void)hi_parts; (void)hi_part;
    {{
{''.join(parts)}{per_row}    }}
}}
"""


def _sweep(index: int, row_pass: RowPass | None, inputs: list[Expr], leaves: list[Expr], full: list[bool],
           slot: dict, read_before: set, known: list, scalar_names: dict, out_slots: list[int]) -> str:
    """Code of one sweep over a row: load the leaves (from the cache when an earlier sweep stored
    them), evaluate the sweep's element function per element, and either accumulate (a reduction
    sweep, then a block reduction binding the row scalars) or store (the output sweep). With cached
    leaves (`slot`: hi_rows only, the split form caches none), a template ITEMS > 0 takes an unrolled
    loop of ITEMS float4s a thread whose cache is the registers `hi_reg{slot}`."""
    position = [leaves.index(e) for e in inputs]
    bound_names = [name for _, name in known]
    accumulators: list[str] = []
    setup: list[str] = []
    finish: list[str] = []
    if row_pass is not None:
        for r in row_pass.reductions:
            name = scalar_names[r]
            accumulators.append(COMBINE[r.op].format(acc=f"acc_{name}", v="{}"))
            setup.append(f"float acc_{name} = {IDENTITY[r.op]};")
            finish.append(f"const float {name} = warp_rows ? {WARP_REDUCERS[r.op]}(acc_{name}) "
                          f": {BLOCK_REDUCERS[r.op]}(acc_{name}, red);")
        for peak, total in row_pass.online:
            m, s_ = scalar_names[peak], scalar_names[total]
            accumulators.append(f"hi_online_add(acc_{m}, acc_{s_}, {{}});")
            setup.append(f"float acc_{m} = {IDENTITY['rmax']}, acc_{s_} = 0.0f;")
            finish.append(f"if (warp_rows) hi_warp_online(acc_{m}, acc_{s_}); else hi_block_online(acc_{m}, acc_{s_}, red);"
                          f"\n        const float {m} = acc_{m}, {s_} = acc_{s_};")

    def loads(vec: bool, in_registers: bool = False) -> list[str]:
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
            if in_registers:
                lines.append(f"const float4 v{k} = hi_reg{slot[e]}[t];")
            else:
                lines += cached_read(kind, k, direct, cache, e in read_before)
        return lines

    def evaluate(lane: str, results: list[str]) -> str:
        values = [f"v{k}{lane}" for k in position]
        return f"hi_sweep{index}(" + ", ".join(values + bound_names + results) + ");"

    def body(vec: bool, in_registers: bool = False) -> list[str]:
        lines = loads(vec, in_registers)
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

    vec_loop = ("#pragma unroll (sizeof(I) == 4 ? 2 : 1)\n            for (I q = q0 + lane; q < q1; q += width) {\n                const I j = q * 4, i = row * cols + j;\n                "
                + "\n                ".join(body(True)) + "\n            }")
    if slot:
        # The row's cached leaves are loaded in a loop of their own, every load in flight before the
        # first use (in one loop, each element's use stalled the next element's load).
        fills = [f"hi_reg{slot[e]}[t] = *reinterpret_cast<const float4*>(p{k} + i);"  # cached leaves are full
                 for e, k in zip(inputs, position) if e in slot and e not in read_before]
        vec_loop = ("if (ITEMS > 0) {\n" + "".join(
            "            #pragma unroll\n            for (int t = 0; t < (ITEMS > 0 ? ITEMS : 1); ++t) {\n"
            "                const I q = q0 + lane + (I)t * width;\n                if (q < q1) {\n"
            "                const I j = q * 4, i = row * cols + j; (void)j; (void)i;\n                "
            + "\n                ".join(lines) + "\n                }\n            }\n"
            for lines in ([fills] if fills else []) + [body(True, in_registers=True)])
            + "            } else {\n            " + vec_loop + "\n            }")
    scalar_loop = ("#pragma unroll (sizeof(I) == 4 ? 2 : 1)\n            for (I j = j0 + lane; j < j1; j += width) {\n                const I i = row * cols + j;\n                "
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
    return ("        if (lane == 0) {\n            "
            + "\n            ".join(loads + emitter.lines + stores) + "\n        }\n")

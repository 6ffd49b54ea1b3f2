"""CUDA source of row kernels along a dim other than the last (softmax over channels, a
channels-first layer norm), of the contiguous (outer, R, inner) view: row r is the R elements
apart by `inner` from base(r). Two entry points of one source: a thread a row (`{name}_cols32`)
and a tile of 32 rows by 8 warps (`{name}_tile32`). Pure (no torch): text generation only.
"""

from __future__ import annotations

from hiera_core.spaces.custom_cuda.expr import Emitter, Expr, leaves_in
from hiera_core.spaces.custom_cuda.fused import (
    KernelSource,
    element_function,
    entry_guard,
    leaf_args,
    leaf_params,
    leaf_reads_source,
)
from hiera_core.spaces.custom_cuda.row_passes import COMBINE, IDENTITY, ROW_HELPERS, ROW_THREADS, RowPass, cached_read

TILE_WARPS = ROW_THREADS // 32  # the warps of a tile, each walking every 8th element of its 32 rows


def column_rows(name: str, outputs: list[Expr], kinds: list[str], passes: list[RowPass], sweep_targets: list,
                sweep_leaves: list, leaves: list[Expr], full: list[bool], scalar_names: dict,
                scalars: list[tuple[Expr, str]], scalar_params: str, scalar_args: str, cached: list[Expr]
                ) -> KernelSource:
    """The same sweeps as the block row kernel, in two forms.

    `{name}_cols32`, a thread a row walking R, a warp reading consecutive inner positions at each
    step: each thread's accumulators are its row's statistics. `{name}_tile32`, 32 consecutive rows
    a block, its 8 warps each walking every 8th element of them (the same coalesced reads, 8 times
    the threads and loads in flight); a warp's partial statistics are combined through shared
    memory, and the leaves read by more than one sweep (`cached`) are kept in dynamic shared memory
    (R x 33 floats each) when the host finds room (flag `use_cache`). A thread a row left an SM 12
    warps on ConvNeXt's layer norm over 96 channels of 56x56 maps, each with one load in flight a
    step. Leaves are read at the element's flat index through their modes (`last`: the last dim's
    size, for COL/ROW reads), one broadcast along the row's dim alone at the row's step."""
    position = {e: k for k, e in enumerate(leaves)}
    slot = {e: k for k, e in enumerate(cached)}

    def loads(inputs: list[Expr], at: str, tile: bool, read_before: set, along: bool = True) -> list[str]:
        """Reads of `inputs` at flat index `at`; `along`: inside a walk of the row, its step k."""
        lines = [f"const I i = {at};"]
        for e in inputs:
            k = position[e]
            direct = f"p{k}[i]" if full[k] else f"hi_ld<I>(p{k}, (int)m{k}, i, i / last, i % last, (I)in{k}, (I)ex{k})"
            if along and not full[k]:
                # A leaf broadcast along the row's dim alone (a per-channel weight) is its k-th
                # element: three 32-bit divisions an element made the output sweep ALU-bound.
                direct = f"m{k} == 4 && (I)in{k} == inner && (I)ex{k} == cols ? p{k}[k] : {direct}"
            if not (tile and e in slot):
                lines.append(f"const float v{k} = {direct};")
                continue
            lines += cached_read("float", k, direct, f"hi_tile[((I){slot[e]} * cols + k) * 33 + lane]", e in read_before)
        return lines

    functions: list[str] = []
    thread_sweeps: list[str] = []
    tile_sweeps: list[str] = []
    known: list[tuple[Expr, str]] = [(Expr("inv_n"), "inv_n"), *scalars]
    read_before: set = set()
    for index, targets in enumerate(sweep_targets):
        inputs = sweep_leaves[index]
        functions.append(element_function(f"hi_sweep{index}", inputs, known, targets))
        bound_names = [n for _, n in known]
        values = [f"v{position[e]}" for e in inputs]
        row_pass = passes[index] if index < len(passes) else None
        setup, finish, combine = [], [], []
        if row_pass is None:
            results = [f"o{outputs.index(e)}[i]" for e in targets]
            step = f"hi_sweep{index}({', '.join(values + bound_names + results)});"
        else:
            names = [scalar_names[r] for r in row_pass.reductions]
            pairs = [(scalar_names[m], scalar_names[t]) for m, t in row_pass.online]
            accumulators = [COMBINE[r.op].format(acc=f"acc_{scalar_names[r]}", v="{}") for r in row_pass.reductions]
            accumulators += [f"hi_online_add(acc_{m}, acc_{t}, {{}});" for m, t in pairs]
            setup = [f"float acc_{scalar_names[r]} = {IDENTITY[r.op]};" for r in row_pass.reductions]
            setup += [f"float acc_{m} = {IDENTITY['rmax']}, acc_{t} = 0.0f;" for m, t in pairs]
            finish = [f"const float {scalar_names[r]} = acc_{scalar_names[r]};" for r in row_pass.scalars()]
            results = [f"e{t}" for t in range(len(accumulators))]
            step = ("{ float " + ", ".join(results) + "; " + f"hi_sweep{index}({', '.join(values + bound_names + results)});"
                    + " " + " ".join(a.format(v) for a, v in zip(accumulators, results)) + " }")
            combine = _tile_combine(row_pass, names, pairs)
            known = known + [(r, scalar_names[r]) for r in row_pass.scalars()]
        thread_body = "\n                ".join(loads(inputs, "base + k * inner", False, read_before) + [step])
        # Unrolled: a thread's steps are independent loads, several in flight at once.
        thread_sweeps.append("\n            ".join(setup) + f"""
            #pragma unroll 8
            for (I k = 0; k < cols; ++k) {{
                {thread_body}
            }}
            """ + "\n            ".join(finish) + "\n")
        tile_body = "\n                ".join(loads(inputs, "base + k * inner", True, read_before) + [step])
        tile_sweeps.append("".join(f"        {line}\n" for line in setup) + f"""        if (live) {{
            #pragma unroll 4
            for (I k = warp; k < cols; k += {TILE_WARPS}) {{
                {tile_body}
            }}
        }}
""" + "".join(combine) + "".join(f"        {line}\n" for line in finish))
        read_before |= set(inputs)

    per_row = [(o, e) for o, (e, kind) in enumerate(zip(outputs, kinds)) if kind != "row"]
    per_row_code = ""
    if per_row:
        emitter = Emitter(names={**scalar_names, **dict(scalars), Expr("inv_n"): "inv_n"})
        inputs = leaves_in([e for _, e in per_row], stop_at_reductions=True)
        for e in inputs:
            emitter.names[e] = f"v{position[e]}"
        results = [emitter.emit(e) for _, e in per_row]
        per_row_code = "\n".join(
            loads(inputs, "base", False, set(), along=False) + emitter.lines + [f"o{o}[r] = {value};" for (o, _), value in zip(per_row, results)])
    count, outs = len(leaves), len(outputs)
    out_params = ", ".join(f"float* __restrict__ o{o}" for o in range(outs))
    params = (f"{leaf_params(count)}, {out_params}, long long rows_, long long cols_, long long inner_, "
              f"long long last_, long long use_cache{scalar_params}")
    args = f"{leaf_args(count)}, {', '.join(f'o{o}' for o in range(outs))}, rows_, cols_, inner_, last_, use_cache{scalar_args}"
    head = """    const I rows = (I)rows_, cols = (I)cols_, inner = (I)inner_, last = (I)last_;
    const float inv_n = 1.0f / (float)cols;
    (void)last; (void)use_cache;
"""
    row_base = """        const I outer_index = r / inner;
        const I base = outer_index * cols * inner + (r - outer_index * inner);
"""
    thread_rows = "            {\n                " + per_row_code.replace("\n", "\n                ") + "\n            }\n"
    tile_rows = "        if (live && warp == 0) {\n            " + per_row_code.replace("\n", "\n            ") + "\n        }\n"
    body = f"""
template <typename I>
__device__ __forceinline__ void hi_column_rows({params}) {{
{head}    for (I r = (I)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += (I)gridDim.x * blockDim.x) {{
{row_base}{''.join(thread_sweeps)}{thread_rows if per_row else ''}    }}
}}

template <typename I>
__device__ __forceinline__ void hi_column_tile({params}) {{
    extern __shared__ float hi_tile[];
    __shared__ float red[{TILE_WARPS}][33], red2[{TILE_WARPS}][33];
    (void)hi_tile; (void)red; (void)red2;
{head}    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    // the loop is the block's, so its barriers are reached by every thread
    for (I first = (I)blockIdx.x * 32; first < rows; first += (I)gridDim.x * 32) {{
        const I r = first + lane;
        const bool live = r < rows;
{row_base}{''.join(tile_sweeps)}{tile_rows if per_row else ''}        __syncthreads();  // the tile's cache and partials are the next rows'
    }}
}}
"""
    # 32-bit indices only (the host refuses 2^31 elements or more): 64-bit division at each element's
    # leaf reads spills registers.
    entries = "".join(entry_guard(f"{name}_{suffix}", f'extern "C" __global__ void __launch_bounds__({ROW_THREADS}) '
                                                     f"{name}_{suffix}({params}) {{ {function}<unsigned int>({args}); }}\n")
                      for suffix, function in (("cols32", "hi_column_rows"), ("tile32", "hi_column_tile")))
    return KernelSource(name, f"// HIERA row kernel {name}: {len(passes)} reduction sweep(s), rows along a dim other "
                              f"than the last\n" + leaf_reads_source(leaves) + ROW_HELPERS + "".join(functions) + body + entries)


def _tile_combine(row_pass: RowPass, names: list[str], pairs: list[tuple[str, str]]) -> list[str]:
    """Each lane's row statistics from its 8 warps' partials, through shared memory (one reduction
    or online pair at a time, the partials' arrays reused)."""
    lines = []
    for r, n in zip(row_pass.reductions, names):
        lines.append(f"        red[warp][lane] = acc_{n};\n        __syncthreads();\n"
                     f"        acc_{n} = red[0][lane];\n"
                     f"        for (int w = 1; w < {TILE_WARPS}; ++w) {{ const float v = red[w][lane]; "
                     + COMBINE[r.op].format(acc=f"acc_{n}", v="v") + " }\n        __syncthreads();\n")
    for m, t in pairs:
        lines.append(f"        red[warp][lane] = acc_{m}; red2[warp][lane] = acc_{t};\n        __syncthreads();\n"
                     f"        acc_{m} = red[0][lane]; acc_{t} = red2[0][lane];\n"
                     f"        for (int w = 1; w < {TILE_WARPS}; ++w) hi_online_merge(acc_{m}, acc_{t}, red[w][lane], red2[w][lane]);\n"
                     f"        __syncthreads();\n")
    return lines

"""The runtime inlined into custom-CUDA proposals: compile with NVRTC, cache, launch on torch's stream.

This module is real, importable code (so it is linted and tested), but proposals never import it:
`hiera_core.cuda.proposal.runtime_source` copies the functions a candidate needs into its source,
which keeps a proposal self-contained (torch, the standard library and cuda.core only).

Each entry point is compiled on first use for the current GPU's architecture and cached per
process by (source, device, name) and on disk by (hash of the program, arch) under
$HIERA_CACHE_DIR/cubin (default ~/.cache/hiera/cubin). Launches go to torch's current stream
(wrapped once per stream handle). Kernel arguments: tensors as device pointers, Python ints as
64-bit integers (`long long`), floats as float32 (`float`). The launch path is kept lean (no
torch.broadcast_shapes, no ctypes boxing of ints): it runs on every call.
"""

import ctypes
import hashlib
import math
import os

import torch
from cuda.core import Device, LaunchConfig, ObjectCode, Program, ProgramOptions, Stream, launch

from hiera_core.cuda.proposal_leaves import (
    _hiera_broadcast,
    _hiera_channel_values,
    _hiera_check,
    _hiera_flat,
    _hiera_leaf_args,
    _hiera_row_chunks,
    _hiera_row_registers,
    _hiera_row_threads,
    _hiera_scan_chunks,
    _hiera_signature,
    _hiera_storage_order,
)

_HIERA_KERNELS = {}
_HIERA_STREAMS = {}
_HIERA_CONFIGS = {}
_HIERA_SMS = {}
_HIERA_PLANS = {}
_HIERA_ORDERS = {}
_HIERA_SHARED_CACHE = 48 * 1024  # shared memory a row block may cache rows in: the most a launch gets without opting in


def _hiera_kernel(source, name, device):
    """Kernel `name` of CUDA C++ `source`, compiled for GPU `device` on first use.

    Only that entry point is compiled (`HIERA_ENTRY_<name>` selects it), which keeps NVRTC time
    to one template instantiation. The per-call lookup hashes nothing new: str caches its hash.
    """
    kernel = _HIERA_KERNELS.get((source, device, name))
    if kernel is not None:
        return kernel
    # Loaded with `device`'s context current, and the caller's current device given back after: a
    # module on another GPU must not move the caller's later allocations onto it.
    with torch.cuda.device(device):
        return _hiera_load(source, name, device)


def _hiera_load(source, name, device):
    """`_hiera_kernel`'s compile (or cubin from the disk cache) and load, `device` current."""
    gpu = Device(device)
    gpu.set_current()
    arch = "sm_" + gpu.arch
    program = f"#define HIERA_ENTRY\n#define HIERA_ENTRY_{name}\n{source}"
    digest = hashlib.sha256(program.encode()).hexdigest()
    folder = os.path.join(os.environ.get("HIERA_CACHE_DIR") or os.path.expanduser("~/.cache/hiera"), "cubin")
    path = os.path.join(folder, f"{digest[:40]}-{arch}.cubin")
    if os.path.exists(path):
        with open(path, "rb") as stream:
            module = ObjectCode.from_cubin(stream.read())
    else:
        module = Program(program, "c++", ProgramOptions(arch=arch, std="c++17")).compile("cubin")
        os.makedirs(folder, exist_ok=True)
        if os.access(folder, os.W_OK):
            temp = f"{path}.{os.getpid()}.tmp"
            with open(temp, "wb") as stream:
                stream.write(module.code)
            os.replace(temp, path)
    kernel = _HIERA_KERNELS[(source, device, name)] = module.get_kernel(name)
    return kernel


def _hiera_launch(kernel, device, grid, block, shared_bytes, *args):
    """Launch on torch's current stream of `device`, in its context. Tensors pass as pointers; a Python int is
    passed by cuda.core as an intptr_t, which is the layout of a `long long` parameter; floats
    are boxed as float32."""
    values = [a.data_ptr() if isinstance(a, torch.Tensor) else ctypes.c_float(a) if isinstance(a, float) else a
              for a in args]
    handle = torch._C._cuda_getCurrentRawStream(device)  # what torch.cuda.current_stream() wraps, minus the wrapper
    stream = _HIERA_STREAMS.get(handle)
    if stream is None:
        stream = _HIERA_STREAMS[handle] = Stream.from_handle(handle)
    config = _HIERA_CONFIGS.get((grid, block, shared_bytes))
    if config is None:
        config = _HIERA_CONFIGS[(grid, block, shared_bytes)] = LaunchConfig(grid=grid, block=block,
                                                                             shmem_size=shared_bytes)
    if device == torch.cuda.current_device():
        launch(stream, config, kernel, *values)
        return
    with torch.cuda.device(device):  # a module on another GPU than the current one: launched in its context
        launch(stream, config, kernel, *values)


def _hiera_sms(device):
    if device not in _HIERA_SMS:
        _HIERA_SMS[device] = torch.cuda.get_device_properties(device).multi_processor_count
    return _HIERA_SMS[device]


def _hiera_plan(key, reads, leaves, *plan):
    """Keep `plan` for `key` when every leaf is read in place (no copy made for it), so a later call
    with the same signature passes the leaves' own pointers; the leaf arguments (pointer, mode,
    inner, extent) are rebuilt from the cached modes."""
    if all(r[0].data_ptr() == t.data_ptr() for r, t in zip(reads, leaves)):
        _HIERA_PLANS[key] = (*plan, [r[1:] for r in reads])


def _hiera_pointwise(source, name, leaves, full, outputs, scalars=()):
    """Run a generated pointwise kernel over the broadcast shape of `leaves` (`scalars`: the Python
    numbers it reads, passed as floats). The shape analysis runs once per leaf signature: later
    calls take the cached plan (host time is most of a small kernel's call)."""
    key = _hiera_signature(source, name, leaves, outputs)
    plan = _HIERA_PLANS.get(key)
    device = leaves[0].device
    if plan is not None:
        shape, kernel, grid, n, cols, modes = plan
        outs = [torch.empty(shape, device=device, dtype=torch.float32) for _ in range(outputs)]
        _hiera_launch(kernel, device.index, grid, 256, 0, *_hiera_leaf_args(leaves, modes), *outs, n, cols,
                      *map(float, scalars))
        return outs
    order = _HIERA_ORDERS.get(key)
    if order is None:
        shape = _hiera_broadcast(leaves)
        order = _HIERA_ORDERS[key] = _hiera_storage_order(leaves, full, shape)
    if order is not None:  # in the leaves' storage order: the outputs keep their layout (channels-last)
        rank = len(order)
        permuted = [t[(None,) * (rank - t.dim())].permute(order) for t in leaves]
        outs = _hiera_pointwise(source, name, permuted, full, outputs, scalars)
        inverse = sorted(range(rank), key=order.__getitem__)
        return [o.permute(inverse) for o in outs]
    outs = [torch.empty(shape, device=device, dtype=torch.float32) for _ in range(outputs)]
    n = math.prod(shape)
    if n == 0:
        return outs
    reads, variant, work, cols = _hiera_flat(leaves, full, shape)
    grid = min(-(-work // 256), 32 * _hiera_sms(device.index))
    kernel = _hiera_kernel(source, f"{name}_{variant}", device.index)
    _hiera_launch(kernel, device.index, grid, 256, 0, *[v for r in reads for v in r], *outs, n, cols,
                  *map(float, scalars))
    _hiera_plan(key, reads, leaves, shape, kernel, grid, n, cols)
    return outs


def _hiera_total(source, name, leaves, full, divide, scalars=()):
    """The sum over every element of a generated pointwise expression of `leaves`, divided by the
    element count (`divide` "all": the mean), by the first dim's size ("first_dim": a batch mean) or
    not ("none"): per-block partial sums, then one block adding them in order. Plans are cached as
    for pointwise."""
    key = _hiera_signature(source, name, leaves, divide)
    plan = _HIERA_PLANS.get(key)
    device = leaves[0].device
    if plan is None:
        shape = _hiera_broadcast(leaves)
        n = math.prod(shape)
        divisor = n if divide == "all" else shape[0] if divide == "first_dim" else 1
        if n == 0:  # as torch: 0 / 0 is NaN
            return torch.empty((), device=device, dtype=torch.float32).fill_(math.nan if divisor == 0 else 0.0)
        reads, variant, work, cols = _hiera_flat(leaves, full, shape)
        blocks = min(-(-work // 256), 8 * _hiera_sms(device.index))  # a full GPU's threads, a partial each block
        kernels = (_hiera_kernel(source, f"{name}_{variant}", device.index),
                   _hiera_kernel(source, f"{name}_finalize", device.index))
        args = [v for r in reads for v in r]
        tail = (n, cols, 1.0 / divisor)
        _hiera_plan(key, reads, leaves, kernels, blocks, tail)
    else:
        kernels, blocks, tail, modes = plan
        args = _hiera_leaf_args(leaves, modes)
    n, cols, scale = tail
    out = torch.empty((), device=device, dtype=torch.float32)
    partial = torch.empty(blocks, device=device, dtype=torch.float32)
    _hiera_launch(kernels[0], device.index, blocks, 256, 0, *args, partial, n, cols, *map(float, scalars))
    _hiera_launch(kernels[1], device.index, 1, 256, 0, partial, out, blocks, scale)
    return out


def _hiera_scan(source, name, leaves, full, dim, reverse, scalars=()):
    """The inclusive scan of a generated pointwise expression of `leaves` along `dim` (reversed: from
    the end): one block per row along the last dim, else one thread per column of the (outer, R,
    inner) view, or per chunk of a column where the columns are too few to fill the GPU (two
    launches: the chunks' totals, then the scans). Plans are cached as for pointwise."""
    key = _hiera_signature(source, name, leaves, dim, reverse)
    plan = _HIERA_PLANS.get(key)
    device = leaves[0].device
    if plan is None:
        shape = _hiera_broadcast(leaves)
        n = math.prod(shape)
        if n == 0:
            return torch.empty(shape, device=device, dtype=torch.float32)
        outer, length, inner = math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1:])
        reads, variant, _, cols = _hiera_flat(leaves, full, shape)
        chunks = 1
        if inner == 1:  # 4 elements a thread per tile: a row of up to 1024 in one tile
            threads = min(256, max(32, 1 << (-(-cols // 4) - 1).bit_length()))
            grid = min(outer, _hiera_sms(device.index) * (2048 // threads))
        else:
            chunks = _hiera_scan_chunks(outer * inner, length, _hiera_sms(device.index))
            variant, threads = ("colsplit" if chunks > 1 else "cols") + variant[-2:], 256
            grid = min(-(-(outer * inner * chunks) // threads), 32 * _hiera_sms(device.index))
        kernel = _hiera_kernel(source, f"{name}_{variant}", device.index)
        tail = (outer, length, inner, cols, int(reverse))
        args = [v for r in reads for v in r]
        _hiera_plan(key, reads, leaves, shape, kernel, grid, threads, tail, chunks)
    else:
        shape, kernel, grid, threads, tail, chunks, modes = plan
        args = _hiera_leaf_args(leaves, modes)
    out = torch.empty(shape, device=device, dtype=torch.float32)
    _hiera_launches(kernel, device, grid, threads, 0, [*args, out, *tail], chunks, (2, tail[0] * tail[2] * chunks), scalars)
    return out


def _hiera_rows(source, name, leaves, full, kinds, cached, dim=None, scalars=(), split=None):
    """Run a generated row kernel: one block per row along the last dim of the leaves' broadcast
    shape, or (`dim`, another) one thread per row along `dim`. Rows too few to fill the GPU one
    block each take the kernel's split form when it has one (`split`: its launches and partial
    statistics per block): each row's chunks in blocks of their own. Plans are cached as for
    pointwise."""
    key = _hiera_signature(source, name, leaves, kinds, cached, dim)
    plan = _HIERA_PLANS.get(key)
    device = leaves[0].device
    if plan is not None:
        out_shapes, kernel, grid, threads, shared, tail, chunks, modes = plan
        outs = [torch.empty(s, device=device, dtype=torch.float32) for s in out_shapes]
        _hiera_launches(kernel, device, grid, threads, shared, [*_hiera_leaf_args(leaves, modes), *outs, *tail], chunks,
                        split and (split[0], grid * split[1]), scalars)
        return outs
    shape = _hiera_broadcast(leaves)
    along = len(shape) - 1 if dim is None else dim
    cols = shape[along]
    rows = math.prod(shape) // cols if cols else 0
    shapes = {"row": shape, "keep": shape[:along] + (1,) + shape[along + 1:], "drop": shape[:along] + shape[along + 1:]}
    out_shapes = [shapes[k] for k in kinds]
    outs = [torch.empty(s, device=device, dtype=torch.float32) for s in out_shapes]
    if rows == 0:
        return outs
    reads, variant, _, _ = _hiera_flat(leaves, full, shape)
    if dim is not None:  # a warp's reads at each step consecutive along the inner dims
        if not variant.endswith("32"):
            raise ValueError(f"rows along dim {dim} of a tensor of 2^31 elements or more: this kernel indexes "
                             f"with 32 bits ({shape})")
        # Rows of 32 or more: a tile of 32 rows a block, 8 warps along them (a thread a row left
        # most warps idle and one load in flight a step); shorter ones a thread a row.
        tile = cols >= 32
        cache_bytes = cached * cols * 33 * 4 if tile else 0
        use_cache = 0 < cache_bytes <= _HIERA_SHARED_CACHE
        # A block a tile up to eight waves, so the hardware balances the last one: one wave's blocks
        # looping over 1.5 waves of tiles (ConvNeXt's (16, 96, 56, 56): 1568 tiles) took two.
        grid = min(-(-rows // 32), 64 * _hiera_sms(device.index)) if tile else min(-(-rows // 256), 32 * _hiera_sms(device.index))
        kernel = _hiera_kernel(source, f"{name}_{'tile32' if tile else 'cols32'}", device.index)
        shared, tail = cache_bytes if use_cache else 0, (rows, cols, math.prod(shape[along + 1:]), shape[-1], int(use_cache))
        _hiera_launches(kernel, device, grid, 256, shared, [*(v for r in reads for v in r), *outs, *tail], 1, None, scalars)
        _hiera_plan(key, reads, leaves, out_shapes, kernel, grid, 256, shared, tail, 1)
        return outs
    vec = variant.startswith("vec")
    chunks = _hiera_row_chunks(rows, cols, _hiera_sms(device.index)) if split else 1
    if chunks > 1:
        threads, shared, tail = 256, 0, (rows, cols)
        grid, kernel = rows * chunks, _hiera_kernel(source, f"{name}_split_{variant}", device.index)
    else:
        threads = _hiera_row_threads(cols, vec)
        # Rows one warp covers go eight to a block, a warp each: blocks of one warp filled an SM
        # only half (32 resident blocks) and paid two barriers a reduction. Not where eight rows'
        # cache is over 48 KB: a residual add's layer norm over 1024 re-read both rows each sweep,
        # 40.4 us against 32.4 in blocks of 64 threads (H200, (8192, 1024)).
        one_warp = threads == 32 and variant.endswith("32")
        warp_rows = one_warp and cached * cols * 4 * 8 <= _HIERA_SHARED_CACHE
        items, register_threads = _hiera_row_registers(cols, cached) if variant == "vec32" else (0, 0)
        row_blocks = -(-rows // 8) if warp_rows else rows
        threads = 256 if warp_rows else 64 if one_warp else register_threads or threads
        cache_bytes = 0 if items else cached * cols * 4 * (8 if warp_rows else 1)
        use_cache = 0 < cache_bytes <= _HIERA_SHARED_CACHE
        grid = min(row_blocks, _hiera_sms(device.index) * (2048 // threads))
        form = "_warp" if warp_rows else f"_regs{items}" if items else ""
        kernel = _hiera_kernel(source, f"{name}{form}_{variant}", device.index)
        shared, tail = cache_bytes if use_cache else 0, (rows, cols, int(use_cache))
    _hiera_launches(kernel, device, grid, threads, shared, [*(v for r in reads for v in r), *outs, *tail], chunks,
                    split and (split[0], grid * split[1]), scalars)
    _hiera_plan(key, reads, leaves, out_shapes, kernel, grid, threads, shared, tail, chunks)
    return outs


def _hiera_launches(kernel, device, grid, threads, shared, args, chunks, split, scalars):
    """One launch, or a split kernel's (rows or columns in `chunks`): `split` = (stages, scratch
    floats), one launch a stage, each passed the scratch of partial results, the chunks and its stage."""
    scalars = [float(s) for s in scalars]
    if chunks == 1:
        _hiera_launch(kernel, device.index, grid, threads, shared, *args, *scalars)
        return
    stages, scratch = split
    parts = torch.empty(max(scratch, 1), device=device, dtype=torch.float32)
    for stage in range(stages):
        _hiera_launch(kernel, device.index, grid, threads, 0, *args, parts, chunks, stage, *scalars)


def _hiera_reduce(source, name, x, dim, keepdim, indices):
    """Reduce `x` over `dim` with a generated dim-reduction kernel (values, or int64 indices)."""
    _hiera_check(x)
    x = x.contiguous()
    outer, length, inner = math.prod(x.shape[:dim]), x.shape[dim], math.prod(x.shape[dim + 1:])
    shape = x.shape[:dim] + ((1,) if keepdim else ()) + x.shape[dim + 1:]
    out = torch.empty(shape, device=x.device, dtype=torch.int64 if indices else torch.float32)
    if out.numel() == 0:
        return out
    device = x.device.index
    if inner == 1:
        # A warp per row, or per chunk of at least 1024 entries when the rows are too few for 32 warps an SM
        chunk, chunks = _hiera_chunked(length, min(-(-32 * _hiera_sms(device) // outer), length // 1024))
        grid = min(-(-(outer * chunks) // 8), 32 * _hiera_sms(device))
        return _hiera_dim_launch(source, name, "rows", x, out, grid, 256, chunks, outer, length, (outer, length, chunk))
    if not indices and inner % 4 == 0 and 256 % (inner // 4) == 0 and x.data_ptr() % 16 == 0:
        # float4 columns, 256 // (inner // 4) rows per block step; chunks of R fill the GPU in one wave
        # (6 blocks an SM are resident at the kernel's 38 registers).
        step = 256 // (inner // 4)
        chunk, chunks = _hiera_chunked(length, min(-(-length // (4 * step)), 6 * _hiera_sms(device) // outer))
        grid = (chunks, min(outer, 65535))
        # One chunk writes the results; several write per-chunk partials that a second kernel combines.
        values = out if chunks == 1 else torch.empty((chunks, outer, inner), device=x.device, dtype=torch.float32)
        _hiera_launch(_hiera_kernel(source, f"{name}_vec", device), device, grid, 256, 0,
                      x, values, out, outer, length, inner, chunk, int(chunks > 1))
        if chunks > 1:
            count = outer * inner
            _hiera_launch(_hiera_kernel(source, f"{name}_vec_finalize", device), device,
                          min(-(-count // 256), 32 * _hiera_sms(device)), 256, 0, values, out, chunks, count, length)
        return out
    tiles = -(-inner // 32)
    chunk, chunks = _hiera_chunked(length, min(-(-length // 64), -(-8 * _hiera_sms(device) // (tiles * outer))))
    grid = (tiles, min(outer, 65535), chunks)
    return _hiera_dim_launch(source, name, "cols", x, out, grid, (32, 8), chunks, outer * inner, length,
                             (outer, length, inner, chunk))


def _hiera_chunked(length, wanted):
    """`length` cut into about `wanted` (at least one) chunks of equal length: (chunk length, chunks)."""
    chunk = -(-length // max(1, wanted))
    return chunk, -(-length // chunk)


def _hiera_dim_launch(source, name, entry, x, out, grid, block, chunks, count, length, tail):
    """A dim-reduction entry (`rows`, `cols`): one chunk writes `out` itself; several write per-chunk
    partials (values and positions) that `_finalize` combines in chunk order."""
    device = x.device.index
    kernel = _hiera_kernel(source, f"{name}_{entry}", device)
    if chunks == 1:
        _hiera_launch(kernel, device, grid, block, 0, x, out, out, out, out, *tail, 0)
        return out
    values = torch.empty((chunks, count), device=x.device, dtype=torch.float32)
    positions = torch.empty((chunks, count), device=x.device, dtype=torch.int64)
    _hiera_launch(kernel, device, grid, block, 0, x, values, positions, out, out, *tail, 1)
    _hiera_launch(_hiera_kernel(source, f"{name}_finalize", device), device, min(-(-count // 256), 32 * _hiera_sms(device)),
                  256, 0, values, positions, out, out, chunks, count, length)
    return out


def _hiera_pool(source, name, x, rank, kernel, stride, padding, dilation, ceil_mode, per_channel=()):
    """Run a generated pooling kernel over the last `rank` dims of `x`; `per_channel`: the tensors its
    prologue reads, one value per channel (dim -rank-1). A channels-last 4D map (cuDNN's NHWC output)
    is read in place and the result written channels-last; anything else is read contiguous."""
    _hiera_check(x, *per_channel)
    channels = x.shape[-rank - 1] if x.dim() > rank else 1
    values = _hiera_channel_values(per_channel, channels, "the pooling kernel's prologue")
    nhwc = (rank == 2 and x.dim() == 4 and not x.is_contiguous()
            and x.is_contiguous(memory_format=torch.channels_last))
    if not nhwc:
        x = x.contiguous()
    sizes = []
    for size, k, s, p, d in zip(x.shape[-rank:], kernel, stride, padding, dilation):
        span = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
        length = span // s + 1
        if ceil_mode and (length - 1) * s >= size + p:
            length -= 1
        sizes.append(length)
    if min(sizes) < 1:
        raise ValueError(f"pooling a {tuple(x.shape)} input with kernel {tuple(kernel)}, stride {tuple(stride)} and "
                         f"padding {tuple(padding)} gives an empty output ({'x'.join(map(str, sizes))}): PyTorch "
                         "refuses it too")
    out = torch.empty(x.shape[:-rank] + tuple(sizes), device=x.device, dtype=torch.float32,
                      memory_format=torch.channels_last if nhwc else torch.contiguous_format)
    if out.numel() == 0:
        return out
    spatial = (1,) * (3 - rank) + tuple(x.shape[-rank:])
    result = (1,) * (3 - rank) + tuple(sizes)
    if math.prod(spatial) * (channels if nhwc else 1) >= 2**31:
        raise ValueError("the pooling kernel indexes one plane (an image, channels-last) with 32-bit offsets: "
                         "at most 2^31 - 1 values")
    device = x.device.index
    if nhwc:  # blocks along a row of output points (ow, c), rows in y
        grid = (min(-(-(result[2] * channels) // 256), 64), min(x.shape[0] * result[1], 65535))
        _hiera_launch(_hiera_kernel(source, f"{name}_nhwc", device), device, grid, 256, 0, x, out, x.shape[0],
                      channels, *spatial, *result, *values)
        return out
    planes = math.prod(x.shape[:-rank])
    grid = (min(-(-(result[1] * result[2]) // 256), 64), min(planes * result[0], 65535))
    _hiera_launch(_hiera_kernel(source, name, device), device, grid, 256, 0, x, out, planes, channels, *spatial,
                  *result, *values)
    return out


def _hiera_group_norm(source, name, x, groups, weight, bias, eps):
    """Group norm of (N, C, *spatial) `x` over `groups` groups of channels, with optional per-channel
    `weight` and `bias`: partial sums over chunks of each group's row, then one normalising pass."""
    _hiera_check(x, *[t for t in (weight, bias) if t is not None])
    x = x.contiguous()
    out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    channels = x.shape[1]
    if channels % groups:
        raise ValueError(f"group_norm: {channels} channels do not split into {groups} groups")
    spatial = math.prod(x.shape[2:])
    rows, length = x.shape[0] * groups, channels // groups * spatial
    if length >= 2**31:
        raise ValueError("the group norm kernel indexes a group with 32-bit offsets: at most 2^31 - 1 points")
    device = x.device.index
    # About 32 blocks per SM over all rows, each chunk at least a float4 per thread, in whole float4s.
    chunks = max(1, min(-(-length // 1024), -(-32 * _hiera_sms(device) // rows)))
    chunk = -(-length // chunks)
    chunk += -chunk % 4
    chunks = -(-length // chunk)
    partial = torch.empty(rows * chunks * 2, device=x.device, dtype=torch.float32)
    grid = (chunks, min(rows, 65535))
    _hiera_launch(_hiera_kernel(source, f"{name}_stats", device), device, grid, 256, 0, x, partial, rows, length, chunk)
    _hiera_launch(_hiera_kernel(source, f"{name}_apply", device), device, grid, 256, 0, x, partial,
                  0 if weight is None else weight.contiguous(), 0 if bias is None else bias.contiguous(), out,
                  rows, length, chunk, groups, channels // groups, spatial, float(eps))
    return out

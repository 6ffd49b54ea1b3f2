"""How the kernels of custom-CUDA proposals read their tensors (leaves): each leaf's layout and read
mode against the broadcast shape, the float4 and 32-bit entry-point choice, the threads and chunks
of row and scan kernels, launch-plan keys, and the argument checks. Copied into proposals with
`proposal_runtime` (see there and `hiera_core.cuda.proposal`); host code only, run on every call that
has no cached launch plan.
"""

import math

import torch


def _hiera_check(*tensors, masks=False):
    """Float32 CUDA tensors (`masks`: bool ones too, read as 0.0 or 1.0), or a TypeError."""
    for t in tensors:
        if not (isinstance(t, torch.Tensor) and t.is_cuda
                and (t.dtype == torch.float32 or (masks and t.dtype == torch.bool))):
            on_cpu = isinstance(t, torch.Tensor) and not t.is_cuda
            raise TypeError("this proposal's CUDA kernels take float32 CUDA tensors"
                            + (" and bool masks" if masks else "") + "; got "
                            + (f"{t.dtype} on {t.device}" if isinstance(t, torch.Tensor) else type(t).__name__)
                            + (": it runs on an NVIDIA GPU only (verify it with --device cuda on a machine that "
                               "has one)" if on_cpu else ""))


def _hiera_channel_values(per_channel, channels, reader):
    """The tensors a template's epilogue or prologue (`reader`) reads one value a channel of, flat and
    contiguous; a ValueError where one holds another count than `channels`."""
    values = [t.reshape(-1).contiguous() for t in per_channel]
    if any(v.numel() != channels for v in values):
        raise ValueError(f"{reader} reads one value per channel ({channels}): got {[v.numel() for v in values]}")
    return values


def _hiera_signature(source, name, leaves, *extra):
    """The key of a cached launch plan: what the plan depends on in each leaf (shape, strides, dtype,
    device, 16-byte alignment). A CPU or non-float32 leaf gets no plan: the full path refuses it."""
    return (source, name, *extra, *[(t.shape, t.stride(), t.dtype, t.device, t.data_ptr() & 15) for t in leaves])


def _hiera_leaf_args(leaves, modes):
    return [v for t, mode in zip(leaves, modes) for v in (t.data_ptr(), *mode)]


def _hiera_broadcast(tensors):
    """The broadcast shape of `tensors` (torch.broadcast_shapes is slow: symbolic-shape guards)."""
    rank = max(t.dim() for t in tensors)
    shape = [1] * rank
    for t in tensors:
        for axis, size in enumerate(t.shape, rank - t.dim()):
            if size != 1:
                if shape[axis] not in (1, size):
                    raise ValueError(f"shapes {[tuple(u.shape) for u in tensors]} do not broadcast")
                shape[axis] = size
    return tuple(shape)


def _hiera_storage_order(leaves, full, shape):
    """The dim order (outermost first) in which the leaves of the broadcast shape are dense, when none
    of them is contiguous and all are laid out alike (a channels-last map from cuDNN, a permuted
    one): a pointwise kernel then runs over their storage order, reading them in place and writing
    its outputs in their layout, instead of copying each to a contiguous one. None otherwise (a
    contiguous leaf, layouts that differ, a rolled read, a chunk of a wider row)."""
    sized = [t for t in leaves if tuple(t.shape) == shape]
    if len(shape) < 2 or not sized or any(isinstance(f, tuple) for f in full) or any(t.is_contiguous() for t in sized):
        return None
    order = tuple(sorted(range(len(shape)), key=lambda d: (-sized[0].stride(d), d)))
    if order == tuple(range(len(shape))) or not all(t.permute(order).is_contiguous() for t in sized):
        return None
    return order


def _hiera_leaf(t, shape, full):
    """(tensor, mode, inner, extent): how a kernel reads `t` broadcast to `shape` at flat index i.

    Modes: 0 FULL t[i], 1 SCALAR t[0], 2 COL t[i % cols], 3 ROW t[i // cols], 4 BCAST
    t[i // inner % extent], 5 PITCHED t[row * inner + j] (a part of a wider last dim, read in
    place), 6 ROLLED (`full` is (dim, shift): torch.roll(t, shift, dim), the offset in the mode's
    bits from 4 up, inner the dim's stride, extent its size); plus 8 for a bool tensor (a mask:
    bytes read as 0.0 or 1.0). `full` leaves are always made FULL (the kernel reads them
    directly, as floats).
    """
    if isinstance(full, tuple):  # (dim, shift): torch.roll of t, read in place with the offset
        _hiera_check(t, masks=True)
        dim, shift = full
        mode = 6 | (8 if t.dtype == torch.bool else 0) | ((-shift) % shape[dim] << 4)
        return t.expand(shape).contiguous(), mode, math.prod(shape[dim + 1:]), shape[dim]
    _hiera_check(t, masks=not full)
    if t.dtype == torch.bool:
        read, mode, inner, extent = _hiera_leaf_layout(t, shape, False)
        return read, mode | 8, inner, extent
    return _hiera_leaf_layout(t, shape, full)


def _hiera_leaf_layout(t, shape, full):
    n = math.prod(shape)
    if t.shape == shape and not full and _hiera_pitch(t):
        return t, 5, t.stride(-2), 1  # read in place, rows t.stride(-2) apart
    if t.shape == shape:
        return t.contiguous(), 0, 1, n
    if full and t.numel() != 1:
        return t.expand(shape).contiguous(), 0, 1, n
    if t.numel() == 1:
        return (t.expand(shape).contiguous(), 0, 1, n) if full else (t.reshape(1), 1, 1, 1)
    dims = (1,) * (len(shape) - t.dim()) + tuple(t.shape)
    varying = [d for d in range(len(shape)) if dims[d] != 1]
    if all(d in varying or shape[d] == 1 for d in range(varying[0], varying[-1] + 1)):
        inner = math.prod(shape[varying[-1] + 1:])
        extent = math.prod(dims[varying[0]:varying[-1] + 1])
        cols = shape[-1]
        mode = 2 if inner == 1 and extent == cols else 3 if inner == cols and extent * cols == n else 4
        return t.contiguous(), mode, inner, extent
    return t.expand(shape).contiguous(), 0, 1, n


def _hiera_pitch(t):
    """Whether `t` is rows of contiguous elements a constant pitch apart but not contiguous itself: a
    chunk or slice of a wider last dim (`gates.chunk(3, 1)[0]`, `x[..., :h]`)."""
    if t.dim() < 2 or t.is_contiguous() or t.stride(-1) != 1 or t.stride(-2) < t.shape[-1]:
        return False
    return all(t.stride(d) == t.stride(d + 1) * t.shape[d + 1] for d in range(t.dim() - 2))


def _hiera_float4_ok(t, mode, inner, extent):
    """Whether the float4 variant may read this leaf: its float4 loads (FULL, COL, PITCHED, ROLLED
    along a dim before the last) must be 16-byte aligned, and a pitch a multiple of 4 floats."""
    kind = mode & 15
    if kind in (0, 2) or (kind in (5, 6) and inner % 4 == 0):
        return t.data_ptr() % 16 == 0
    return kind != 5  # a pitch off 4 floats: no float4 of a row is aligned


def _hiera_flat(leaves, full, shape):
    """How a kernel over the flat elements of `shape` reads `leaves`: (leaf reads, entry-point
    variant, work items, row length). The float4 variant needs whole float4s in one row and
    16-byte aligned FULL/COL reads; the 32-bit one, fewer than 2^31 elements."""
    n = math.prod(shape)
    cols = shape[-1] if shape else 1
    reads = [_hiera_leaf(t, shape, f) for t, f in zip(leaves, full)]
    vec = cols % 4 == 0 and all(_hiera_float4_ok(*r) for r in reads)
    variant = ("vec" if vec else "scalar") + ("32" if n < 2**31 else "64")
    return reads, variant, n // 4 if vec else n, cols


def _hiera_row_chunks(rows, cols, sms):
    """Blocks of 256 threads each row is split into: none while the rows fill the SMs one block each
    or are shorter than 32768 entries; else enough for about four blocks an SM, each of at least
    2048 entries (two float4 loads a thread in flight), at most 64 (the partials every block of a
    row combines). The split costs a launch a sweep and a scratch allocation: on an H200 host, 16
    rows of 16384 took 7.6 us of GPU work split against 14.7 whole, but 31 us a call against 17.7;
    32 rows of 128256 took 23.9 us split against 123.7 whole (`benchmarks/bench_row_split.py`'s
    timing, session 35)."""
    if rows >= sms or cols < 32768:
        return 1
    return min(-(-4 * sms // rows), cols // 2048, 64)


def _hiera_row_threads(cols, vec):
    """Threads per row block: about 8 float4s (or 8 floats) per thread, enough loads in flight and
    few threads per reduction."""
    per_thread = -(-cols // 32) if vec else -(-cols // 8)
    return min(256, max(32, 1 << (per_thread - 1).bit_length()))


def _hiera_row_registers(cols, cached):
    """(float4s a thread holds, threads) for rows of 1025..8192 floats kept in registers between
    sweeps (entry points `_regs4/_regs8`), or (0, 0): rows one warp covers go a warp each, longer
    ones keep the shared-memory cache, and at most 16 float4s a thread are held (more spilled)."""
    quads = cols // 4
    items = 4 if quads <= 4 * 256 else 8
    if cols <= 1024 or quads > 8 * 256 or not 0 < cached * items <= 16:
        return 0, 0
    return items, max(64, 1 << (-(-quads // items) - 1).bit_length())


def _hiera_scan_chunks(columns, length, sms):
    """Chunks a column scan splits each column into, a thread each: none while the columns fill the
    GPU (2048 threads an SM) or are shorter than 64; else enough for about one wave, each at least
    32 long, at most 256 (the totals a chunk's carry adds). A sequence's prefix sum over 16 heads of
    256 features walked 4096 steps a thread on 4096 threads (32 an SM)."""
    if columns >= 2048 * sms or length < 64:
        return 1
    return max(1, min(-(-2048 * sms // columns), length // 32, 256))

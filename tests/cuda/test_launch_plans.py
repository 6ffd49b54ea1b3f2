"""The custom-kernel runtime analyses the leaves' shapes once per signature (shape, strides, dtype,
device, alignment) and launches later calls from the cached plan: a cached launch must pass exactly
what the full analysis would, with the new call's own pointers, and a leaf the full path copies
(non-contiguous, materialised broadcast) must never be served from a plan.

The launch, compile and CUDA check are stood in for, so this runs on CPU tensors."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("cuda.core")

from hiera_core.cuda import proposal_leaves, proposal_runtime  # noqa: E402

CHECK = proposal_leaves._hiera_check  # the real check, before the fixture stands in for it


@pytest.fixture
def runtime(monkeypatch):
    launches = []

    def launch(kernel, device, grid, block, shared, *args):
        launches.append((kernel, grid, block, shared, [a.data_ptr() if isinstance(a, torch.Tensor) else a for a in args]))

    for module in (proposal_runtime, proposal_leaves):  # CPU tensors stand in
        monkeypatch.setattr(module, "_hiera_check", lambda *tensors, masks=False: None)
    monkeypatch.setattr(proposal_runtime, "_hiera_kernel", lambda source, name, device: name)
    monkeypatch.setattr(proposal_runtime, "_hiera_sms", lambda device: 132)
    monkeypatch.setattr(proposal_runtime, "_hiera_launch", launch)
    monkeypatch.setattr(proposal_runtime, "_HIERA_PLANS", {})
    monkeypatch.setattr(proposal_runtime, "_HIERA_ORDERS", {})
    return proposal_runtime, launches


def aligned(*shape):
    """A fresh tensor at a new, 16-byte aligned address."""
    return torch.randn(*shape)


def misaligned(*shape):
    return torch.randn(int(torch.tensor(shape).prod()) + 1)[1:].view(*shape)


def channel(n):
    return torch.randn(n).view(-1, 1, 1)


# leaves of one call (a function, so each call gets fresh tensors) and which are read in full
LEAF_SETS = {
    "per-channel batch norm": (lambda: (aligned(2, 8, 5, 4), channel(8), channel(8), channel(8), channel(8)),
                               (True, False, False, False, False)),
    "bias over columns": (lambda: (aligned(6, 12), aligned(12)), (True, False)),
    "one value per row": (lambda: (aligned(6, 12), aligned(6, 1)), (True, False)),
    "scalar": (lambda: (aligned(6, 12), aligned(1)), (True, False)),
    "odd row, misaligned": (lambda: (misaligned(5, 7), aligned(5, 7)), (True, True)),
    "bool mask, per row": (lambda: (aligned(6, 12), torch.rand(6, 1) > 0.5), (True, False)),
}


def described(launches, known):
    """Launches with every pointer named: the call's tensors by position, others as scratch."""
    return [(kernel, grid, block, shared,
             [known.get(a, "scratch") if isinstance(a, int) and a > 2**32 else a for a in args])
            for kernel, grid, block, shared, args in launches]


def fresh_plan_launches(runtime, call, leaves):
    """What the full analysis launches for `leaves` (the plan cache emptied first)."""
    R, launches = runtime
    R._HIERA_PLANS.clear()
    launches.clear()
    outs = call(leaves)
    return described(launches, names(leaves, outs))


def names(leaves, outs):
    outs = outs if isinstance(outs, list) else [outs]
    return {**{t.data_ptr(): f"leaf{k}" for k, t in enumerate(leaves)},
            **{o.data_ptr(): f"out{k}" for k, o in enumerate(outs)}}


CALLS = {
    "pointwise": lambda R, full: lambda leaves: R._hiera_pointwise("src", "k", leaves, full, 2),
    "total": lambda R, full: lambda leaves: R._hiera_total("src", "k", leaves, full, "all"),
    "rows": lambda R, full: lambda leaves: R._hiera_rows("src", "k", leaves, full, ("row", "keep"), 1),
    "rows along the first dim": lambda R, full: lambda leaves: R._hiera_rows("src", "k", leaves, full, ("row", "keep"), 0,
                                                                             dim=0),
    "scan along the last dim": lambda R, full: lambda leaves: R._hiera_scan("src", "k", leaves, full,
                                                                            leaves[0].dim() - 1, True),
    "scan along the first dim": lambda R, full: lambda leaves: R._hiera_scan("src", "k", leaves, full, 0, False),
}


@pytest.mark.parametrize("helper", sorted(CALLS))
@pytest.mark.parametrize("leaf_set", sorted(LEAF_SETS))
def test_a_cached_launch_passes_what_the_full_analysis_would_with_the_new_pointers(runtime, helper, leaf_set):
    R, launches = runtime
    make, full = LEAF_SETS[leaf_set]
    call = CALLS[helper](R, full)
    call(make())
    assert len(R._HIERA_PLANS) == 1
    second = make()
    launches.clear()
    outs = call(second)
    cached = described(launches, names(second, outs))
    assert len(R._HIERA_PLANS) == 1
    assert cached == fresh_plan_launches(runtime, call, second)
    assert all("leaf0" in args for *_, args in cached[:1])  # the new call's own tensor, not the first's


def test_another_alignment_stride_or_shape_takes_its_own_plan(runtime):
    R, launches = runtime
    call = CALLS["pointwise"](R, (True, False))
    call((aligned(6, 12), aligned(12)))
    call((misaligned(6, 12), aligned(12)))
    call((aligned(6, 16), aligned(16)))
    call((aligned(12, 6).t(), aligned(12)))  # transposed: run in its storage order, 12 rows of 6
    call((aligned(6, 12)[:, ::2], aligned(6)))  # every other column: copied, so never planned
    assert len(R._HIERA_PLANS) == 4
    assert [kernel for kernel, *_ in launches] == ["k_vec32", "k_scalar32", "k_vec32", "k_scalar32", "k_scalar32"]


def test_a_leaf_the_full_path_copies_is_copied_on_every_call(runtime):
    R, launches = runtime
    call = CALLS["pointwise"](R, (True, True))
    for _ in range(2):
        x, y = aligned(4, 8), aligned(8)  # y read in full: broadcast into a fresh copy each call
        outs = call((x, y))
        assert names((x, y), outs).get(launches[-1][4][4]) is None  # y's argument is a copy, not y
    assert R._HIERA_PLANS == {}


def test_a_cpu_leaf_is_refused_on_every_call(runtime, monkeypatch):
    R, _ = runtime
    monkeypatch.setattr(proposal_leaves, "_hiera_check", CHECK)
    for _ in range(2):
        with pytest.raises(TypeError, match="float32 CUDA tensors; got torch.float32 on cpu: it runs on an "
                                            "NVIDIA GPU only \\(verify it with --device cuda"):
            R._hiera_pointwise("src", "k", (torch.randn(3), torch.randn(3)), (True, False), 1)
    assert R._HIERA_PLANS == {}


def test_a_bool_mask_is_read_as_bytes_and_a_float_read_of_one_refused(runtime, monkeypatch):
    R, launches = runtime
    call = CALLS["pointwise"](R, (True, False))
    x, mask = aligned(6, 12), torch.rand(6, 12) > 0.5
    call((x, mask))
    (_, _, _, _, args), = launches
    assert args[4:8] == [mask.data_ptr(), 8, 1, 72]  # FULL (0) + bytes (8): no float copy of the mask
    monkeypatch.setattr(proposal_leaves, "_hiera_check", CHECK)
    with pytest.raises(TypeError, match="float32 CUDA tensors; got torch.bool on cpu"):  # read in full: floats only
        R._hiera_pointwise("src", "k", (mask, x), (True, True), 1)
    with pytest.raises(TypeError, match="float32 CUDA tensors and bool masks; got torch.bool on cpu"):
        R._hiera_pointwise("src", "k", (mask, x), (False, True), 1)


def test_scan_launches_rows_along_the_last_dim_and_columns_along_another(runtime):
    R, launches = runtime
    R._hiera_scan("src", "k", (aligned(6, 1000),), (True,), 1, True)
    R._hiera_scan("src", "k", (aligned(6, 7, 10),), (True,), 1, False)
    R._hiera_scan("src", "k", (aligned(3, 1 << 17),), (True,), 1, False)
    (row, grid, block, _, args), (column, cgrid, cblock, _, cargs), (_, _, wide, _, _) = launches
    assert (row, grid, block, args[-5:]) == ("k_vec32", 6, 256, [6, 1000, 1, 1000, 1])  # 250 float4s: 256 threads
    assert (column, cgrid, cblock, cargs[-5:]) == ("k_cols32", 1, 256, [6, 7, 10, 10, 0])  # 60 columns walk 7
    assert wide == 256


def test_a_scan_over_few_long_columns_splits_them_into_chunks_in_two_launches(runtime):
    """A sequence's prefix sum over 16 heads of 256 features: 4096 columns of 4096 steps on 132 SMs
    go 66 chunks a column (one wave of 2048 threads an SM), the chunks' totals then the scans,
    one scratch of totals for both; the cached plan launches the same."""
    R, launches = runtime
    keys = aligned(16, 4096, 256)
    R._hiera_scan("src", "k", (keys,), (True,), 1, False)
    first = [(kernel, grid, block, args[-8:-3], args[-2:]) for kernel, grid, block, _, args in launches]
    assert first == [("k_colsplit32", 1056, 256, [16, 4096, 256, 256, 0], [66, stage]) for stage in (0, 1)]
    assert launches[0][4][-3] == launches[1][4][-3]  # one scratch of 66 * 4096 totals
    launches.clear()
    R._hiera_scan("src", "k", (aligned(16, 4096, 256),), (True,), 1, False)
    assert [(kernel, grid, block, args[-8:-3], args[-2:]) for kernel, grid, block, _, args in launches] == first
    launches.clear()
    R._hiera_scan("src", "k", (aligned(4, 63, 4096),), (True,), 1, True)  # too short to split
    R._hiera_scan("src", "k", (aligned(1100, 100, 256),), (True,), 1, True)  # columns fill the GPU
    assert [kernel for kernel, *_ in launches] == ["k_cols32", "k_cols32"]


def test_rows_along_another_dim_launch_a_thread_a_row_with_their_outputs_shaped_by_that_dim(runtime):
    R, launches = runtime
    outs = R._hiera_rows("src", "k", (aligned(3, 17, 5, 7),), (True,), ("row", "keep", "drop"), 0, dim=1)
    assert [tuple(o.shape) for o in outs] == [(3, 17, 5, 7), (3, 1, 5, 7), (3, 5, 7)]
    (kernel, grid, block, shared, args), = launches
    assert (kernel, grid, block, shared, args[-5:]) == ("k_cols32", 1, 256, 0, [105, 17, 35, 7, 0])


def test_rows_of_32_or_more_along_another_dim_go_32_to_a_tile_their_cached_leaves_in_shared_memory(runtime):
    R, launches = runtime
    # a layer norm over 96 channels of (16, 96, 56, 56): 50176 rows, 1568 tiles of 32, a block each
    # (more than one wave of 8 blocks an SM); the map read in three sweeps kept in the tile (96 x 33 floats)
    R._hiera_rows("src", "k", (aligned(16, 96, 56, 56), aligned(96, 1, 1)), (True, False), ("row",), 1, dim=1)
    # 400 channels of two cached leaves: 2 x 400 x 33 floats is over 48 KB, so they are re-read
    R._hiera_rows("src", "k", (aligned(2, 400, 9), aligned(2, 400, 9)), (True, True), ("row",), 2, dim=1)
    assert [(kernel, grid, block, shared, args[-5:]) for kernel, grid, block, shared, args in launches] == [
        ("k_tile32", 1568, 256, 96 * 33 * 4, [50176, 96, 3136, 56, 1]),
        ("k_tile32", 1, 256, 0, [18, 400, 9, 9, 0])]


def test_few_long_rows_split_into_chunks_one_launch_a_sweep_and_short_or_many_rows_do_not(runtime):
    R, launches = runtime
    split = (3, 2)  # two reduction sweeps, then the outputs; two partial statistics a block
    leaves = (aligned(8, 40000), aligned(40000))
    outs = R._hiera_rows("src", "k", leaves, (True, False), ("row", "keep"), 1, split=split)
    first = described(launches, names(leaves, outs))
    # 8 rows on 132 SMs: 66 blocks a row wanted, at most one per 2048 entries (19) of 256 threads;
    # each launch passes the same scratch (19 * 8 blocks * 2 floats), then the chunks and its stage
    assert [(kernel, grid, block, shared) for kernel, grid, block, shared, _ in first] == [("k_split_vec32", 152, 256, 0)] * 3
    assert [args[-5:] for *_, args in first] == [[8, 40000, "scratch", 19, stage] for stage in range(3)]
    assert len({launch[4][-3] for launch in launches}) == 1  # one scratch for the three launches
    launches.clear()
    again = (aligned(8, 40000), aligned(40000))
    outs = R._hiera_rows("src", "k", again, (True, False), ("row", "keep"), 1, split=split)
    assert described(launches, names(again, outs)) == first  # the cached plan: the same launches
    launches.clear()
    R._hiera_rows("src", "k", (aligned(8, 20000), aligned(20000)), (True, False), ("row", "keep"), 1, split=split)
    R._hiera_rows("src", "k", (aligned(300, 40000), aligned(40000)), (True, False), ("row", "keep"), 1, split=split)
    R._hiera_rows("src", "k", (aligned(8, 40000), aligned(40000)), (True, False), ("row",), 1)  # no split form
    assert [kernel for kernel, *_ in launches] == ["k_vec32"] * 3


def test_rows_one_warp_covers_go_eight_to_a_block_a_warp_each_and_longer_rows_a_block_each(runtime):
    R, launches = runtime
    # 1000 rows of 256: a warp's 32 float4s each, 125 blocks of 8 warps; the cached leaf takes a
    # part of shared memory per warp row
    R._hiera_rows("src", "k", (aligned(1000, 256), aligned(256)), (True, False), ("row",), 1)
    # 40000 rows of 1024 (a transformer's layer norm): the grid one wave of 8 blocks an SM
    R._hiera_rows("src", "k", (aligned(40000, 1024), aligned(1024)), (True, False), ("row",), 1)
    # odd rows of 33 floats: scalar reads, still a warp's
    R._hiera_rows("src", "k", (aligned(50, 33), aligned(33)), (True, False), ("row",), 1)
    # two cached rows of 1024 (a residual add's layer norm): eight warps' cache would be 64 KB, so
    # blocks of 64 threads a row, their 8 KB cached
    R._hiera_rows("src", "k", (aligned(8192, 1024), aligned(8192, 1024)), (True, True), ("row",), 2)
    assert [(kernel, grid, block, shared, args[-3:]) for kernel, grid, block, shared, args in launches] == [
        ("k_warp_vec32", 125, 256, 8 * 256 * 4, [1000, 256, 1]),
        ("k_warp_vec32", 132 * 8, 256, 8 * 1024 * 4, [40000, 1024, 1]),
        ("k_warp_scalar32", 7, 256, 8 * 33 * 4, [50, 33, 1]),
        ("k_vec32", 132 * 32, 64, 2 * 1024 * 4, [8192, 1024, 1])]


def test_rows_of_up_to_8192_floats_are_held_in_registers_and_longer_or_wider_ones_cached(runtime):
    R, launches = runtime
    rows = [(4096, 1), (2048, 1), (8192, 2), (6000, 1),  # registers: 4 float4s a thread, or 8
            (4096, 5), (8192, 3), (4098, 1), (16384, 1)]  # too many leaves a thread, odd, too long
    for cols, cached in rows:
        R._hiera_rows("src", "k", (aligned(1000, cols), aligned(cols)), (True, False), ("row",), cached)
    assert [(kernel, grid, block, shared, args[-3:]) for kernel, grid, block, shared, args in launches] == [
        ("k_regs4_vec32", 1000, 256, 0, [1000, 4096, 0]),
        ("k_regs4_vec32", 1000, 128, 0, [1000, 2048, 0]),
        ("k_regs8_vec32", 1000, 256, 0, [1000, 8192, 0]),
        ("k_regs8_vec32", 1000, 256, 0, [1000, 6000, 0]),
        ("k_vec32", 1000, 128, 0, [1000, 4096, 0]),  # a cache over 48 KB: the leaves re-read
        ("k_vec32", 1000, 256, 0, [1000, 8192, 0]),
        ("k_scalar32", 1000, 256, 4098 * 4, [1000, 4098, 1]),
        ("k_vec32", 1000, 256, 0, [1000, 16384, 0])]


def test_an_arg_reduction_over_few_long_rows_splits_them_into_chunks_of_warps_then_combines(runtime):
    R, launches = runtime
    R._hiera_reduce("src", "k", aligned(4, 50000), 1, False, True)
    (rows, grid, block, _, args), (finalize, fgrid, _, _, fargs) = launches
    # 4 rows: 48 chunks of 1042 entries (1024 or more each), a warp each: 24 blocks of 8 warps
    assert (rows, grid, block, args[5:]) == ("k_rows", 24, 256, [4, 50000, 1042, 1])
    assert (finalize, fgrid, fargs[4:]) == ("k_finalize", 1, [48, 4, 50000])
    assert fargs[:2] == args[1:3]  # the partial values and positions the first kernel wrote
    launches.clear()
    R._hiera_reduce("src", "k", aligned(4096, 1000), 1, True, False)
    (rows, grid, _, _, args), = launches  # rows enough: a warp a row, one launch
    assert (rows, grid, args[5:]) == ("k_rows", 512, [4096, 1000, 1000, 0])


def test_python_numbers_are_passed_last_as_floats_on_every_call(runtime):
    R, launches = runtime
    for scale in (0.5, 3):
        R._hiera_pointwise("src", "k", (aligned(6, 12),), (True,), 1, scalars=(scale,))
    assert [args[-1] for *_, args in launches] == [0.5, 3.0]
    assert all(isinstance(args[-1], float) for *_, args in launches)


def test_a_chunk_of_a_wider_last_dim_is_read_in_place_with_its_pitch(runtime):
    R, launches = runtime
    gates = aligned(6, 3, 24)
    first, second = gates.chunk(2, dim=-1)  # rows 24 floats apart
    R._hiera_pointwise("src", "k", (first, second), (False, False), 1)
    (kernel, _, _, _, args), = launches
    assert kernel == "k_vec32"
    assert args[0:4] == [first.data_ptr(), 5, 24, 1] and args[4:8] == [second.data_ptr(), 5, 24, 1]
    odd = aligned(6, 26)[:, 1:13]  # pitch 26, one float past the row start: no float4 reads
    R._hiera_pointwise("src", "k", (odd,), (False,), 1)
    assert launches[-1][0] == "k_scalar32" and launches[-1][4][0:3] == [odd.data_ptr(), 5, 26]
    strided = aligned(6, 24)[:, ::2]  # not rows of contiguous elements: copied, as before
    R._hiera_pointwise("src", "k", (strided,), (False,), 1)
    assert launches[-1][4][0] != strided.data_ptr() and launches[-1][4][1] == 0


def test_a_rolled_leaf_is_read_in_place_with_its_offset_stride_and_size(runtime):
    R, launches = runtime
    grid = aligned(6, 8)
    R._hiera_pointwise("src", "k", (grid, grid, grid), (True, (0, 1), (1, -3)), 1)
    (kernel, _, _, _, args), = launches
    assert kernel == "k_vec32"  # along dim 0 the four lanes move together; along the last, lane by lane
    assert args[4:8] == [grid.data_ptr(), 6 | (5 << 4), 8, 6]  # roll by 1 of 6: read 5 places on
    assert args[8:12] == [grid.data_ptr(), 6 | (3 << 4), 1, 8]  # roll by -3 of 8: read 3 places on
    mask = torch.rand(6, 8) > 0.5
    R._hiera_pointwise("src", "k", (grid, mask), (True, (1, 2)), 1)
    assert launches[-1][4][4:8] == [mask.data_ptr(), 6 | 8 | (6 << 4), 1, 8]  # a rolled mask: bytes


def test_channels_last_leaves_are_read_in_place_and_the_outputs_keep_their_layout(runtime):
    """A map from cuDNN in channels-last layout with a per-channel bias: the kernel runs over the
    storage order (the channel innermost, so the bias is read per column), never copying the map,
    and returns channels-last outputs, from a cached plan on later calls."""
    R, launches = runtime
    call = CALLS["pointwise"](R, (True, False))
    for _ in range(2):
        x, bias = aligned(2, 8, 5, 4).to(memory_format=torch.channels_last), channel(8)
        outs = call((x, bias))
        kernel, _, _, _, args = launches[-1]
        assert kernel == "k_vec32" and args[0:4] == [x.data_ptr(), 0, 1, 2 * 8 * 5 * 4]
        assert args[4:8] == [bias.data_ptr(), 2, 1, 8]  # COL: the channel is the row's position
        assert all(o.shape == x.shape and o.is_contiguous(memory_format=torch.channels_last) for o in outs)
    assert len(R._HIERA_PLANS) == 1


def test_leaves_in_different_layouts_are_copied_to_the_contiguous_one(runtime):
    R, launches = runtime
    x, y = aligned(2, 8, 5, 4), aligned(2, 8, 5, 4).to(memory_format=torch.channels_last)
    outs = R._hiera_pointwise("src", "k", (x, y), (True, True), 1)
    (_, _, _, _, args), = launches
    assert args[0] == x.data_ptr() and args[4] != y.data_ptr()
    assert outs[0].is_contiguous()


@pytest.mark.parametrize("shape, grid, rows", [
    ((32, 576, 14, 14), (1008, 1), 14),  # MobileNet's map: its 258048 columns nearly fill a 132-SM H100
    ((2, 3, 14, 14), (1, 14), 1),  # 84 columns: a run a row, 14 rows of blocks
    ((8, 64, 7, 7), (14, 7), 1),
    ((16, 256, 30, 12), (192, 5), 6),  # 49152 columns: 5 runs of 6 rows make about one wave
])
def test_the_column_kernel_splits_rows_only_until_a_wave_is_full(monkeypatch, shape, grid, rows):
    """A thread per column of each grid; the rows are split into runs while the columns alone leave
    the GPU short of 2048 threads an SM, and the launch passes the grids, channels, extents and rows
    the kernel reads."""
    from hiera_core.cuda import proposal_convolutions

    launches = []
    monkeypatch.setattr(proposal_convolutions, "_hiera_check", lambda *tensors: None)
    monkeypatch.setattr(proposal_convolutions, "_hiera_kernel", lambda source, name, device: name)
    monkeypatch.setattr(proposal_convolutions, "_hiera_sms", lambda device: 132)
    monkeypatch.setattr(proposal_convolutions, "_hiera_launch",
                        lambda kernel, device, grid, block, shared, *args: launches.append((grid, block, args)))
    x, weight = torch.randn(shape), torch.randn(shape[1], 1, 3, 3)
    out = proposal_convolutions._hiera_stencil("", "hiera_stencil0", x, weight, None, "columns")
    assert out.shape == x.shape
    ((launched_grid, block, args),) = launches
    assert launched_grid == grid and block == 256
    assert args[4:] == (shape[0] * shape[1], shape[1], shape[2], shape[3], rows, 0)


@pytest.mark.parametrize("entry", ["_hiera_stencil", "_hiera_depthwise"])
def test_the_column_kernel_reads_channels_last_maps_in_place(monkeypatch, entry):
    """cuDNN's NHWC convolutions leave channels-last maps: the column kernel reads and writes them in
    that layout (told so), where the tiled templates copy them to contiguous first."""
    from hiera_core.cuda import proposal_convolutions

    launches = []
    monkeypatch.setattr(proposal_convolutions, "_hiera_check", lambda *tensors: None)
    monkeypatch.setattr(proposal_convolutions, "_hiera_kernel", lambda source, name, device: name)
    monkeypatch.setattr(proposal_convolutions, "_hiera_sms", lambda device: 132)
    monkeypatch.setattr(proposal_convolutions, "_hiera_launch",
                        lambda kernel, device, grid, block, shared, *args: launches.append(args))
    x = torch.randn(4, 24, 14, 14).to(memory_format=torch.channels_last)
    weight = torch.randn(24, 1, 3, 3)
    out = getattr(proposal_convolutions, entry)("", "hiera_stencil0", x, weight, None, "columns")
    assert out.is_contiguous(memory_format=torch.channels_last) and not out.is_contiguous()
    proposal_convolutions._hiera_depthwise("", "hiera_stencil0", x, weight, None, (8, 32, 1))  # the wide tile
    (read, *_, channels_last), (copied, *_) = launches
    assert read is x and channels_last == 1
    assert copied is not x and copied.is_contiguous()


def test_a_pool_reads_a_channels_last_map_in_place_and_a_contiguous_one_by_planes(runtime):
    """cuDNN's NHWC output pooled by the NHWC entry point (the map in place, a thread an output point,
    the result channels-last); a contiguous map by planes, the prologue's per-channel tensors after
    the extents either way, one value a channel."""
    R, launches = runtime
    x = aligned(2, 8, 9, 11).to(memory_format=torch.channels_last)
    mean, var = channel(8), channel(8)
    out = R._hiera_pool("src", "k", x, 2, (3, 3), (2, 2), (1, 1), (1, 1), False, (mean, var))
    assert out.shape == (2, 8, 5, 6) and out.is_contiguous(memory_format=torch.channels_last)
    kernel, grid, block, _, args = launches[-1]
    assert (kernel, grid, block) == ("k_nhwc", (1, 10), 256)  # 10 rows of 6 x 8 output points
    assert args[0] == x.data_ptr() and args[2:10] == [2, 8, 1, 9, 11, 1, 5, 6]
    assert args[10:] == [mean.data_ptr(), var.data_ptr()]
    planar = aligned(2, 8, 9, 11)
    out = R._hiera_pool("src", "k", planar, 2, (3, 3), (2, 2), (1, 1), (1, 1), False, (mean, var))
    kernel, grid, _, _, args = launches[-1]
    assert out.is_contiguous() and (kernel, grid) == ("k", (1, 16))
    assert args[0] == planar.data_ptr() and args[2:10] == [16, 8, 1, 9, 11, 1, 5, 6]
    with pytest.raises(ValueError, match="one value per channel \\(8\\)"):
        R._hiera_pool("src", "k", planar, 2, (3, 3), (2, 2), (1, 1), (1, 1), False, (channel(4),))
    launched = len(launches)
    with pytest.raises(ValueError, match=r"\(1, 1, 5\) input with kernel \(2, 2\).*empty output \(0x2\)"):
        R._hiera_pool("src", "k", aligned(1, 1, 5), 2, (2, 2), (2, 2), (0, 0), (1, 1), False)  # PyTorch refuses it
    assert len(launches) == launched


@pytest.mark.parametrize("shape, to_channels_last, kernel", [
    ((8, 3, 224, 224), True, "hiera_relayout_narrow"),  # an RGB image: 3 rows of each matrix
    ((8, 3, 224, 224), False, "hiera_relayout_narrow"),  # back: 3 columns
    ((32, 96, 14, 14), True, "hiera_relayout"),
    ((2, 64, 5, 5), True, "hiera_relayout_narrow"),  # 25 columns
])
def test_the_layout_kernel_takes_the_narrow_form_under_32_rows_or_columns(monkeypatch, shape, to_channels_last, kernel):
    from hiera_core.cuda import proposal_convolutions

    launches = []
    monkeypatch.setattr(proposal_convolutions, "_hiera_kernel", lambda source, name, device: name)
    monkeypatch.setattr(proposal_convolutions, "_hiera_sms", lambda device: 132)
    monkeypatch.setattr(proposal_convolutions, "_hiera_launch", lambda *args: launches.append(args))
    x = torch.randn(shape)
    if not to_channels_last:
        x = x.to(memory_format=torch.channels_last)
    monkeypatch.setattr(torch.Tensor, "is_cuda", property(lambda self: True))  # CPU tensors stand in
    out = proposal_convolutions._hiera_relayout(x, to_channels_last)
    ((name, _, grid, block, _, source, target, images, rows, cols),) = launches
    assert name == kernel and source is x and target is out and images == shape[0]
    assert (rows, cols) == ((shape[1], shape[2] * shape[3]) if to_channels_last else (shape[2] * shape[3], shape[1]))
    assert out.is_contiguous(memory_format=torch.channels_last if to_channels_last else torch.contiguous_format)

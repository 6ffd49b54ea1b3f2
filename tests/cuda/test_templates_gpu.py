"""GPU: every template's proposal against its reference, on fresh inputs of the example's sizes,
odd sizes and non-contiguous layouts; twice (determinism), inputs left untouched."""

from __future__ import annotations

import pytest
from helpers.cuda_tasks import EXTRA_TASKS, build_proposal, candidate_for, example_task, extra_task, task_context

from hiera_core.spaces.compose import compiled_glue
from hiera_core.spaces.pytorch_ops import graphed

torch = pytest.importorskip("torch")
pytest.importorskip("cuda.core")

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")]


def noncontiguous(t):
    """The same values in a layout with a stride-2 last dim."""
    wide = torch.empty(t.shape[:-1] + (2 * t.shape[-1],), device=t.device, dtype=t.dtype)
    view = wide[..., ::2]
    view.copy_(t)
    return view


def randn(*shape):
    return torch.randn(*shape)


# Inputs beyond the example's own: odd sizes, other ranks, non-contiguous (marked by the wrapper).
EXAMPLE_INPUTS = {
    "elementwise_chain": lambda: [[randn(37, 4096)], [randn(3, 5, 4096)], [noncontiguous(randn(33, 4096))]],
    "gemm_epilogue": lambda: [[randn(33, 2048)], [randn(2048, 7).t()]],
    "conv2d_relu_bias": lambda: [[randn(3, 64, 17, 23)], [randn(2, 64, 9, 11).to(memory_format=torch.channels_last)]],
    "launch_bound": lambda: [[randn(7, 64)], [randn(64, 5).t()]],
    # rows of 1001 and 1003x256 and 5x33 go a warp each, eight to a block (not a multiple of 8 rows);
    # rows of 1028 and 6000 are held in registers, 4 and 8 float4s a thread, some threads' last unused
    "softmax": lambda: [[randn(37, 1001)], [randn(3, 50000) * 10], [noncontiguous(randn(64, 1000))],
                        [randn(1003, 256)], [randn(5, 33)], [randn(9, 1028)], [noncontiguous(randn(11, 6000) * 5)]],
    "layernorm": lambda: [[randn(37, 4096) * 3 + 1], [randn(2, 3, 4096)], [noncontiguous(randn(16, 4096))]],
    "rmsnorm_block": lambda: [[randn(37, 4096)], [noncontiguous(randn(16, 4096))]],
    "sum_reduction": lambda: [[randn(3, 1001, 37)], [randn(2, 5, 1)], [randn(7, 33, 500).transpose(1, 2)]],
    "maxpool2d": lambda: [[randn(2, 3, 17, 31)], [randn(2, 8, 20, 20).to(memory_format=torch.channels_last)]],
    "stencil3d": lambda: [[randn(1, 1, 37, 45, 67)], [randn(2, 1, 20, 33, 40)], [noncontiguous(randn(1, 1, 40, 48, 64))]],
}


def check_task(task, extra_inputs, replayed=False, composed=False):
    """The task's custom-CUDA proposal (`composed`: the ops between its kernels compiled by inductor;
    `replayed`: as the host-bound refinement captures it in a CUDA graph) against the reference on
    each input set, twice."""
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    ctx = task_context(task)
    key, candidate = candidate_for(ctx)
    assert candidate is not None, f"no custom-CUDA candidate for {task.path.stem}"
    if composed:
        candidate = compiled_glue(candidate, dynamic=False)
        assert candidate is not None, f"no PyTorch op between the kernels of {task.path.stem}'s candidate"
    if replayed:
        candidate = graphed(candidate, "replayed")
    namespace = build_proposal(task, candidate.code)
    torch.manual_seed(0)
    reference = namespace[task.cls.__name__](*task.init).cuda().eval()  # inference, as the engine verifies
    proposal = namespace["ModelNew"](*task.init).cuda().eval()
    proposal.load_state_dict(reference.state_dict())
    torch.manual_seed(1234)
    for inputs in [list(task.inputs)] + extra_inputs:
        inputs = [t.cuda() for t in inputs]
        kept = [t.clone() for t in inputs]
        expected = reference(*inputs)
        first = proposal(*inputs)
        second = proposal(*inputs)
        shapes = [tuple(t.shape) for t in inputs]
        for got, again, want in zip(_flat(first), _flat(second), _flat(expected)):
            assert got.shape == want.shape and got.dtype == want.dtype, (key, shapes)
            if want.dtype.is_floating_point:
                scale = max(1.0, want.abs().max().item())
                torch.testing.assert_close(got, want, rtol=1e-4, atol=2e-5 * scale, msg=lambda m, key=key, shapes=shapes: f"{key} {shapes}: {m}")
            else:
                assert torch.equal(got, want), (key, shapes)
            assert torch.equal(got, again), f"{key} {shapes}: not deterministic"
        for before, after in zip(kept, inputs):
            assert torch.equal(before, after), f"{key} {shapes}: input mutated"


def _flat(value):
    return list(value) if isinstance(value, (tuple, list)) else [value]


@pytest.mark.parametrize("name", sorted(EXAMPLE_INPUTS))
def test_example_proposal_matches_reference(name):
    check_task(example_task(name), EXAMPLE_INPUTS[name]())


@pytest.mark.parametrize("name", sorted(EXTRA_TASKS))
def test_extra_proposal_matches_reference(name, tmp_path):
    task = extra_task(name, tmp_path)
    check_task(task, [[noncontiguous(t) for t in task.inputs]])


@pytest.mark.parametrize("name", ["elementwise_chain", "layernorm", "softmax", "stencil3d", "sum_reduction"])
def test_example_proposal_replayed_as_a_cuda_graph_matches_reference(name):
    check_task(example_task(name), EXAMPLE_INPUTS[name](), replayed=True)


@pytest.mark.parametrize("name", ["batchnorm_relu", "group_norm_module", "mse_loss_sum", "stencil2d_depthwise",
                                  "heat2d_two_steps_slices"])
def test_extra_proposal_replayed_as_a_cuda_graph_matches_reference(name, tmp_path):
    task = extra_task(name, tmp_path)
    check_task(task, [[noncontiguous(t) for t in task.inputs]], replayed=True)


@pytest.mark.parametrize("replayed", [False, True])
@pytest.mark.parametrize("name", ["stencil_between_glue", "conv_transpose_unknown_op_chain"])
def test_extra_proposal_with_compiled_glue_matches_reference(name, replayed, tmp_path):
    """The kernels launched as written between the PyTorch ops inductor compiled, graphed or not."""
    task = extra_task(name, tmp_path)
    check_task(task, [[noncontiguous(t) for t in task.inputs]], replayed=replayed, composed=True)


# The time-fused stencil's load options (the default tile has float4 loads); a 256-column tile sweeps
# each of its columns twice.
STEPS_OPTIONS = {"plain": {"vector": False}, "batched": {"batched": True, "vector": False}, "vector": {"vector": True},
                 "swept": {"vector": True, "sweep": True}, "swept wide": {"tw": 256, "th": 8, "vector": True, "sweep": True}}


@pytest.mark.parametrize("option", list(STEPS_OPTIONS))
@pytest.mark.parametrize("steps", [1, 2, 3, 4])
@pytest.mark.parametrize("shape", [(37, 53), (3, 130, 257), (2, 1, 1), (1, 300, 33), (2, 45, 100), (1, 9, 4)])
def test_stencil_steps_fused_in_time_match_one_convolution_per_step(steps, shape, option):
    """Odd grids (one point, narrower and wider than a tile, several grids; rows a multiple of 4 long,
    which the vector loads take, and not), a non-contiguous input, different coefficients per step
    with some taps zero: the fused kernel against F.conv2d step by step, and the input left untouched."""
    import torch.nn.functional as F

    from hiera_core.cuda.proposal_convolutions import _hiera_stencil_steps
    from hiera_core.spaces.custom_cuda.stencil_steps_template import (
        STENCIL_STEPS_TILE,
        stencil_steps_source,
        stencil_steps_tile,
    )
    from hiera_core.spaces.custom_cuda.stencil_template import nonzero_taps

    generator = torch.Generator().manual_seed(steps)
    coefficients = tuple(tuple(float(c) if c > -0.3 else 0.0 for c in torch.randn(9, generator=generator).tolist())
                         for _ in range(steps))
    tile = stencil_steps_tile(steps, {**STENCIL_STEPS_TILE, **STEPS_OPTIONS[option]})
    source = stencil_steps_source("hiera_stencil0", [nonzero_taps(c, 2) for c in coefficients], tile).source
    x = noncontiguous(torch.randn(shape, device="cuda"))
    before = x.clone()
    expected = x.reshape(-1, 1, *shape[-2:])
    with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):  # the reference in strict float32
        for step in coefficients:
            expected = F.conv2d(expected, torch.tensor(step, device="cuda").reshape(1, 1, 3, 3), padding=1)
    got = _hiera_stencil_steps(source, "hiera_stencil0", x, coefficients, (tile["tw"], tile["th"]))
    torch.testing.assert_close(got, expected.reshape(shape), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(x, before, rtol=0, atol=0)


@pytest.mark.parametrize("kernel", [5, 7, 9])
@pytest.mark.parametrize("shape", [(2, 3, 37, 53), (1, 4, 7, 7), (3, 2, 20, 200), (1, 1, 1, 1), (2, 5, 56, 56)])
def test_the_depthwise_template_matches_cudnn(kernel, shape):
    """Odd and tile-sized maps (rows a multiple of 4 and not), a non-contiguous input, with a bias
    and without: against F.conv2d in strict float32, the input left untouched."""
    import torch.nn.functional as F

    from hiera_core.cuda.proposal_convolutions import _hiera_depthwise
    from hiera_core.spaces.custom_cuda.depthwise_template import depthwise_source, depthwise_tile

    channels = shape[1]
    weight = torch.randn(channels, 1, kernel, kernel, device="cuda")
    tile = depthwise_tile(shape[-1])
    source = depthwise_source("hiera_stencil0", kernel, tile).source
    x = noncontiguous(torch.randn(shape, device="cuda"))
    before = x.clone()
    for bias in (None, torch.randn(channels, device="cuda")):
        with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
            expected = F.conv2d(x, weight, bias, padding=kernel // 2, groups=channels)
        got = _hiera_depthwise(source, "hiera_stencil0", x, weight, bias, (tile["bx"], tile["by"], tile["ry"]))
        torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(x, before, rtol=0, atol=0)


@pytest.mark.parametrize("kernel, taps", [(3, "five"), (3, "dense"), (5, "dense"), (7, "dense"), (9, "dense")])
@pytest.mark.parametrize("shape", [(2, 3, 14, 14), (1, 4, 7, 7), (3, 2, 40, 1), (1, 1, 1, 1), (5, 3, 9, 16),
                                   (64, 300, 14, 14)])
def test_the_column_kernel_matches_cudnn(kernel, taps, shape):
    """Narrow maps (odd, one column, one point; the last with enough columns for one run of rows,
    the others split into runs), a non-contiguous input and a channels-last one (read in place),
    with a bias and without, sparse taps too: against F.conv2d in strict float32, the input left
    untouched."""
    import torch.nn.functional as F

    from hiera_core.cuda.proposal_convolutions import _hiera_depthwise
    from hiera_core.spaces.custom_cuda.columns_template import columns_source, square_taps

    channels = shape[1]
    points = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] if taps == "five" else square_taps(kernel)
    weight = torch.randn(channels, 1, kernel, kernel, device="cuda")
    if taps == "five":
        weight *= torch.tensor([[0.0, 1, 0], [1, 1, 1], [0, 1, 0]], device="cuda")
    source = columns_source("hiera_stencil0", kernel, points).source
    for x in (noncontiguous(torch.randn(shape, device="cuda")),
              torch.randn(shape, device="cuda").to(memory_format=torch.channels_last)):
        before = x.clone()
        for bias in (None, torch.randn(channels, device="cuda")):
            with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
                expected = F.conv2d(x, weight, bias, padding=kernel // 2, groups=channels)
            got = _hiera_depthwise(source, "hiera_stencil0", x, weight, bias, "columns")
            torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)
        torch.testing.assert_close(x, before, rtol=0, atol=0)


@pytest.mark.parametrize("kernel, crop", [(3, 1), (5, 2), (5, 1), (7, 3), ((3, 1), (1, 0)), ((3, 7), (1, 3)),
                                          ((5, 3), (0, 1))])
@pytest.mark.parametrize("shape", [(2, 3, 14, 17), (1, 4, 7, 7), (16, 64, 61, 75)])
def test_the_column_kernel_with_less_padding_than_its_radius_matches_cudnn(kernel, crop, shape):
    """KernelBench's unpadded depthwise convolutions (and ones padded by less than the radius, and
    windows that are not square): the smaller output only, from non-contiguous and channels-last
    maps, with a bias and without."""
    import torch.nn.functional as F

    from hiera_core.cuda.proposal_convolutions import _hiera_depthwise, _hiera_stencil
    from hiera_core.spaces.custom_cuda.columns_template import columns_source, square_taps

    channels = shape[1]
    window = (kernel, kernel) if isinstance(kernel, int) else kernel
    crops = (crop, crop) if isinstance(crop, int) else crop
    weight = torch.randn(channels, 1, *window, device="cuda")
    source = columns_source("hiera_stencil0", kernel, square_taps(kernel), crop=crop).source
    entry = _hiera_stencil if kernel == 3 else _hiera_depthwise
    for x in (noncontiguous(torch.randn(shape, device="cuda")),
              torch.randn(shape, device="cuda").to(memory_format=torch.channels_last)):
        for bias in (None, torch.randn(channels, device="cuda")):
            with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
                expected = F.conv2d(x, weight, bias, padding=(window[0] // 2 - crops[0], window[1] // 2 - crops[1]),
                                    groups=channels)
            got = entry(source, "hiera_stencil0", x, weight, bias, "columns", crop=crop)
            assert got.shape == expected.shape
            torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("kind, kernel, stride, padding, ceil_mode, count_include_pad", [
    ("max", (3, 3), (2, 2), (1, 1), False, True), ("max", (2, 3), (2, 1), (0, 1), True, True),
    ("avg", (3, 3), (2, 2), (1, 1), True, False), ("avg", (2, 2), (2, 2), (0, 0), False, True)])
@pytest.mark.parametrize("shape", [(2, 8, 37, 45), (1, 64, 7, 7), (3, 3, 1, 9)])
def test_pooling_reads_channels_last_maps_in_place(kind, kernel, stride, padding, ceil_mode, count_include_pad, shape):
    """A channels-last map (cuDNN's NHWC output) pooled by the NHWC entry point, with a per-channel
    prologue (a shift and ReLU) and without: PyTorch's values, the result channels-last."""
    import torch.nn.functional as F

    from hiera_core.cuda.proposal_runtime import _hiera_pool
    from hiera_core.spaces.custom_cuda.expr import Expr, leaf
    from hiera_core.spaces.custom_cuda.fused import TEMPLATE_OUTPUT
    from hiera_core.spaces.custom_cuda.templates import pool_source

    x = torch.randn(shape, device="cuda").to(memory_format=torch.channels_last)
    shift = torch.randn(shape[1], 1, 1, device="cuda")
    value, per_channel = leaf(TEMPLATE_OUTPUT, shape), leaf("shift", (shape[1], 1, 1))
    prologue = Expr("relu", (Expr("add", (value, per_channel), (1.0,), shape),), shape=shape)
    config = {"kind": kind, "rank": 2, "kernel": kernel, "stride": stride, "padding": padding, "dilation": (1, 1),
              "ceil_mode": ceil_mode, "count_include_pad": count_include_pad, "divisor_override": None}
    pool = F.max_pool2d if kind == "max" else F.avg_pool2d
    options = dict(ceil_mode=ceil_mode) if kind == "max" else dict(ceil_mode=ceil_mode,
                                                                   count_include_pad=count_include_pad)
    for applied, values, expected_input in ((None, (), x), (prologue, (shift,), torch.relu(x + shift))):
        source = pool_source("hiera_pool0", {**config, "prologue": applied, "per_channel": [per_channel] if values else []})
        try:
            expected = pool(expected_input, kernel, stride, padding, **options)
        except RuntimeError:  # a window taller than the map: PyTorch refuses it, and so must the kernel
            with pytest.raises(ValueError, match="empty output"):
                _hiera_pool(source.source, "hiera_pool0", x, 2, kernel, stride, padding, (1, 1), ceil_mode, values)
            continue
        got = _hiera_pool(source.source, "hiera_pool0", x, 2, kernel, stride, padding, (1, 1), ceil_mode, values)
        assert got.is_contiguous(memory_format=torch.channels_last)
        torch.testing.assert_close(got, expected)


def test_the_stems_pool_prologue_on_channels_last_and_replayed(tmp_path):
    """The stem's batch norm, ReLU and max pool in one kernel, on a channels-last image (the conv's
    output channels-last, read in place) and captured in a CUDA graph."""
    task = extra_task("stem_bn_relu_maxpool", tmp_path)
    inputs = [[randn(2, 3, 37, 45).to(memory_format=torch.channels_last)], [randn(1, 3, 64, 64)]]
    check_task(task, inputs)
    check_task(task, inputs, replayed=True)


@pytest.mark.parametrize("shape", [(32, 96, 14, 14), (3, 5, 7, 9), (2, 33, 1, 70), (1, 1, 4, 4), (4, 40, 1, 1),
                                   (2, 3, 200, 300), (8, 3, 224, 224), (2, 64, 5, 5)])
def test_the_layout_kernel_matches_pytorchs_conversion_both_ways(shape):
    """NCHW to channels-last and back by the runtime's batched transpose: the same values and strides
    as PyTorch's conversion, on odd and tile-sized shapes (a layout one of them already is: PyTorch's),
    and by the narrow kernel where a side is under 32 (an RGB image's 3 channels, a 5x5 map)."""
    from hiera_core.cuda.proposal_convolutions import _hiera_relayout

    x = torch.randn(shape, device="cuda")
    last = _hiera_relayout(x, True)
    assert last.stride() == x.contiguous(memory_format=torch.channels_last).stride()
    torch.testing.assert_close(last, x, rtol=0, atol=0)
    back = _hiera_relayout(last, False)
    assert back.is_contiguous()
    torch.testing.assert_close(back, x, rtol=0, atol=0)


def test_column_reductions_on_float4_columns_and_off_them(tmp_path):
    """amax and mean over the middle dim: inner a multiple of 4 takes the float4 column kernel
    (chunked over R, one chunk, 1024-wide rows); other widths the scalar one."""
    check_task(extra_task("amax_mean_middle", tmp_path),
               [[randn(64, 4096, 64)], [randn(2, 7, 1024)], [randn(3, 50, 12)], [randn(2, 3, 4)]])


def test_column_reductions_propagate_nan_and_read_misaligned_data(tmp_path):
    task = extra_task("amax_mean_middle", tmp_path)
    _, candidate = candidate_for(task_context(task))
    model = build_proposal(task, candidate.code)["ModelNew"]().cuda()
    x = torch.randn(3, 500, 64, device="cuda")
    x[1, 77, 5] = float("nan")
    # 4 bytes past a 16-byte boundary: float4 loads would fault or misread.
    misaligned = torch.randn(1 + 3 * 40 * 16, device="cuda")[1:].view(3, 40, 16)
    for inputs in (x, misaligned):
        for got, want in zip(model(inputs), (torch.amax(inputs, dim=1), torch.mean(inputs, dim=1))):
            torch.testing.assert_close(got, want, equal_nan=True)


def test_softmax_special_values():
    task = example_task("softmax")
    ctx = task_context(task)
    _, candidate = candidate_for(ctx)
    namespace = build_proposal(task, candidate.code)
    model = namespace["ModelNew"]().cuda()
    x = torch.randn(4, 1000, device="cuda")
    x[0, :] = -float("inf")
    x[1, 5] = float("inf")
    x[2, 7] = float("nan")
    x[3, :500] = -1e30
    expected = torch.softmax(x, dim=-1)
    got = model(x)
    torch.testing.assert_close(got, expected, equal_nan=True)

"""Depthwise convolutions on narrow maps (MobileNet's and EfficientNet's 14x14 and 7x7 stages,
ConvNeXt's 7x7 on its last two stages), each followed by an inference batch norm and ReLU6 as
torchvision writes them: the column kernel (`columns_template`, a thread per column, the norm and
clamp applied as it stores; on NCHW maps and on the channels-last ones cuDNN's NHWC convolutions
leave), the wide depthwise tile for windows wider than 3x3, eager PyTorch (the depthwise kernel, then the
norm and clamp; NCHW and channels-last), torch.compile of the same, and a copy of the map (the
floor for any kernel that reads it once and writes it once). GPU time per call from the profiler's
trace, the median of REPEATS measurements with their spread; the bound is the map read once and
written once at the GPU's attainable bandwidth (hiera_core.spec.gpus).

    python3 benchmarks/bench_depthwise_narrow.py [--repeats 5]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_nvrtc import bound_bench_start, print_against_bound

# (label, (N, C, H, W), kernel): batch 32 at inference, the channels of each network's stage.
MAPS = (
    ("MobileNetV2 96-ch stage, expanded", (32, 576, 14, 14), 3),
    ("MobileNetV2 160-ch stage, expanded", (32, 960, 7, 7), 3),
    ("EfficientNet-B0 stage 6, 5x5", (32, 672, 14, 14), 5),
    ("ConvNeXt-T stage 3", (32, 384, 14, 14), 7),
    ("ConvNeXt-T stage 4", (32, 768, 7, 7), 7),
    # Wider maps (the one-row 2D tile took 33.0 and 90.4 us on these, H100, 2026-12-06).
    ("MobileNetV2 32-ch stage, expanded", (32, 192, 28, 28), 3),
    ("MobileNetV2 24-ch stage, expanded", (32, 144, 56, 56), 3),
)
EPS = 1e-5


def contenders(shape: tuple, kernel: int) -> tuple[dict, object]:
    """The functions timed on one map (each of x, and whether it is given x channels-last), and the
    eager one (the reference)."""
    import torch
    import torch.nn.functional as F

    from hiera_core.cuda.proposal_convolutions import _hiera_depthwise
    from hiera_core.spaces.custom_cuda.columns_template import columns_source, square_taps
    from hiera_core.spaces.custom_cuda.depthwise_template import depthwise_source, depthwise_tile
    from hiera_core.spaces.custom_cuda.expr import Expr, leaf
    from hiera_core.spaces.custom_cuda.fused import TEMPLATE_OUTPUT
    from hiera_core.spaces.custom_cuda.lower_norms import normalized

    channels = shape[1]
    weight = torch.randn(channels, 1, kernel, kernel, device="cuda") / kernel
    mean, var = torch.rand(channels, device="cuda") - 0.5, torch.rand(channels, device="cuda") + 0.5
    scale, shift = torch.rand(channels, device="cuda") + 0.5, torch.rand(channels, device="cuda") - 0.5
    per_channel = tuple(t.view(-1, 1, 1) for t in (mean, var, scale, shift))
    # The epilogue as the lowering writes BN + ReLU6 after a convolution: four per-channel leaves.
    y = leaf(TEMPLATE_OUTPUT, shape)
    leaves = [leaf(f"c{k}", (channels, 1, 1)) for k in range(4)]
    norm = normalized(Expr("sub", (y, leaves[0]), (1.0,), shape), leaves[1], EPS, leaves[2], leaves[3])
    epilogue = Expr("relu6", (norm,), shape=shape)

    def eager(x):
        return F.relu6(F.batch_norm(F.conv2d(x, weight, padding=kernel // 2, groups=channels), mean, var, scale,
                                    shift, False, 0.0, EPS))

    columns = columns_source("hiera_stencil0", kernel, square_taps(kernel), epilogue, leaves).source
    tiles = {}
    if kernel > 3:  # the wide depthwise tile, what wider maps keep (every 2D 3x3 takes the column kernel)
        tile = depthwise_tile(shape[-1])
        tiled_source = depthwise_source("hiera_stencil0", kernel, tile, epilogue, leaves).source
        tiles["wide depthwise tile"] = (lambda x: _hiera_depthwise(
            tiled_source, "hiera_stencil0", x, weight, None, (tile["bx"], tile["by"], tile["ry"]), per_channel), False)

    def column_kernel(x):
        return _hiera_depthwise(columns, "hiera_stencil0", x, weight, None, "columns", per_channel)

    return {
        "columns (this kernel)": (column_kernel, False),
        "columns, channels-last": (column_kernel, True),
        **tiles,
        "eager": (eager, False),
        "eager, channels-last": (eager, True),
        "torch.compile": (torch.compile(eager), False),
        "copy (floor)": (lambda x: x.clone(), False),
    }, eager


def main() -> None:
    repeats, peaks = bound_bench_start(__doc__)

    import torch

    with torch.no_grad():
        for label, shape, kernel in MAPS:
            x = torch.randn(shape, device="cuda")
            functions, eager = contenders(shape, kernel)
            expected = eager(x)
            bound_us = 2 * x.numel() * 4 / peaks.mem_bw * 1e6
            print(f"\n{label}: {kernel}x{kernel} on {'x'.join(map(str, shape))}, bound {bound_us:.1f} us")
            for name, (function, channels_last) in functions.items():
                given = x.to(memory_format=torch.channels_last) if channels_last else x
                if name != "copy (floor)":
                    error = (function(given) - expected).abs().max().item()
                    if error > 1e-3:
                        raise SystemExit(f"{name} differs from eager by {error:.2e}: not timing a wrong kernel")
                print_against_bound(name, function, (given,), bound_us, repeats)


if __name__ == "__main__":
    main()

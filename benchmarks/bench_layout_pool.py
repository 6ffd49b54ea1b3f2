"""The layout kernel and the pooling kernel with a prologue: what the `+cudnn_nhwc` composition adds
around a library convolution. NCHW to channels-last and back (`_hiera_relayout`: the tiled transpose,
and the narrow form under 32 rows or columns, an RGB image) against PyTorch's conversion and
torch.compile's; a CNN stem's batch norm, ReLU and 3x3/2 max pool (`_hiera_pool` with the norm and
ReLU as its prologue, planar on NCHW maps, in place on channels-last ones) against eager PyTorch and
torch.compile on the same layout. GPU time per call from the profiler's trace, the median of REPEATS
measurements with their spread; the bound is each tensor read once and written once at the GPU's
attainable bandwidth (hiera_core.spec.gpus).

    python3 benchmarks/bench_layout_pool.py [--repeats 5]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_nvrtc import bound_bench_start, print_against_bound

# (label, (N, C, H, W)): a ResNet stem's RGB input and its pooled output, MobileNetV2's 14x14 block input.
LAYOUTS = (
    ("RGB images, the stem's input", (8, 3, 224, 224)),
    ("MobileNetV2 96-ch 14x14", (32, 96, 14, 14)),
    ("the stem's pooled map", (8, 64, 56, 56)),
)
# (label, (N, C, H, W) of the convolution's output): max pool 3x3, stride 2, padding 1 after BN + ReLU.
POOLS = (
    ("ResNet stem, batch 8", (8, 64, 112, 112)),
    ("ResNet stem, batch 1", (1, 64, 112, 112)),
)
EPS = 1e-5


def layout_contenders(channels_last: bool) -> dict:
    import torch

    from hiera_core.cuda.proposal_convolutions import _hiera_relayout

    layout = torch.channels_last if channels_last else torch.contiguous_format

    def convert(x):
        return x.contiguous(memory_format=layout)

    return {"hiera layout kernel": lambda x: _hiera_relayout(x, channels_last), "PyTorch": convert,
            "torch.compile": torch.compile(convert), "copy (floor)": lambda x: x.clone()}


def pool_contenders(channels: int) -> tuple[dict, object]:
    """The functions timed on one map (each of the map, and whether it is given channels-last), and
    the eager one (the reference)."""
    import torch
    import torch.nn.functional as F

    from hiera_core.cuda.proposal_runtime import _hiera_pool
    from hiera_core.spaces.custom_cuda.expr import Expr, leaf
    from hiera_core.spaces.custom_cuda.fused import TEMPLATE_OUTPUT
    from hiera_core.spaces.custom_cuda.lower_norms import normalized
    from hiera_core.spaces.custom_cuda.templates import pool_source

    mean, var = torch.rand(channels, device="cuda") - 0.5, torch.rand(channels, device="cuda") + 0.5
    scale, shift = torch.rand(channels, device="cuda") + 0.5, torch.rand(channels, device="cuda") - 0.5
    per_channel = tuple(t.view(-1, 1, 1) for t in (mean, var, scale, shift))
    shape = (1, channels, 1, 1)  # the prologue's text does not depend on the map's extents
    y = leaf(TEMPLATE_OUTPUT, shape)
    leaves = [leaf(f"c{k}", (channels, 1, 1)) for k in range(4)]
    prologue = Expr("relu", (normalized(Expr("sub", (y, leaves[0]), (1.0,), shape), leaves[1], EPS, leaves[2],
                                        leaves[3]),), shape=shape)
    config = {"kind": "max", "rank": 2, "kernel": (3, 3), "stride": (2, 2), "padding": (1, 1), "dilation": (1, 1),
              "ceil_mode": False, "count_include_pad": True, "divisor_override": None,
              "prologue": prologue, "per_channel": leaves}
    source = pool_source("hiera_pool0", config).source

    def eager(x):
        return F.max_pool2d(F.relu(F.batch_norm(x, mean, var, scale, shift, False, 0.0, EPS)), 3, 2, 1)

    def pool_kernel(x):
        return _hiera_pool(source, "hiera_pool0", x, 2, (3, 3), (2, 2), (1, 1), (1, 1), False, per_channel)

    compiled = torch.compile(eager)
    return {"hiera pool + prologue": (pool_kernel, False), "hiera pool + prologue, channels-last": (pool_kernel, True),
            "eager": (eager, False), "eager, channels-last": (eager, True),
            "torch.compile": (compiled, False), "torch.compile, channels-last": (compiled, True)}, eager


def main() -> None:
    repeats, peaks = bound_bench_start(__doc__)

    import torch

    with torch.no_grad():
        for label, shape in LAYOUTS:
            for channels_last in (True, False):
                x = torch.randn(shape, device="cuda")
                if not channels_last:
                    x = x.contiguous(memory_format=torch.channels_last)
                bound_us = 2 * x.numel() * 4 / peaks.mem_bw * 1e6
                print(f"\n{label}: {'x'.join(map(str, shape))} to {'channels-last' if channels_last else 'NCHW'}, "
                      f"bound {bound_us:.1f} us")
                for name, function in layout_contenders(channels_last).items():
                    if name != "copy (floor)" and not torch.equal(function(x), x):
                        raise SystemExit(f"{name} changed the values: not timing a wrong kernel")
                    print_against_bound(name, function, (x,), bound_us, repeats, width=38)
        for label, shape in POOLS:
            x = torch.randn(shape, device="cuda")
            functions, eager = pool_contenders(shape[1])
            expected = eager(x)
            bound_us = (x.numel() + expected.numel()) * 4 / peaks.mem_bw * 1e6
            print(f"\n{label}: BN + ReLU + max pool 3x3/2 of {'x'.join(map(str, shape))}, bound {bound_us:.1f} us")
            for name, (function, channels_last) in functions.items():
                given = x.to(memory_format=torch.channels_last) if channels_last else x
                error = (function(given) - expected).abs().max().item()
                if error > 1e-4:
                    raise SystemExit(f"{name} differs from eager by {error:.2e}: not timing a wrong kernel")
                print_against_bound(name, function, (given,), bound_us, repeats, width=38)


if __name__ == "__main__":
    main()

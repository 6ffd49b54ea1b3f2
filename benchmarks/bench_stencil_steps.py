"""The time-fused 2D stencil (`stencil_steps_source`: K radius-1 steps in one kernel) on grids like
the proxy's two Jacobi sweeps: each tile, against one kernel per step (the column kernel, what a
single step takes),
torch.compile of the slices, and a copy of the grid (the floor for any kernel that reads the grid
once and writes it once). GPU time per call from the profiler's trace; the bound is the grid read
once and written once at the GPU's attainable bandwidth (hiera_core.spec.gpus), as the module's
roofline counts it. Each figure twice: warm (the grid left in L2 by the call before, from the
profiler) and cold (L2 flushed before each call, by hiera bench's own timing: what its roofline
share is taken from).

    python3 benchmarks/bench_stencil_steps.py [--tiles 256x16,256x16b,256x16v] [--steps 2,3]

A tile's trailing letters set the template's options: "b" `batched` (a thread's loads 8 at a time), "v"
`vector` (float4 loads, all of a thread's in flight at once), "s" `sweep` (each thread sweeps a column
down a band of rows, the rows its taps read in registers).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_nvrtc import kernel_ms

JACOBI = (0.0, 0.2, 0.0, 0.2, 0.2, 0.2, 0.0, 0.2, 0.0)  # 5-point average, in (dy, dx) tap order
GRIDS = ((2048, 2048), (4096, 4096), (3, 1000, 1000))


def sweeps(steps: int):
    """The reference: `steps` Jacobi sweeps spelled with slices of a zero-padded grid."""
    import torch.nn.functional as F

    def run(a):
        for _ in range(steps):
            p = F.pad(a, (1, 1, 1, 1))
            a = 0.2 * (p[..., 1:-1, 1:-1] + p[..., 1:-1, :-2] + p[..., 1:-1, 2:] + p[..., 2:, 1:-1] + p[..., :-2, 1:-1])
        return a

    return run


def contenders(steps: int, tiles: list[str]) -> dict:
    import torch

    from hiera_core.cuda.proposal_convolutions import _hiera_stencil_constant, _hiera_stencil_steps
    from hiera_core.spaces.custom_cuda.columns_template import columns_source
    from hiera_core.spaces.custom_cuda.stencil_steps_template import stencil_steps_source, stencil_steps_tile
    from hiera_core.spaces.custom_cuda.stencil_template import nonzero_taps

    taps = nonzero_taps(JACOBI, 2)
    functions = {}
    for asked in tiles:
        size = asked.rstrip("bvs")
        tw, th = (int(n) for n in size.split("x"))
        suffix = asked[len(size):]
        options = {"batched": "b" in suffix, "vector": "v" in suffix, "sweep": "s" in suffix}
        tile = stencil_steps_tile(steps, {"tw": tw, "th": th, **options})  # as a proposal shrinks it
        source = stencil_steps_source("hiera_stencil0", [taps] * steps, tile).source
        label = f"fused {tile['tw']}x{tile['th']}{suffix}"
        functions[label] = (lambda s, t: lambda a: _hiera_stencil_steps(
            s, "hiera_stencil0", a, (JACOBI,) * steps, t))(source, (tile["tw"], tile["th"]))
    single = columns_source("hiera_stencil0", 3, taps).source

    def per_step(a):
        for _ in range(steps):
            a = _hiera_stencil_constant(single, "hiera_stencil0", a, JACOBI, 2, "columns")
        return a

    functions["a kernel per step"] = per_step
    functions["slices + compile"] = torch.compile(sweeps(steps))
    functions["copy (floor)"] = lambda a: a.clone()
    return functions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tiles", default="256x16v,128x16v,128x16vs,256x16vs,128x32vs,256x8vs")
    parser.add_argument("--steps", default="2,3")
    args = parser.parse_args()

    import torch

    from hiera_core.profile.timing import time_module
    from hiera_core.spec.gpus import lookup

    peaks = lookup(torch.cuda.get_device_name())
    tiles = args.tiles.split(",")
    print(f"{torch.cuda.get_device_name()}: bound at {peaks.mem_bw / 1e12:.1f} TB/s")
    with torch.no_grad():
        for steps in (int(s) for s in args.steps.split(",")):
            for shape in GRIDS:
                a = torch.rand(shape, device="cuda")
                expected = sweeps(steps)(a)
                bound_us = 2 * a.numel() * 4 / peaks.mem_bw * 1e6
                print(f"\n{steps} steps on {'x'.join(map(str, shape))}: bound {bound_us:.1f} us")
                for name, function in contenders(steps, tiles).items():
                    if name != "copy (floor)":
                        error = (function(a) - expected).abs().max().item()
                        if error > 1e-5:
                            raise SystemExit(f"{name} differs from the slices by {error:.2e}: not timing a wrong kernel")
                    us = kernel_ms(function, (a,), calls=50) * 1e3
                    cold_us = time_module(function, [a], "cuda", profile=False).gpu_median_ms * 1e3
                    print(f"  {name:<20} warm {us:8.1f} us {100 * bound_us / us:5.1f}%   "
                          f"cold {cold_us:8.1f} us {100 * bound_us / cold_us:5.1f}% of the bound")


if __name__ == "__main__":
    main()

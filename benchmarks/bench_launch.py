"""Host time to queue one custom-CUDA kernel, piece by piece: what a proposal's call spends before its
kernel reaches the GPU. A kernel too small to be graphed is host-bound when its launch path costs
more than its GPU time (the proxy's two-step stencil: 20 us of GPU work, 26 us to queue on an H100).

Each row queues `--calls` back-to-back calls of one piece on a 32 x 32 grid (GPU work far under the
host's) and prints the host time per call to queue them, median over `--repeats` runs with the
lowest and highest run beside it:

    python3 benchmarks/bench_launch.py [--calls 2000] [--repeats 7]

Rows: an eager torch op and torch.empty_like (for scale); the driver's cuLaunchKernel with its
arguments packed once (the floor of any Python launch); cuda.core's launch (what the runtime used
before session 32); the runtime's `_hiera_launch` (one cuLaunchKernel, arguments packed per call);
and the whole `_hiera_stencil_steps` call, bare and inside an nn.Module.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

JACOBI = (0.0, 0.2, 0.0, 0.2, 0.2, 0.2, 0.0, 0.2, 0.0)
STEPS = (JACOBI, JACOBI)
TILE = (128, 16)


def queue_us(function, calls: int, repeats: int) -> tuple[float, float, float]:
    """Host microseconds per call to queue `calls` calls: (median, lowest, highest) over `repeats`."""
    import torch

    runs = []
    for _ in range(repeats + 1):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            function()
        runs.append((time.perf_counter() - start) * 1e6 / calls)
        torch.cuda.synchronize()
    runs = runs[1:]  # the first run warms the caches
    return statistics.median(runs), min(runs), max(runs)


def pieces() -> dict:
    import torch
    from cuda.bindings import driver

    from hiera_core.cuda.proposal_convolutions import _hiera_stencil_steps
    from hiera_core.cuda.proposal_runtime import _hiera_kernel, _hiera_launch
    from hiera_core.spaces.custom_cuda.stencil_steps_template import stencil_steps_source, stencil_steps_tile
    from hiera_core.spaces.custom_cuda.stencil_template import nonzero_taps

    tile = stencil_steps_tile(len(STEPS), {"tw": TILE[0], "th": TILE[1], "batched": False, "vector": True,
                                           "sweep": False})
    source = stencil_steps_source("hiera_stencil0", [nonzero_taps(JACOBI, 2)] * len(STEPS), tile).source
    x = torch.rand(32, 32, device="cuda")
    out = torch.empty_like(x)
    weight = torch.tensor(STEPS, dtype=torch.float32, device="cuda")
    kernel = _hiera_kernel(source, "hiera_stencil0", 0)
    grid, block = (1, 2, 1), (32, 8)
    args = (x, weight, out, 1, 32, 32)
    if (_hiera_stencil_steps(source, "hiera_stencil0", x, STEPS, TILE) - stencil(x)).abs().max() > 1e-5:
        raise SystemExit("the stencil kernel differs from the slices: not timing a wrong kernel")

    import ctypes
    import struct

    from cuda.core import LaunchConfig, Stream, launch

    from hiera_core.cuda.proposal_runtime import _HIERA_LIBRARIES

    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    slots = (ctypes.c_uint64 * len(args))()
    pointers = (ctypes.c_void_p * len(args))(*[ctypes.addressof(slots) + 8 * i for i in range(len(args))])
    struct.pack_into("<" + "q" * len(args), slots, 0, *[a.data_ptr() if isinstance(a, torch.Tensor) else a
                                                        for a in args])
    address = ctypes.addressof(pointers)

    def driver_packed_once():
        driver.cuLaunchKernel(kernel, *grid, *block, 0, stream, address, 0)

    # The runtime's launch until session 32: cuda.core's launch, which boxes each argument.
    core_stream = Stream.from_handle(torch.cuda.current_stream().cuda_stream)
    config = LaunchConfig(grid=grid, block=block, shmem_size=0)
    core_kernel = _HIERA_LIBRARIES[(source, 0, "hiera_stencil0")]

    def cuda_core_launch():
        launch(core_stream, config, core_kernel, *[a.data_ptr() if isinstance(a, torch.Tensor) else a for a in args])

    class Module(torch.nn.Module):
        def forward(self, a):
            return _hiera_stencil_steps(source, "hiera_stencil0", a, STEPS, TILE)

    module = Module()
    return {
        "torch: x * 0.2 (eager op)": lambda: x * 0.2,
        "torch.empty_like": lambda: torch.empty_like(x),
        "driver cuLaunchKernel, packed once": driver_packed_once,
        "cuda.core launch (the runtime before)": cuda_core_launch,
        "_hiera_launch": lambda: _hiera_launch(kernel, 0, grid, block, 0, *args),
        "_hiera_stencil_steps": lambda: _hiera_stencil_steps(source, "hiera_stencil0", x, STEPS, TILE),
        "nn.Module calling it": lambda: module(x),
    }


def stencil(a):
    import torch.nn.functional as F

    for _ in STEPS:
        p = F.pad(a, (1, 1, 1, 1))
        a = 0.2 * (p[..., 1:-1, 1:-1] + p[..., 1:-1, :-2] + p[..., 1:-1, 2:] + p[..., 2:, 1:-1] + p[..., :-2, 1:-1])
    return a


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    import torch

    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}: host us per call to queue "
          f"(median of {args.repeats} runs of {args.calls} calls; lowest - highest)")
    with torch.no_grad():
        for name, function in pieces().items():
            median, low, high = queue_us(function, args.calls, args.repeats)
            print(f"  {name:<40} {median:7.2f} us   ({low:.2f} - {high:.2f})")


if __name__ == "__main__":
    main()

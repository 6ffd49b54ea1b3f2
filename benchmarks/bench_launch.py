"""Host time to queue one custom-CUDA kernel, piece by piece: what a proposal's call spends before its
kernel reaches the GPU.

Each row queues `--calls` back-to-back calls of one piece on a 32 x 32 grid (GPU work far under the
host's) and prints the host time per call to queue them, median over `--repeats` runs with the
lowest and highest run beside it:

    python3 benchmarks/bench_launch.py [--calls 2000] [--repeats 7]

Rows: an eager torch op and torch.empty_like (for scale); the driver's cuLaunchKernel from
cuda.bindings with its arguments packed once (the floor of any Python launch); the runtime's
`_hiera_launch` (cuda.core's launch); one cuLaunchKernel with the arguments packed per call by a
cached struct layout (the launch the runtime took for one commit of session 32); and the whole
`_hiera_stencil_steps` call, bare and inside an nn.Module; a CUDA graph's replay of that call and of 20
eager ops, and the module under the graph-replay wrapper a graphed candidate gets (its input copied
in, its output cloned out): on level2/12 (H100, session 33) graphed candidates measured 60-90 us to
queue a call, several times a replay's expected cost.

Measured on an H100 (session 32, torch 2.11): cuda.core's launch 5.45 us a call, the per-call packed
driver launch 6.82, the driver call alone 4.35; the stencil's whole call 12.0 us, 13.5 inside a
module. So the runtime keeps cuda.core's launch, and a proposal's host cost is not its launch.
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
    shaped = (tile["tw"], tile["th"])  # the tile as the template sized it, which the call passes
    grid, block = (-(-32 // shaped[0]), -(-32 // shaped[1]), 1), (32, 8, 1)  # as _hiera_stencil_steps launches it
    args = (x, weight, out, 1, 32, 32)
    if (_hiera_stencil_steps(source, "hiera_stencil0", x, STEPS, shaped) - stencil(x)).abs().max() > 1e-5:
        raise SystemExit("the stencil kernel differs from the slices: not timing a wrong kernel")

    import ctypes
    import struct

    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    handle = kernel.handle
    slots = (ctypes.c_uint64 * len(args))()
    pointers = (ctypes.c_void_p * len(args))(*[ctypes.addressof(slots) + 8 * i for i in range(len(args))])
    address = ctypes.addressof(pointers)
    struct.pack_into("<" + "q" * len(args), slots, 0, *[a.data_ptr() if isinstance(a, torch.Tensor) else a
                                                        for a in args])
    layouts = {}

    def driver_packed_once(buffers=(slots, pointers)):  # the default keeps the buffers alive
        driver.cuLaunchKernel(handle, *grid, *block, 0, stream, address, 0)

    def driver_packed_per_call(buffers=(slots, pointers)):
        values = [a.data_ptr() if isinstance(a, torch.Tensor) else a for a in args]
        kinds = tuple(map(type, values))
        layout = layouts.get(kinds)
        if layout is None:
            layout = layouts[kinds] = struct.Struct("<" + "".join("f4x" if k is float else "q" for k in kinds))
        layout.pack_into(slots, 0, *values)
        (error,) = driver.cuLaunchKernel(handle, *grid, *block, 0, stream, address, 0)
        if error != driver.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"cuLaunchKernel failed: {error}")

    class Module(torch.nn.Module):
        def forward(self, a):
            return _hiera_stencil_steps(source, "hiera_stencil0", a, STEPS, shaped)

    module = Module()
    replay_stencil = _captured(lambda: module(x))
    replay_ops = _captured(lambda: _twenty_ops(x))
    graphed = _graph_replay_wrapper(Module)()
    return {
        "torch: x * 0.2 (eager op)": lambda: x * 0.2,
        "torch.empty_like": lambda: torch.empty_like(x),
        "driver cuLaunchKernel, packed once": driver_packed_once,
        "_hiera_launch (cuda.core's launch)": lambda: _hiera_launch(kernel, 0, grid, block, 0, *args),
        "driver cuLaunchKernel, packed per call": driver_packed_per_call,
        "_hiera_stencil_steps": lambda: _hiera_stencil_steps(source, "hiera_stencil0", x, STEPS, shaped),
        "nn.Module calling it": lambda: module(x),
        "CUDAGraph.replay(), that call captured": replay_stencil.replay,
        "CUDAGraph.replay(), 20 eager ops captured": replay_ops.replay,
        "the graph-replay wrapper around the module": lambda: graphed(x),
    }


def _twenty_ops(a):
    for _ in range(10):
        a = a * 0.5 + 0.1
    return a


def _captured(call):
    """`call` captured once in a CUDA graph (after a warm-up on a side stream, as the wrapper does)."""
    import torch

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        call()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        call()
    return graph


def _graph_replay_wrapper(inner: type) -> type:
    """`inner` under the forward a graphed candidate gets (pytorch_ops.graph_replay_methods: inputs
    copied into the graph's buffers, outputs cloned out), from the code the candidate's generator writes."""
    from hiera_core.spaces.codegen import model_new
    from hiera_core.spaces.pytorch_ops import graph_replay_methods

    namespace = {"Inner": inner}
    exec(model_new("Inner", "graphed", init="self._hiera_graphs = {}", forward=graph_replay_methods("Inner")), namespace)
    return namespace["ModelNew"]


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

"""Custom-CUDA templates: NVRTC compile times (no GPU) and, with --gpu, speed against the baselines.

    python benchmarks/bench_nvrtc.py                  # compile time and resources per template kernel
    python benchmarks/bench_nvrtc.py --gpu            # eager / cuDNN-cuBLAS / torch.compile / HIERA
    python benchmarks/bench_nvrtc.py --gpu --sweep-stencil   # stencil tile shapes on the 256^3 grid
    python benchmarks/bench_nvrtc.py --sweep-rows     # row kernels (softmax, norms) at each block size

Targets: every kernel compiles in at most 0.5 s; on an H200 the stencil reaches 60% of its roofline
bound. Timing: CUDA events around each call, L2 flushed before each, median of 50 after warm-up.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hiera_core.cuda.nvrtc import compile_cuda  # noqa: E402
from hiera_core.cuda.resources import kernel_resources  # noqa: E402
from hiera_core.spaces.custom_cuda.stencil_template import STENCIL_TILE_3D  # noqa: E402
from hiera_core.spec import gpus  # noqa: E402
from hiera_core.task.load import load_task  # noqa: E402

EXAMPLES = sorted(path.stem for path in (ROOT / "examples").glob("*.py"))
COMPILE_TARGET_S = 0.5
# Session 5 (2026-11-29) also tried more blocks per SM (__launch_bounds__ minimum 5-12, 32-48
# registers) and a cp.async shared-memory ring of 4-8 planes (commit 1f40b6a): none beat the
# shipped tile by more than 1 us (benchmarks/results/h200-2026-11-29-s5). Session 6 found the halo's
# loads in the same iteration as their use to be what cost: queued ahead, -3.5 us (.../h200-2026-11-29-s6).
STENCIL_TILES = [  # the shipped tile first; then its options (stencil_template.stencil_source), alone and together
    STENCIL_TILE_3D,
    {**STENCIL_TILE_3D, "stcs": 0},
    {**STENCIL_TILE_3D, "zc": 32},
    {**STENCIL_TILE_3D, "mb": 0},
    {"bx": 64, "by": 4, "ry": 4, "zc": 32},  # session 5's tile
    {"bx": 64, "by": 4, "ry": 4, "zc": 32, "halo_ahead": 1},
    {"bx": 64, "by": 4, "ry": 4, "zc": 32, "stcs": 1},
    {"bx": 64, "by": 4, "ry": 1, "zc": 32, "vx": 4},
    {"bx": 32, "by": 4, "ry": 2, "zc": 32, "vx": 4, "halo_ahead": 1},
    {"bx": 32, "by": 4, "ry": 2, "zc": 16, "vx": 4, "halo_ahead": 1, "stcs": 1},
    {"bx": 64, "by": 2, "ry": 2, "zc": 32, "vx": 4, "halo_ahead": 1},
    {"bx": 32, "by": 8, "ry": 1, "zc": 16, "vx": 4, "mb": 4, "halo_ahead": 1, "stcs": 1},
    {"bx": 64, "by": 4, "ry": 2, "zc": 16, "vx": 4, "mb": 3, "halo_ahead": 1, "stcs": 1},
]
# Shapes each swept tile must get right before it is timed: odd sizes (scalar path), two volumes
# (float4 path), a base 4 bytes off 16-byte alignment (scalar path on a multiple-of-4 width).
STENCIL_CHECKS = [(1, 1, 37, 45, 67), (2, 1, 20, 33, 40), "misaligned"]
ENTRY_RE = re.compile(r'extern "C" __global__ void (?:__launch_bounds__\([^)]*\) )?(\w+)\(')


def load(name: str):
    """(path, class, constructor arguments, forward inputs) of an example, resolved as the engine does."""
    path = Path(name) if name.endswith(".py") else ROOT / "examples" / f"{name}.py"
    task = load_task(str(path))
    return path, task.cls, task.make_init(), task.make_inputs("cpu", seed=0)


def candidate(name: str):
    """The custom-CUDA candidate for an example (or None), generated as the worker would."""
    import torch
    from torch.fx.passes.shape_prop import ShapeProp

    from hiera_core.spaces.custom_cuda import STRATEGIES, ModelResolver, ops_from_fx
    from hiera_core.spaces.custom_cuda.graph import Unsupported
    from hiera_core.spaces.custom_cuda.lowering import lower
    from hiera_core.spaces.strategy import ImplementContext

    path, cls, init, inputs = load(name)
    model = cls(*init).eval()  # as the engine verifies (a batch norm reads its running statistics)
    graph = torch.fx.symbolic_trace(model)
    ShapeProp(graph).propagate(*inputs)
    try:
        family = lower(ops_from_fx(graph), ModelResolver(model)).family
    except Unsupported:
        return None
    if family is None:
        return None
    return STRATEGIES[family].generate(ImplementContext(None, cls.__name__, model, inputs, graph, "cpu"))


def proposal_namespace(path: Path, code: str) -> dict:
    """The task file with a proposal's code appended (ModelNew after the reference, as HIERA lays a
    proposal out), executed: the namespace holds both classes."""
    namespace = {"__name__": f"bench_{path.stem}_hiera"}
    exec(compile(path.read_text() + "\n\n" + code, f"{path.stem}_hiera.py", "exec"), namespace)
    return namespace


def gpu_pair(path: Path, cls, init, code: str):
    """(reference, proposal) on the GPU in eval mode, the proposal holding the reference's weights."""
    import torch

    namespace = proposal_namespace(path, code)
    torch.manual_seed(0)
    reference = namespace[cls.__name__](*init).cuda().eval()
    proposal = namespace["ModelNew"](*init).cuda().eval()
    proposal.load_state_dict(reference.state_dict())
    return reference, proposal


def compile_table(arch: str) -> bool:
    """Cold NVRTC time of each kernel's first entry point, compiled alone as the proposal runtime
    does (`HIERA_ENTRY_<name>`), and the resources of all its entry points."""
    print(f"NVRTC compile time per template kernel ({arch}, cold: no cache; target <= {COMPILE_TARGET_S} s)")
    print(f"{'example':20} {'strategy':30} {'entry point':24} {'compile s':>9}  resources (all entry points)")
    worst = 0.0
    for name in EXAMPLES:
        found = candidate(name)
        if found is None:
            print(f"{name:20} {'(no template applies)':30}")
            continue
        for source in found.cuda_sources:
            entry = ENTRY_RE.search(source).group(1)
            program = f"#define HIERA_ENTRY\n#define HIERA_ENTRY_{entry}\n{source}"
            started = time.perf_counter()
            single = compile_cuda(program, arch=arch, use_cache=False)
            seconds = time.perf_counter() - started
            worst = max(worst, seconds)
            report = kernel_resources(source, arch=arch)
            registers = [k.registers for k in report.kernels]
            details = (f"{len(registers)} entry points, {min(registers)}-{max(registers)} regs, "
                       f"spills {sum(k.spill_stores for k in report.kernels)} B") if single.ok else single.error_text()
            print(f"{name:20} {found.name:30} {entry:24} {seconds:9.3f}  {details}")
    verdict = "OK" if worst <= COMPILE_TARGET_S else "OVER TARGET"
    print(f"slowest compile {worst:.3f} s: {verdict}")
    return worst <= COMPILE_TARGET_S


# ---- GPU -------------------------------------------------------------------------------------

def timer(function, args):
    """The timing of function(*args) by HIERA's own method (hiera_core.profile.timing, as `hiera optimize`
    and `hiera bench` time): its median_ms is the GPU time behind a head start, or the host time
    where larger."""
    from hiera_core.profile.timing import time_module

    return time_module(function, list(args), "cuda", profile=False)


def host_bound(timings: dict) -> str:
    """'compile (GPU 0.0461)': which of these timings (label -> Timing or None) were host-bound,
    with their GPU time; '-' when none."""
    return ", ".join(f"{label} (GPU {timing.gpu_median_ms:.4f})" for label, timing in timings.items()
                     if timing is not None and timing.bound == "host") or "-"


def kernel_ms(function, args, calls: int = 20) -> float:
    """Milliseconds of GPU kernels per call, from the profiler's CUPTI trace (no host overhead)."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    for _ in range(3):
        function(*args)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as trace:
        for _ in range(calls):
            function(*args)
        torch.cuda.synchronize()
    return sum(e.self_device_time_total for e in trace.key_averages()) / calls / 1e3


def bound_bench_start(doc: str):
    """A kernel-against-its-bound bench's start: its command line (`--repeats`, its docstring's first
    line the description), then the GPU, torch and the bandwidth the bounds assume printed; (the
    repeats, the GPU's peaks from hiera_core.spec.gpus)."""
    import argparse

    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats

    import torch

    peaks = gpus.lookup(torch.cuda.get_device_name())
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}: bound at {peaks.mem_bw / 1e12:.2f} TB/s; "
          f"median of {repeats} (min-max)")
    return repeats, peaks


def print_against_bound(label: str, function, args, bound_us: float, repeats: int, width: int = 22) -> None:
    """`function(*args)`'s GPU time (kernel_ms, 50 calls) `repeats` times: the median, the spread and
    the share of `bound_us` it reaches."""
    import statistics

    runs = sorted(kernel_ms(function, args, calls=50) * 1e3 for _ in range(repeats))
    median = statistics.median(runs)
    print(f"  {label:<{width}} {median:8.1f} us ({runs[0]:.1f}-{runs[-1]:.1f})  {100 * bound_us / median:5.1f}% of the bound")


def host_us(function, args, calls: int = 200) -> float:
    """Microseconds per call of back-to-back calls on a tiny input: the launch path's overhead."""
    import torch

    for _ in range(10):
        function(*args)
    torch.cuda.synchronize()
    started = time.perf_counter()
    for _ in range(calls):
        function(*args)
    torch.cuda.synchronize()
    return (time.perf_counter() - started) / calls * 1e6


def roofline_ms(model, inputs, output) -> float:
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    peaks = gpus.lookup(torch.cuda.get_device_name())
    tensors = list(inputs) + list(model.parameters()) + list(model.buffers())
    outputs = list(output) if isinstance(output, (tuple, list)) else [output]
    moved = sum(t.numel() * t.element_size() for t in tensors + outputs)
    with FlopCounterMode(display=False) as counter:
        model(*inputs)
    return 1e3 * max(moved / peaks.mem_bw, counter.get_total_flops() / peaks.fp32)


def slice_stencil(alpha: float):
    """The 7-point stencil written with slices (the formulation torch.compile does well on)."""
    import torch.nn.functional as F

    def step(x):
        p = F.pad(x, (1, 1, 1, 1, 1, 1))
        centre = p[..., 1:-1, 1:-1, 1:-1]
        faces = (p[..., :-2, 1:-1, 1:-1] + p[..., 2:, 1:-1, 1:-1] + p[..., 1:-1, :-2, 1:-1]
                 + p[..., 1:-1, 2:, 1:-1] + p[..., 1:-1, 1:-1, :-2] + p[..., 1:-1, 1:-1, 2:])
        return (1 - 6 * alpha) * centre + alpha * faces

    return step


def gpu_table(names: list[str], with_compile: bool) -> None:
    import torch

    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"\n{torch.cuda.get_device_name()}, torch {torch.__version__}, CUDA {torch.version.cuda}; "
          "fp32, TF32 off; ms by hiera_core.profile.timing (docs/timing.md); library = eager with cudnn.benchmark "
          "(cuDNN/cuBLAS algorithm search)")
    header = (f"{'example':20} {'eager':>8} {'library':>8} {'compile':>8} {'HIERA':>8} {'kernels':>8} {'bound':>8} "
              f"{'x eager':>8} {'x lib':>7} {'x comp':>7} {'roofline':>8} {'kern %':>7}  max err   host-bound figures")
    print(header)
    for name in names:
        found = candidate(name)
        if found is None:
            continue
        path, cls, init, inputs = load(name)
        reference, proposal = gpu_pair(path, cls, init, found.code)
        inputs = [t.cuda() for t in inputs]
        with torch.no_grad():
            expected, got = reference(*inputs), proposal(*inputs)
            error = max((g - e).abs().max().item() for g, e in zip(_flat(got), _flat(expected)))
            timings = {"eager": timer(reference, inputs)}
            has_library = any(k in found.reason for k in ("linear", "conv", "matmul")) or name == "stencil3d"
            torch.backends.cudnn.benchmark = True
            timings["library"] = timer(reference, inputs) if has_library else None
            torch.backends.cudnn.benchmark = False
            timings["compile"] = timer(torch.compile(reference), inputs) if with_compile else None
            timings["HIERA"] = timer(proposal, inputs)
            kernels = kernel_ms(proposal, inputs)
            bound = roofline_ms(reference, inputs, expected)
        eager, library, compiled, hiera = (timing.median_ms if timing else float("nan") for timing in timings.values())
        print(f"{Path(name).stem[:20]:20} {eager:8.4f} {library:8.4f} {compiled:8.4f} {hiera:8.4f} {kernels:8.4f} {bound:8.4f} "
              f"{eager / hiera:8.2f} {library / hiera:7.2f} {compiled / hiera:7.2f} {100 * bound / hiera:7.1f}% "
              f"{100 * bound / kernels:6.1f}%  {error:.2e}  {host_bound(timings)}")
        if name == "stencil3d" and with_compile:
            sliced = torch.compile(slice_stencil(init[0]))
            with torch.no_grad():
                slices = timer(sliced, inputs)
                check = (sliced(*inputs) - expected).abs().max().item()
            slices_ms = slices.median_ms
            print(f"{'  slices+compile':20} {'':8} {'':8} {slices_ms:8.4f} {hiera:8.4f} {'':8} {bound:8.4f} {'':8} "
                  f"{'':7} {slices_ms / hiera:7.2f}  {check:.2e}  {host_bound({'slices+compile': slices})} "
                  "(torch.compile of the slice formulation)")


def overhead_table() -> None:
    """Host time per call on tiny inputs, where launch overhead is all there is."""
    import torch

    print("\nhost overhead per call on tiny inputs (back-to-back calls, us)")
    for name, shape in (("softmax", (8, 64)), ("elementwise_chain", (8, 4096)), ("layernorm", (8, 4096))):
        found = candidate(name)
        path, cls, init, _ = load(name)
        namespace = proposal_namespace(path, found.code)
        reference = namespace[cls.__name__](*init).cuda()
        proposal = namespace["ModelNew"](*init).cuda()
        x = torch.randn(*shape, device="cuda")
        with torch.no_grad():
            print(f"  {name:20} eager {host_us(reference, [x]):7.1f}   HIERA {host_us(proposal, [x]):7.1f}")


def host_profile() -> None:
    """Where the proposal's host time goes: cProfile over calls on a tiny input."""
    import cProfile
    import pstats

    import torch

    for name, shape in (("layernorm", (8, 4096)), ("softmax", (8, 64)),
                        ("benchmarks/suite/level1/10_BatchNorm2d_Eval.py", (2, 64, 8, 8))):
        found = candidate(name)
        path, cls, init, _ = load(name)
        namespace = proposal_namespace(path, found.code)
        proposal = namespace["ModelNew"](*init).cuda()
        x = torch.randn(*shape, device="cuda")
        for _ in range(20):
            proposal(x)
        torch.cuda.synchronize()
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(300):
            proposal(x)
        torch.cuda.synchronize()
        profiler.disable()
        print(f"\nhost profile of {name} proposal, 300 calls:")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


def stencil_sweep(with_compile: bool) -> None:
    import torch
    import torch.nn.functional as F

    from hiera_core.cuda import proposal_convolutions
    from hiera_core.spaces.custom_cuda.stencil_template import stencil_launch_tile, stencil_source

    _, cls, init, inputs = load("stencil3d")
    model = cls(*init).cuda()
    x = inputs[0].cuda()
    expected = F.conv3d(x, model.weight, padding=1)
    seven = [(0, 0, 0), (-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)]
    dense = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)]
    bound = x.numel() * 8 / gpus.lookup(torch.cuda.get_device_name()).mem_bw * 1e3
    print(f"\nstencil tiles on {tuple(x.shape)}: bound {bound * 1e3:.1f} us; "
          f"checked first against F.conv3d, 7- and 27-point, on {STENCIL_CHECKS}")

    def stencil(tile: dict, taps, weight):
        source = stencil_source("hiera_sweep", taps, tile).source
        launch = stencil_launch_tile(tile)
        return lambda t: proposal_convolutions._hiera_stencil(source, "hiera_sweep", t, weight, None, launch)

    def worst_error(tile: dict) -> float:
        worst = 0.0
        for taps in (seven, dense):
            weight = torch.zeros(1, 1, 3, 3, 3, device="cuda")
            for a, b, c in taps:
                weight[0, 0, a + 1, b + 1, c + 1] = torch.randn(()).item()
            run = stencil(tile, taps, weight)
            for shape in STENCIL_CHECKS:
                if shape == "misaligned":
                    grid = torch.randn(1 + 24 * 28 * 36, device="cuda")[1:].view(1, 1, 24, 28, 36)
                else:
                    grid = torch.randn(shape, device="cuda")
                worst = max(worst, (run(grid) - F.conv3d(grid, weight, padding=1)).abs().max().item())
        return worst

    for tile in STENCIL_TILES:
        options = " ".join(f"{k} {v}" for k, v in tile.items())
        (resources,) = kernel_resources(stencil_source("hiera_sweep", seven, tile).source).kernels
        checked = worst_error(tile)
        run = stencil(tile, seven, model.weight)
        error = max(checked, (run(x) - expected).abs().max().item())
        if error > 1e-4:
            print(f"  {options:58} WRONG: max error {error:.1e}, not timed")
            continue
        timing = timer(run, [x])
        ms = timing.median_ms
        note = host_bound({"host-bound": timing}) if timing.bound == "host" else ""
        print(f"  {options:58} ({resources.registers} regs, spills {resources.spill_stores} B): {ms * 1e3:6.1f} us "
              f"{100 * bound / ms:5.1f}% of roofline  kernel {kernel_ms(run, [x]) * 1e3:5.1f} us  err {error:.1e}  {note}")
    if with_compile:
        compiled = torch.compile(slice_stencil(init[0]))
        timing = timer(compiled, [x])
        print(f"  {'slices + torch.compile':58} {'':29} {timing.median_ms * 1e3:6.1f} us (GPU {timing.gpu_median_ms * 1e3:.1f}) "
              f"{100 * bound / timing.median_ms:5.1f}% of roofline  kernel {kernel_ms(compiled, [x]) * 1e3:5.1f} us")


ROW_SWEEP = ["benchmarks/suite/level1/8_LogSoftmax.py", "benchmarks/suite/level2/9_Residual_Add_LayerNorm.py",
             "softmax", "layernorm"]


def rows_sweep() -> None:
    """Row kernels as shipped, then at each block size the runtime may pick (32-256 threads a row,
    the shared-memory cache, rows in registers off; 32 is a warp a row, eight to a block, and 64
    where eight rows' cache would not fit), against eager: the proposal's own `_hiera_row_threads`
    and `_hiera_row_registers` replaced, launch plans dropped between sizes."""
    import torch

    print("\nrow kernels by threads per row block: kernel us (profiler) / HIERA timing us; eager timing us")
    for name in ROW_SWEEP:
        found = candidate(name)
        if found is None or "_hiera_rows(" not in found.code:
            print(f"  {Path(name).stem}: no row kernel")
            continue
        path, cls, init, inputs = load(name)
        namespace = proposal_namespace(path, found.code)
        torch.manual_seed(0)
        reference = namespace[cls.__name__](*init).cuda().eval()
        proposal = namespace["ModelNew"](*init).cuda().eval()
        proposal.load_state_dict(reference.state_dict())
        inputs = [t.cuda() for t in inputs]
        cells = []
        with torch.no_grad():
            expected = reference(*inputs)
            eager = timer(reference, inputs).median_ms
            for threads in ("shipped", 32, 64, 128, 256):
                if threads != "shipped":  # the cached block form at this size, rows in registers off
                    namespace["_hiera_row_threads"] = lambda cols, vec, threads=threads: threads
                    namespace["_hiera_row_registers"] = lambda cols, cached: (0, 0)
                namespace["_HIERA_PLANS"].clear()
                error = max((g - e).abs().max().item() for g, e in zip(_flat(proposal(*inputs)), _flat(expected)))
                if error > 1e-3:
                    cells.append(f"{threads}: WRONG {error:.1e}")
                    continue
                cells.append(f"{threads}: {kernel_ms(proposal, inputs) * 1e3:5.1f}/{timer(proposal, inputs).median_ms * 1e3:5.1f}")
        shape = tuple(inputs[0].shape)
        print(f"  {Path(name).stem[:28]:28} {str(shape):18} eager {eager * 1e3:5.1f}  " + "  ".join(cells))


def _flat(value):
    return list(value) if isinstance(value, (tuple, list)) else [value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--gpu", action="store_true", help="time the examples on the local GPU")
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile baselines")
    parser.add_argument("--sweep-stencil", action="store_true", help="time stencil tile shapes")
    parser.add_argument("--host-profile", action="store_true", help="cProfile the proposals' launch path")
    parser.add_argument("--sweep-rows", action="store_true", help="time row kernels at each threads-per-row size")
    parser.add_argument("--only", nargs="*", default=list(EXAMPLES),
                        help="examples to time, by name, or any task file (e.g. benchmarks/suite/level1/4_Depthwise_Conv2d.py)")
    args = parser.parse_args()
    compile_table(args.arch)
    if args.host_profile:
        host_profile()
    if args.sweep_stencil:
        stencil_sweep(with_compile=not args.no_compile)
    if args.sweep_rows:
        rows_sweep()
    if args.gpu:
        overhead_table()
        gpu_table(args.only, with_compile=not args.no_compile)


if __name__ == "__main__":
    main()

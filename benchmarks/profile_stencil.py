"""Where the 3D stencil's time goes on the GPU: HIERA's stencil kernel (as `hiera optimize` ships it)
beside torch.compile's kernel for the slice formulation and a device-to-device copy of the same
bytes (the floor for any kernel that reads the grid once and writes it once).

    python3 benchmarks/profile_stencil.py          # kernel time, effective bandwidth, the method's figures
    ncu --clock-control none --profile-from-start off --section SpeedOfLight \\
        --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats \\
        python3 benchmarks/profile_stencil.py --ncu   # one launch of each, for Nsight Compute

Session 6 (2026-11-29, benchmarks/results/h200-2026-11-29-s6) ran it on the previous tile: both
kernels at about 2.7 TB/s under Nsight Compute against a copy's 4.1, HIERA's warps stalled on L1TEX
loads, which led to queuing the halo's loads ahead. `bash benchmarks/gpu_session.sh stencil` runs both.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_nvrtc import candidate, gpu_pair, host_bound, kernel_ms, load, slice_stencil, timer


def contenders():
    """name -> function of the grid: HIERA's proposal, the compiled slice formulation, a copy."""
    import torch

    path, cls, init, inputs = load("stencil3d")
    reference, proposal = gpu_pair(path, cls, init, candidate("stencil3d").code)
    x = inputs[0].cuda()
    out = torch.empty_like(x)
    functions = {"HIERA stencil": proposal, "slices+compile": torch.compile(slice_stencil(init[0])),
                 "copy (same bytes)": lambda grid: out.copy_(grid)}
    expected = reference(x)
    for name in ("HIERA stencil", "slices+compile"):
        error = (functions[name](x) - expected).abs().max().item()
        if error > 1e-4:
            raise SystemExit(f"{name} differs from F.conv3d by {error:.2e}: not timing a wrong kernel")
    return functions, x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ncu", action="store_true",
                        help="after warm-up, one call of each between cudaProfilerStart and Stop (run under ncu)")
    args = parser.parse_args()

    import torch

    torch.backends.cudnn.allow_tf32 = False
    with torch.no_grad():
        functions, x = contenders()
        if args.ncu:
            for function in functions.values():  # compiled, autotuned and cached before profiling starts
                function(x)
            torch.cuda.synchronize()
            torch.cuda.profiler.start()
            for function in functions.values():
                function(x)
                torch.cuda.synchronize()
            torch.cuda.profiler.stop()
            return
        moved = 2 * x.numel() * x.element_size()
        print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}; grid {tuple(x.shape)} fp32, "
              f"{moved / 1e6:.0f} MB moved per call (read once, written once)")
        print(f"{'':20} {'kernel ms':>10} {'TB/s':>6} {'figure ms':>10} {'GPU ms':>8}  host-bound")
        for name, function in functions.items():
            kernel = kernel_ms(function, [x])
            timing = timer(function, [x])
            print(f"{name:20} {kernel:10.4f} {moved / kernel / 1e9:6.2f} {timing.median_ms:10.4f} "
                  f"{timing.gpu_median_ms:8.4f}  {host_bound({name: timing})}")


if __name__ == "__main__":
    main()

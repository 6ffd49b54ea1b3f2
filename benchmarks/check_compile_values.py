"""Does torch.compile in a given mode compute a task's values, call after call, in this process?

    python3 benchmarks/check_compile_values.py TASK.py [--modes max-autotune-no-cudagraphs,default]

For each mode: the task's reference compiled (dynamo reset first), then called three times on each
of the bench's check inputs (seeds 100-104, the third scaled by 100, seed 101 twice more), each
output compared with eager's: the largest error and whether KernelBench's allclose (atol = rtol =
1e-2) holds; then the per-position largest error along dim -2 of seed 101's output (where an error
that grows along a scan starts), and the compiled forward captured in a CUDA graph and replayed on
fresh values. Needs a GPU.

Session 33 (H100, torch 2.11): on level2/12 (Performer's causal linear attention) max-autotune's
kernels were off by 0.07 to 121 on every call, by a different amount on each call on the same
inputs, from position 130 of 256 on; the default mode matched eager to 3e-5. The loop had verified
a max-autotune candidate in session 32 whose fresh-process bench check then failed. `hiera bench`
now checks every mode against eager before timing it (bench/worker_ops.py)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CALLS = ((100, 1), (101, 1), (102, 100), (103, 1), (104, 1), (101, 1), (101, 1))  # (seed, scale)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task")
    parser.add_argument("--modes", default="max-autotune-no-cudagraphs,default")
    args = parser.parse_args()

    import torch

    from hiera_core.task.load import load_task, outputs_as_list

    task = load_task(args.task)
    reference = task.build_model("cuda", seed=0)

    def first(outputs):
        return outputs_as_list(outputs)[0]

    def error(a, b) -> float:
        return float((a.double() - b.double()).abs().max())

    for mode in args.modes.split(","):
        torch._dynamo.reset()
        compiled = torch.compile(task.build_model("cuda", seed=0), mode=None if mode == "default" else mode)
        started = time.time()
        with torch.no_grad():
            compiled(*task.make_inputs("cuda", seed=0))
            torch.cuda.synchronize()
            print(f"{mode}: compiled in {time.time() - started:.1f} s", flush=True)
            for seed, scale in CALLS:
                inputs = [x * scale if x.is_floating_point() else x for x in task.make_inputs("cuda", seed=seed)]
                expected = first(reference(*inputs))
                outs = [first(compiled(*inputs)).clone() for _ in range(3)]
                print(f"  seed {seed} x{scale}: largest error against eager {[round(error(o, expected), 5) for o in outs]}, "
                      f"allclose {[bool(torch.allclose(o, expected, atol=1e-2, rtol=1e-2)) for o in outs]}", flush=True)
            inputs = task.make_inputs("cuda", seed=101)
            difference = (first(compiled(*inputs)) - first(reference(*inputs))).abs()
            along = difference.transpose(-2, 0).reshape(difference.shape[-2], -1).amax(dim=1)
            print(f"  largest error by position along dim -2: first 6 {[round(float(v), 5) for v in along[:6]]}, "
                  f"largest at {int(along.argmax())}", flush=True)
            static = [x.clone() for x in task.make_inputs("cuda", seed=0)]
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                for _ in range(3):
                    compiled(*static)
            torch.cuda.current_stream().wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                out = first(compiled(*static))
            for seed in (100, 101, 102):
                inputs = task.make_inputs("cuda", seed=seed)
                for buffer, value in zip(static, inputs):
                    buffer.copy_(value)
                graph.replay()
                print(f"  graphed, seed {seed}: largest error against eager {error(out, first(reference(*inputs))):.3g}",
                      flush=True)


if __name__ == "__main__":
    main()

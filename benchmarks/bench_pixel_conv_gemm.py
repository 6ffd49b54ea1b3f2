"""A convolution over a one-pixel map (a squeeze-excitation's fc1/fc2 after its global pool) as
cuDNN's convolution or as a cuBLAS GEMM (F.linear of the flattened map), with and without its bias:
GPU microseconds per call, each form captured 50 times in a CUDA graph and replayed (median of 10
replays), at squeeze-excitation shapes (batch, in, out):

    python3 benchmarks/bench_pixel_conv_gemm.py

H100 (session 34, torch 2.11, fp32 defaults: cuDNN may use TF32, cuBLAS does not):

    (32, 672, 168)  conv2d+bias 9.72  conv2d 8.18  linear+bias 9.49  linear 7.19
    (32, 168, 672)  conv2d+bias 5.91  conv2d 4.11  linear+bias 5.10  linear 4.99
    (8, 960, 240)   conv2d+bias 12.24 conv2d 10.65 linear+bias 6.32  linear 30.91
    (256, 64, 16)   conv2d+bias 5.04  conv2d 3.33  linear+bias 13.34 linear 6.64

No form wins at every shape, and the GEMM without its bias (what the custom-CUDA candidate calls when
a kernel adds the bias) took 31 us at one. Lowering these convolutions to F.linear (commit a84702c)
made MobileNetV3's squeeze-excitation candidate slower (0.0591 -> 0.0686 ms of GPU work), so it was
reverted (1dfd49f): the candidate keeps cuDNN's convolution.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

SHAPES = ((32, 672, 168), (32, 168, 672), (8, 960, 240), (256, 64, 16))
CALLS = 50


def replay_us(call) -> float:
    for _ in range(20):
        call()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(CALLS):
            call()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(10):
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / CALLS * 1000)
    return sorted(times)[len(times) // 2]


def forms(x, w, b) -> dict:
    """The four forms of one convolution over a one-pixel map."""
    return {"conv2d+bias": lambda: F.conv2d(x, w, b), "conv2d": lambda: F.conv2d(x, w),
            "linear+bias": lambda: F.linear(x.flatten(1), w.flatten(1), b),
            "linear": lambda: F.linear(x.flatten(1), w.flatten(1))}


def main() -> None:
    torch.manual_seed(0)
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}: GPU us per call")
    for batch, inputs, outputs in SHAPES:
        x = torch.randn(batch, inputs, 1, 1, device="cuda")
        w = torch.randn(outputs, inputs, 1, 1, device="cuda")
        b = torch.randn(outputs, device="cuda")
        timed = {name: replay_us(call) for name, call in forms(x, w, b).items()}
        print(f"  ({batch}, {inputs}, {outputs})", "  ".join(f"{name} {us:.2f}" for name, us in timed.items()))


if __name__ == "__main__":
    main()

"""Rows along another dim than the last, on a GPU: a layer norm over the channels of an NCHW map,
four ways, us per call (queue / wall / GPU, timed as `bench_row_split.py` does).

    PYTHONPATH=. python benchmarks/bench_column_rows.py [TASK.py ...]

eager, torch.compile (default mode), the loop's custom-CUDA row candidate as it generates it
(`fused_column_rows`), and a hand-written tile kernel for the same layer norm: a block a tile of
32 consecutive positions, its 8 warps over the channels, the tile in shared memory, the per-channel
weight and bias read at the channel. The hand-written kernel is the target the generated one
should reach (session 38 on an H100: 14.0 us against the generated tile's 47.5 on (16, 96, 56, 56)).
Tasks are the proxy's channels-first layer norm (NCHW out) and its permuted channels-last one
(NHWC out) by default; each must hold `weight`, `bias` and `eps` over dim 1 of its 4D input.
Needs cupy (for the hand-written kernel).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

TASKS = ["benchmarks/proxy/level1/5_ConvNeXt_LayerNorm_ChannelsFirst.py",
         "benchmarks/proxy/level1/6_ConvNeXt_Permute_LayerNorm_ChannelsLast.py"]

TILE = r'''
extern "C" __global__ void __launch_bounds__(256) ln_tile(const float* __restrict__ x, const float* __restrict__ w,
    const float* __restrict__ b, float* __restrict__ out, int C, int HW, float eps, int nhwc_out) {
  extern __shared__ float tile[];
  __shared__ float red[8][33];
  __shared__ float stats[2][32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int tiles = (HW + 31) / 32;
  const int n = blockIdx.x / tiles, s0 = (blockIdx.x - n * tiles) * 32;
  const int s = s0 + lane;
  const bool ok = s < HW;
  const float* xp = x + (size_t)n * C * HW + s;
  float acc = 0.f;
  #pragma unroll 4
  for (int c = warp; c < C; c += 8) { float v = ok ? xp[(size_t)c * HW] : 0.f; tile[c * 33 + lane] = v; acc += v; }
  red[warp][lane] = acc;
  __syncthreads();
  float mean = 0.f;
  for (int k = 0; k < 8; ++k) mean += red[k][lane];
  mean /= C;
  __syncthreads();
  float acc2 = 0.f;
  for (int c = warp; c < C; c += 8) { float d = tile[c * 33 + lane] - mean; acc2 += d * d; }
  red[warp][lane] = acc2;
  __syncthreads();
  float var = 0.f;
  for (int k = 0; k < 8; ++k) var += red[k][lane];
  const float rstd = rsqrtf(var / C + eps);
  if (!nhwc_out) {
    float* op = out + (size_t)n * C * HW + s;
    if (ok) for (int c = warp; c < C; c += 8) op[(size_t)c * HW] = (tile[c * 33 + lane] - mean) * rstd * w[c] + b[c];
    return;
  }
  if (warp == 0) { stats[0][lane] = mean; stats[1][lane] = rstd; }
  __syncthreads();
  const int count = min(32, HW - s0);
  for (int f = threadIdx.x; f < count * C; f += 256) {
    const int sl = f / C, c = f - sl * C;
    out[((size_t)n * HW + s0 + sl) * C + c] = (tile[c * 33 + sl] - stats[0][sl]) * stats[1][sl] * w[c] + b[c];
  }
}
'''


def tile_layer_norm(reference, channels_last_out: bool):
    """The hand-written tile kernel as a function of x (N, C, H, W), the reference's affine."""
    import cupy
    import torch

    kernel = cupy.RawKernel(TILE, "ln_tile")

    def run(x):
        n, c, h, w = x.shape
        out = torch.empty((n, h, w, c) if channels_last_out else (n, c, h, w), device=x.device)
        tiles = (h * w + 31) // 32
        kernel((n * tiles,), (256,), (cupy.uint64(x.data_ptr()), cupy.uint64(reference.weight.data_ptr()),
                                      cupy.uint64(reference.bias.data_ptr()), cupy.uint64(out.data_ptr()),
                                      cupy.int32(c), cupy.int32(h * w), cupy.float32(reference.eps),
                                      cupy.int32(int(channels_last_out))),
               shared_mem=c * 33 * 4)
        return out
    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="*", default=TASKS)
    args = parser.parse_args()

    import torch

    sys.path.insert(0, str(Path(__file__).parent))
    from bench_row_split import per_call_us, row_candidates

    if not torch.cuda.is_available():
        print("bench_column_rows needs a CUDA GPU", file=sys.stderr)
        return 2
    for path, _, reference, proposal, inputs in row_candidates(args.tasks):
        with torch.no_grad():
            expected = reference(*inputs)
            forms = [("eager", reference), ("torch.compile", torch.compile(reference)), ("generated", proposal),
                     ("hand-written", tile_layer_norm(reference, expected.shape != inputs[0].shape))]
            print(f"{Path(path).name} {tuple(inputs[0].shape)}")
            for label, module in forms:
                error = (module(*inputs) - expected).abs().max().item()
                queued, wall, gpu = per_call_us(module, inputs)
                print(f"  {label:<14} {queued:7.1f} / {wall:7.1f} / {gpu:7.1f}   max error {error:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

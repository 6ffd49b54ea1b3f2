# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 11_AvgPool2d.py
# reference-class: Model
# reference-sha256: 5e697cd67007a5ab29c70c4f41591c8da55344c20678a63743dcc7cba87b8593
# body-sha256: e7fe01e35b804a2a6eff56f734ff1703d98b40e2fcb8e8f2d64002c797546cfb
# space: custom_cuda
# strategy: pooling
# verification: passed: 12 checks, 5 input sets, max error 0
# speedup: 1.34x over eager (0.0495 ms -> 0.03686 ms); 1.35x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T18:54:54+0000
# run: 20261129-185342-optimize-754-3d2987
# contract: input x: float32[16, 64, 112, 112] contiguous
# contract: output out: float32[16, 64, 56, 56] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""3x3 average pooling, stride 2, padding 1, of a (16, 64, 112, 112) float32 tensor.

49 MiB in, 12 MiB out, nine additions per output: a memory-bound stencil; overlapping windows
mean each input is read by up to four outputs, which a tiled kernel serves from shared memory.
"""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 64
SIZE = 112


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return []


# ---- HIERA candidate: custom_cuda.pooling (custom_cuda) ----------------------
# ---- HIERA custom_cuda: Max/avg pooling kernel, one thread per output ----
# pool kernel for pool
# Kernels compile with NVRTC (cuda.core) on first use and launch on torch's current stream.
import ctypes
import hashlib
import math
import os
import torch
from cuda.core import Device, LaunchConfig, ObjectCode, Program, ProgramOptions, Stream, launch
_HIERA_KERNELS = {}
_HIERA_STREAMS = {}
_HIERA_CONFIGS = {}


def _hiera_kernel(source, name, device):
    """Kernel `name` of CUDA C++ `source`, compiled for GPU `device` on first use.

    Only that entry point is compiled (`HIERA_ENTRY_<name>` selects it), which keeps NVRTC time
    to one template instantiation. The per-call lookup hashes nothing new: str caches its hash.
    """
    kernel = _HIERA_KERNELS.get((source, device, name))
    if kernel is not None:
        return kernel
    gpu = Device(device)
    gpu.set_current()
    arch = "sm_" + gpu.arch
    program = f"#define HIERA_ENTRY\n#define HIERA_ENTRY_{name}\n{source}"
    digest = hashlib.sha256(program.encode()).hexdigest()
    folder = os.path.join(os.environ.get("HIERA_CACHE_DIR") or os.path.expanduser("~/.cache/hiera"), "cubin")
    path = os.path.join(folder, f"{digest[:40]}-{arch}.cubin")
    if os.path.exists(path):
        with open(path, "rb") as stream:
            module = ObjectCode.from_cubin(stream.read())
    else:
        module = Program(program, "c++", ProgramOptions(arch=arch, std="c++17")).compile("cubin")
        os.makedirs(folder, exist_ok=True)
        if os.access(folder, os.W_OK):
            temp = f"{path}.{os.getpid()}.tmp"
            with open(temp, "wb") as stream:
                stream.write(module.code)
            os.replace(temp, path)
    kernel = _HIERA_KERNELS[(source, device, name)] = module.get_kernel(name)
    return kernel


def _hiera_launch(kernel, device, grid, block, shared_bytes, *args):
    """Launch on torch's current stream of `device`. Tensors pass as pointers; a Python int is
    passed by cuda.core as an intptr_t, which is the layout of a `long long` parameter; floats
    are boxed as float32."""
    values = [a.data_ptr() if isinstance(a, torch.Tensor) else ctypes.c_float(a) if isinstance(a, float) else a
              for a in args]
    handle = torch._C._cuda_getCurrentRawStream(device)  # what torch.cuda.current_stream() wraps, minus the wrapper
    stream = _HIERA_STREAMS.get(handle)
    if stream is None:
        stream = _HIERA_STREAMS[handle] = Stream.from_handle(handle)
    config = _HIERA_CONFIGS.get((grid, block, shared_bytes))
    if config is None:
        config = _HIERA_CONFIGS[(grid, block, shared_bytes)] = LaunchConfig(grid=grid, block=block,
                                                                             shmem_size=shared_bytes)
    launch(stream, config, kernel, *values)


def _hiera_check(*tensors):
    for t in tensors:
        if not (isinstance(t, torch.Tensor) and t.is_cuda and t.dtype == torch.float32):
            raise TypeError("this proposal's CUDA kernels take float32 CUDA tensors; got "
                            + (f"{t.dtype} on {t.device}" if isinstance(t, torch.Tensor) else type(t).__name__))


def _hiera_pool(source, name, x, rank, kernel, stride, padding, dilation, ceil_mode):
    """Run a generated pooling kernel over the last `rank` dims of `x`."""
    _hiera_check(x)
    x = x.contiguous()
    sizes = []
    for size, k, s, p, d in zip(x.shape[-rank:], kernel, stride, padding, dilation):
        span = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
        length = span // s + 1
        if ceil_mode and (length - 1) * s >= size + p:
            length -= 1
        sizes.append(length)
    out = torch.empty(x.shape[:-rank] + tuple(sizes), device=x.device, dtype=torch.float32)
    if out.numel() == 0:
        return out
    spatial = (1,) * (3 - rank) + tuple(x.shape[-rank:])
    result = (1,) * (3 - rank) + tuple(sizes)
    if math.prod(spatial) >= 2**31:
        raise ValueError("the pooling kernel indexes one plane with 32-bit offsets: at most 2^31 - 1 points")
    planes = math.prod(x.shape[:-rank])
    grid = (min(-(-(result[1] * result[2]) // 256), 64), min(planes * result[0], 65535))
    device = x.device.index
    _hiera_launch(_hiera_kernel(source, name, device), device, grid, 256, 0, x, out, planes, *spatial, *result)
    return out


_HIERA_SRC_0 = r"""
// HIERA avg_pool2d hiera_pool0: kernel (3, 3), stride (2, 2), padding (1, 1)
constexpr int KD = 1, KH = 3, KW = 3, SD = 1, SH = 2, SW = 2;
constexpr int PD = 0, PH = 1, PW = 1, DD = 1, DH = 1, DW = 1;
constexpr bool IS_MAX = false;
constexpr bool COUNT_PAD = true;
constexpr int DIVISOR = 0;
extern "C" __global__ void __launch_bounds__(256) hiera_pool0(const float* __restrict__ x, float* __restrict__ out,
        long long planes, long long D_, long long H_, long long W_, long long OD_, long long OH_, long long OW_) {
    const int D = (int)D_, H = (int)H_, W = (int)W_, OD = (int)OD_, OH = (int)OH_, OW = (int)OW_;
    // blockIdx.y walks (plane, output depth); x threads walk one output plane with 32-bit indices.
    const unsigned area = (unsigned)OH * OW;
    for (long long pz = blockIdx.y; pz < planes * OD; pz += gridDim.y) {
        const int od = (int)(pz % OD);
        const float* src = x + pz / OD * D * H * W;
        float* dst = out + pz * area;
        for (unsigned s = blockIdx.x * blockDim.x + threadIdx.x; s < area; s += gridDim.x * blockDim.x) {
            const int ow = (int)(s % OW), oh = (int)(s / OW);
            const int d0 = od * SD - PD, h0 = oh * SH - PH, w0 = ow * SW - PW;
            float acc = IS_MAX ? -__int_as_float(0x7f800000) : 0.0f;
            #pragma unroll
            for (int a = 0; a < KD; ++a) {
                const int d = d0 + a * DD;
                if (d < 0 || d >= D) continue;
                #pragma unroll
                for (int b = 0; b < KH; ++b) {
                    const int h = h0 + b * DH;
                    if (h < 0 || h >= H) continue;
                    #pragma unroll
                    for (int c = 0; c < KW; ++c) {
                        const int w = w0 + c * DW;
                        if (w < 0 || w >= W) continue;
                        const float v = src[(d * H + h) * W + w];
                        if (IS_MAX) { if (v > acc || v != v) acc = v; } else acc += v;
                    }
                }
            }
            if (!IS_MAX) {
                const int d1 = min(d0 + KD, D + PD), h1 = min(h0 + KH, H + PH), w1 = min(w0 + KW, W + PW);
                const int padded = (d1 - d0) * (h1 - h0) * (w1 - w0);
                const int inside = (min(d1, D) - max(d0, 0)) * (min(h1, H) - max(h0, 0)) * (min(w1, W) - max(w0, 0));
                acc /= (float)(DIVISOR ? DIVISOR : COUNT_PAD ? padded : inside);
            }
            dst[s] = acc;
        }
    }
}
"""


class ModelNew(Model):
    def forward(self, x):
        # pool kernel: pool
        v_pool = _hiera_pool(_HIERA_SRC_0, 'hiera_pool0', x, 2, (3, 3), (2, 2), (1, 1), (1, 1), False)
        return v_pool

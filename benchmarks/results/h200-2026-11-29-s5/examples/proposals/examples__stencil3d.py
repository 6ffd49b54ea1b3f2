# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: stencil3d.py
# reference-class: Model
# reference-sha256: 59012c92d0e120e9612b7b8b393074a674de70802fa55a0fb3176f43a3214cc4
# body-sha256: 26da65fd012785e36dde1e6dbca85ece991e0dbf475bb2b100a76edbd4de06af
# space: custom_cuda
# strategy: stencil
# verification: passed: 12 checks, 5 input sets, max error 0
# speedup: 61.27x over eager (3.063 ms -> 0.04998 ms); 60.66x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T18:36:28+0000
# run: 20261129-183450-optimize-660-5a542f
# contract: input x: float32[1, 1, 256, 256, 256] contiguous
# contract: output out: float32[1, 1, 256, 256, 256] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""3D 7-point stencil (one explicit diffusion step) on a (1, 1, 256, 256, 256) float32 grid,
written as F.conv3d with a fixed 3x3x3 kernel held in a buffer: centre 1 - 6 * alpha, the
six face neighbours alpha, edges and corners 0, zero padding at the boundary. 64 MiB in and
64 MiB out with 7 useful multiply-adds per point (27 if the zeros are computed): the workload
is memory-bound, and a dedicated stencil kernel with shared-memory tiling (reading each point
once) beats a generic single-channel convolution.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

DEPTH = 256
HEIGHT = 256
WIDTH = 256
ALPHA = 0.1


class Model(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        weight = torch.zeros(1, 1, 3, 3, 3)
        weight[0, 0, 1, 1, 1] = 1.0 - 6.0 * alpha
        weight[0, 0, 0, 1, 1] = alpha
        weight[0, 0, 2, 1, 1] = alpha
        weight[0, 0, 1, 0, 1] = alpha
        weight[0, 0, 1, 2, 1] = alpha
        weight[0, 0, 1, 1, 0] = alpha
        weight[0, 0, 1, 1, 2] = alpha
        self.register_buffer("weight", weight)

    def forward(self, x):
        return F.conv3d(x, self.weight, padding=1)


def get_inputs():
    return [torch.randn(1, 1, DEPTH, HEIGHT, WIDTH)]


def get_init_inputs():
    return [ALPHA]


# ---- HIERA candidate: custom_cuda.stencil (custom_cuda) ----------------------
# ---- HIERA custom_cuda: Shared-memory tiled stencil, register queue along the slowest axis ----
# stencil kernel for conv3d
# contract: stencil weight self.weight keeps its zero pattern; taps [(-1, 0, 0), (0, -1, 0), (0, 0, -1), (0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)]
# Kernels compile with NVRTC (cuda.core) on first use and launch on torch's current stream.
import ctypes
import hashlib
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


def _hiera_stencil(source, name, x, weight, bias, rank, tile):
    """Run a generated radius-1 stencil over (N, C, [D,] H, W); tile = (BX, BY, rows per tile, planes per block)."""
    _hiera_check(x, weight, *([] if bias is None else [bias]))
    x = x.contiguous()
    out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    channels = x.shape[1]
    depth, height, width = x.shape[2:] if rank == 3 else (x.shape[2], 1, x.shape[3])
    if depth * height * width >= 2**31:
        raise ValueError("the stencil kernel indexes one volume with 32-bit offsets: at most 2^31 - 1 points")
    bx, by, rows, planes = tile
    chunks = -(-depth // planes)
    volumes = x.shape[0] * channels
    grid = (-(-width // bx), -(-height // rows), min(volumes * chunks, 65535))
    device = x.device.index
    _hiera_launch(_hiera_kernel(source, name, device), device, grid, (bx, by), 0, x, weight.contiguous(),
                  0 if bias is None else bias.contiguous(), out, volumes, channels, depth, height, width, chunks)
    return out


_HIERA_SRC_0 = r"""
// HIERA 3D stencil hiera_stencil0: 7 taps [(-1, 0, 0), (0, -1, 0), (0, 0, -1), (0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)]
constexpr int BX = 64, BY = 4, RY = 4, ZC = 32;
constexpr int TY = BY * RY, SX = BX + 2, SY = TY + 2, SLOTS = 2, HALO = 2 * SX + 2 * TY;
// Offsets inside one volume are 32-bit (the host checks D*H*W < 2^31); volumes are addressed in 64 bits.
extern "C" __global__ void __launch_bounds__(BX * BY) hiera_stencil0(
        const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias, float* __restrict__ out,
        long long volumes, long long channels, long long D_, long long H_, long long W_, long long chunks) {
    const int D = (int)D_, H = (int)H_, W = (int)W_;
    __shared__ float tile[SLOTS][SY][SX];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const int x0 = blockIdx.x * BX, y0 = blockIdx.y * TY, gx = x0 + tx, plane = H * W;
    // This thread's columns (RY rows of the tile) and halo points: offsets and validity, fixed over z.
    int column[RY];
    bool column_in[RY];
    #pragma unroll
    for (int r = 0; r < RY; ++r) {
        const int y = y0 + ty + r * BY;
        column[r] = y * W + gx;
        column_in[r] = y < H && gx < W;
    }
    constexpr int HALO_PER_THREAD = (HALO + BX * BY - 1) / (BX * BY);
    int halo_at[HALO_PER_THREAD], halo_offset[HALO_PER_THREAD];
    bool halo_in[HALO_PER_THREAD];
    #pragma unroll
    for (int h = 0; h < HALO_PER_THREAD; ++h) {
        const int k = tid + h * BX * BY;
        int hy = 0, hx = 0;
        if (k < SX) { hx = k; }
        else if (k < 2 * SX) { hy = SY - 1; hx = k - SX; }
        else { hy = 1 + (k - 2 * SX) / 2; hx = ((k - 2 * SX) & 1) ? SX - 1 : 0; }
        const int y = y0 + hy - 1, xx = x0 + hx - 1;
        halo_at[h] = k < HALO ? hy * SX + hx : -1;
        halo_in[h] = k < HALO && y >= 0 && y < H && xx >= 0 && xx < W;
        halo_offset[h] = halo_in[h] ? y * W + xx : 0;
    }
    for (long long job = blockIdx.z; job < volumes * chunks; job += gridDim.z) {
        const long long volume = job / chunks;
        const int z0 = (int)(job % chunks) * ZC, z1 = min(z0 + ZC, D);
        const int last = min(z1, D - 1);  // the chunk reads planes z0-1 .. z1 and no further
        const float* src = x + volume * D * plane;
        float* dst = out + volume * D * plane;
        const float* wc = w + volume % channels * 27;
        const float b = bias ? bias[volume % channels] : 0.0f;
        const float k0 = wc[4];
        const float k1 = wc[10];
        const float k2 = wc[12];
        const float k3 = wc[13];
        const float k4 = wc[14];
        const float k5 = wc[16];
        const float k6 = wc[22];
        auto column_at = [&](int z, int r) {
            return (column_in[r] && z >= 0 && z <= last) ? src[z * plane + column[r]] : 0.0f;
        };
        // Plane z into tile slot s: the interior from the caller's registers, the halo from memory.
        auto fill = [&](int s, int z, const float* interior) {
            float* t = &tile[s][0][0];
            #pragma unroll
            for (int r = 0; r < RY; ++r) t[(ty + r * BY + 1) * SX + tx + 1] = interior[r];
            const bool z_in = z >= 0 && z <= last;
            #pragma unroll
            for (int h = 0; h < HALO_PER_THREAD; ++h)
                if (halo_at[h] >= 0) t[halo_at[h]] = (z_in && halo_in[h]) ? src[z * plane + halo_offset[h]] : 0.0f;
        };
        // Register queue along z; loads run two planes ahead of the plane being computed.
        float below[RY], cur[RY], above[RY], ahead[RY], far[RY];
        #pragma unroll
        for (int r = 0; r < RY; ++r) {
            below[r] = column_at(z0 - 1, r);
            cur[r] = column_at(z0, r);
            above[r] = column_at(z0 + 1, r);
            ahead[r] = column_at(z0 + 2, r);
        }
        fill(0, z0, cur);
        __syncthreads();
        for (int z = z0; z < z1; ++z) {
            #pragma unroll
            for (int r = 0; r < RY; ++r) far[r] = column_at(z + 3, r);  // in flight for two planes
            if (z + 1 < z1) fill((z - z0 + 1) & 1, z + 1, above);
            const int sc = (z - z0) & 1;
            #pragma unroll
            for (int r = 0; r < RY; ++r) {
                const int sy = ty + r * BY + 1, sx = tx + 1;
                float acc = b;
                acc = fmaf(k0, below[r], acc);
                acc = fmaf(k1, tile[sc][sy + -1][sx + 0], acc);
                acc = fmaf(k2, tile[sc][sy + 0][sx + -1], acc);
                acc = fmaf(k3, cur[r], acc);
                acc = fmaf(k4, tile[sc][sy + 0][sx + 1], acc);
                acc = fmaf(k5, tile[sc][sy + 1][sx + 0], acc);
                acc = fmaf(k6, above[r], acc);
                if (column_in[r]) dst[z * plane + column[r]] = acc;
            }
            
            __syncthreads();
            #pragma unroll
            for (int r = 0; r < RY; ++r) { below[r] = cur[r]; cur[r] = above[r]; above[r] = ahead[r]; ahead[r] = far[r]; }
        }
    }
}
"""


class ModelNew(Model):
    def forward(self, x):
        # stencil kernel: conv3d
        v_conv3d = _hiera_stencil(_HIERA_SRC_0, 'hiera_stencil0', x, self.weight, None, 3, (64, 4, 16, 32))
        return v_conv3d

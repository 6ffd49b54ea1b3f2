# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 4_Depthwise_Conv2d.py
# reference-class: Model
# reference-sha256: f9cfddb50afe47ea9a4f21d8b11dde15fbb9ebf6eca872289db221104470a367
# body-sha256: d751e36c9c28b3de6e695ee3c9964241fc757491edfb36cb48fbd042fdb83994
# space: custom_cuda
# strategy: stencil
# verification: passed: 12 checks, 5 input sets, max error 0
# speedup: 1.37x over eager (0.06624 ms -> 0.04829 ms); 1.38x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T22:32:46+0000
# run: 20261129-223124-optimize-932-1baa1a
# contract: input x: float32[16, 128, 56, 56] contiguous
# contract: output out: float32[16, 128, 56, 56] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Depthwise 3x3 convolution (groups = channels): (16, 128, 56, 56), float32, no bias.

Nine multiply-adds per output element and 25 MiB in and out: memory-bound, unlike dense
convolutions; cuDNN's depthwise kernels reach only part of the bandwidth in NCHW.
"""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 128
SIZE = 56


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, groups=channels, bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS]


# ---- HIERA candidate: custom_cuda.stencil (custom_cuda) ----------------------
# ---- HIERA custom_cuda: Shared-memory tiled stencil, register queue along the slowest axis ----
# stencil kernel for conv
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
    """Run a generated radius-1 stencil over (N, C, [D,] H, W); tile = (BX, BY, rows per tile, planes per block,
    columns per thread)."""
    _hiera_check(x, weight, *([] if bias is None else [bias]))
    x = x.contiguous()
    out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    channels = x.shape[1]
    depth, height, width = x.shape[2:] if rank == 3 else (x.shape[2], 1, x.shape[3])
    if depth * height * width >= 2**31:
        raise ValueError("the stencil kernel indexes one volume with 32-bit offsets: at most 2^31 - 1 points")
    bx, by, rows, planes, columns = tile
    chunks = -(-depth // planes)
    volumes = x.shape[0] * channels
    grid = (-(-width // (bx * columns)), -(-height // rows), min(volumes * chunks, 65535))
    device = x.device.index
    _hiera_launch(_hiera_kernel(source, name, device), device, grid, (bx, by), 0, x, weight.contiguous(),
                  0 if bias is None else bias.contiguous(), out, volumes, channels, depth, height, width, chunks)
    return out


_HIERA_SRC_0 = r"""
// HIERA 2D stencil hiera_stencil0: 9 taps [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1)]
constexpr int BX = 64, BY = 1, RY = 1, ZC = 32, VX = 1;
// Tile rows in shared memory: the TX interior points from column OX (16-byte aligned for float4
// columns), the halo at OX - 1 and OX + TX.
constexpr int TX = BX * VX, TY = BY * RY, OX = VX == 4 ? 4 : 1, SX = TX + 2 * OX, SY = TY + 2, SLOTS = 4;
constexpr int HW = TX + 2, HALO = 2 * HW + 2 * TY;  // halo points: two rows of HW, two columns of TY
constexpr int HALO_PER_THREAD = (HALO + BX * BY - 1) / (BX * BY);
// Offsets inside one volume are 32-bit (the host checks D*H*W < 2^31); volumes are addressed in 64 bits.
extern "C" __global__ void __launch_bounds__(BX * BY) hiera_stencil0(
        const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias, float* __restrict__ out,
        long long volumes, long long channels, long long D_, long long H_, long long W_, long long chunks) {
    const int D = (int)D_, H = (int)H_, W = (int)W_;
    __shared__ __align__(16) float tile[SLOTS][SY][SX];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY, gx = x0 + tx * VX, plane = H * W;
    // Whole float4s: rows of a multiple of 4 points from a 16-byte aligned base (one branch for all threads).
    const bool vector = VX == 4 && W % 4 == 0 && ((reinterpret_cast<unsigned long long>(x) | reinterpret_cast<unsigned long long>(out)) & 15) == 0;
    // This thread's columns (RY rows of the tile, VX points each) and halo points: offsets and validity, fixed over z.
    int column[RY];
    bool column_in[RY][VX];
    #pragma unroll
    for (int r = 0; r < RY; ++r) {
        const int y = y0 + ty + r * BY;
        column[r] = y * W + gx;
        #pragma unroll
        for (int i = 0; i < VX; ++i) column_in[r][i] = y < H && gx + i < W;
    }
    int halo_at[HALO_PER_THREAD], halo_offset[HALO_PER_THREAD];
    bool halo_in[HALO_PER_THREAD];
    #pragma unroll
    for (int h = 0; h < HALO_PER_THREAD; ++h) {
        const int k = tid + h * BX * BY;
        int hy = 0, hx = 0;
        if (k < HW) { hx = k; }
        else if (k < 2 * HW) { hy = SY - 1; hx = k - HW; }
        else { hy = 1 + (k - 2 * HW) / 2; hx = ((k - 2 * HW) & 1) ? HW - 1 : 0; }
        const int y = y0 + hy - 1, xx = x0 + hx - 1;
        halo_at[h] = k < HALO ? hy * SX + OX - 1 + hx : -1;
        halo_in[h] = k < HALO && y >= 0 && y < H && xx >= 0 && xx < W;
        halo_offset[h] = halo_in[h] ? y * W + xx : 0;
    }
    for (long long job = blockIdx.z; job < volumes * chunks; job += gridDim.z) {
        const long long volume = job / chunks;
        const int z0 = (int)(job % chunks) * ZC, z1 = min(z0 + ZC, D);
        const int last = min(z1, D - 1);  // the chunk reads planes z0-1 .. z1 and no further
        const float* src = x + volume * D * plane;
        float* dst = out + volume * D * plane;
        const float* wc = w + volume % channels * 9;
        const float b = bias ? bias[volume % channels] : 0.0f;
        const float k0 = wc[0];
        const float k1 = wc[1];
        const float k2 = wc[2];
        const float k3 = wc[3];
        const float k4 = wc[4];
        const float k5 = wc[5];
        const float k6 = wc[6];
        const float k7 = wc[7];
        const float k8 = wc[8];
        auto column_at = [&](int z, int r, float* v) {
            const bool z_in = z >= 0 && z <= last;
            if (vector && z_in && column_in[r][0]) {
                const float4 q = __ldg(reinterpret_cast<const float4*>(src + z * plane + column[r]));
                v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
                return;
            }
            #pragma unroll
            for (int i = 0; i < VX; ++i) v[i] = (z_in && column_in[r][i]) ? src[z * plane + column[r] + i] : 0.0f;
        };
        auto halo_load = [&](int z, float* v) {
            const bool z_in = z >= 0 && z <= last;
            #pragma unroll
            for (int h = 0; h < HALO_PER_THREAD; ++h) v[h] = (z_in && halo_in[h]) ? src[z * plane + halo_offset[h]] : 0.0f;
        };
        // Plane z into tile slot s: the interior from the caller's registers, the halo from the
        // caller's queue (loaded planes earlier) or from memory now.
        auto fill = [&](int s, int z, float (*interior)[VX], const float* halo) {
            float* t = &tile[s][0][0];
            #pragma unroll
            for (int r = 0; r < RY; ++r) {
                float* at = t + (ty + r * BY + 1) * SX + OX + tx * VX;
                if (VX == 4) *reinterpret_cast<float4*>(at) = make_float4(interior[r][0], interior[r][VX > 1 ? 1 : 0], interior[r][VX > 2 ? 2 : 0], interior[r][VX > 3 ? 3 : 0]);
                else at[0] = interior[r][0];
            }
            float loaded[HALO_PER_THREAD];
            if (!halo) { halo_load(z, loaded); halo = loaded; }
            #pragma unroll
            for (int h = 0; h < HALO_PER_THREAD; ++h)
                if (halo_at[h] >= 0) t[halo_at[h]] = halo[h];
        };
        // Register queue along z; loads run two planes ahead of the plane being computed.
        float below[RY][VX], cur[RY][VX], above[RY][VX], ahead[RY][VX], far[RY][VX];
        #pragma unroll
        for (int r = 0; r < RY; ++r) {
            column_at(z0 - 1, r, below[r]);
            column_at(z0, r, cur[r]);
            column_at(z0 + 1, r, above[r]);
            column_at(z0 + 2, r, ahead[r]);
        }
        
        fill(0, z0 - 1, below, nullptr); fill(1, z0, cur, nullptr); fill(2, z0 + 1, above, nullptr);
        __syncthreads();
        for (int z = z0; z < z1; ++z) {
            #pragma unroll
            for (int r = 0; r < RY; ++r) column_at(z + 3, r, far[r]);  // in flight for two planes
            
            
            const int sm = (z - z0) & 3, sc = (z - z0 + 1) & 3, sp = (z - z0 + 2) & 3;
            #pragma unroll
            for (int r = 0; r < RY; ++r) {
                float result[VX];
                const int sy = ty + r * BY + 1, sx = OX + tx;
                float acc = b;
                acc = fmaf(k0, tile[sm][sy + 0][sx + -1], acc);
                acc = fmaf(k1, below[r][0], acc);
                acc = fmaf(k2, tile[sm][sy + 0][sx + 1], acc);
                acc = fmaf(k3, tile[sc][sy + 0][sx + -1], acc);
                acc = fmaf(k4, cur[r][0], acc);
                acc = fmaf(k5, tile[sc][sy + 0][sx + 1], acc);
                acc = fmaf(k6, tile[sp][sy + 0][sx + -1], acc);
                acc = fmaf(k7, above[r][0], acc);
                acc = fmaf(k8, tile[sp][sy + 0][sx + 1], acc);
                result[0] = acc;
                if (vector && column_in[r][0]) {
                    const float4 v = make_float4(result[0], result[VX > 1 ? 1 : 0], result[VX > 2 ? 2 : 0], result[VX > 3 ? 3 : 0]);
                    *reinterpret_cast<float4*>(dst + z * plane + column[r]) = v;
                } else {
                    #pragma unroll
                    for (int i = 0; i < VX; ++i) {
                        const float acc = result[i];
                        if (column_in[r][i]) dst[z * plane + column[r] + i] = acc;
                    }
                }
            }
            if (z + 2 <= z1) fill((z - z0 + 3) & 3, z + 2, ahead, nullptr);
            __syncthreads();
            #pragma unroll
            for (int r = 0; r < RY; ++r)
                #pragma unroll
                for (int i = 0; i < VX; ++i) { below[r][i] = cur[r][i]; cur[r][i] = above[r][i]; above[r][i] = ahead[r][i]; ahead[r][i] = far[r][i]; }
            
        }
    }
}
"""


class ModelNew(Model):
    def forward(self, x):
        # stencil kernel: conv
        v_conv = _hiera_stencil(_HIERA_SRC_0, 'hiera_stencil0', x, self.conv.weight, None, 2, (64, 1, 1, 32, 1))
        return v_conv

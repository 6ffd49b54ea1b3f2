# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 9_Residual_Add_LayerNorm.py
# reference-class: Model
# reference-sha256: 2146d2aa3e08250e208108df94a48aff669dde0e8568470579521c48d823e07e
# body-sha256: 5f9fbde64846d408a5054df4a39ea94643412c68fb30ebc2124808fbdaaf48cc
# space: custom_cuda
# strategy: row_reduction
# verification: passed: 12 checks, 5 input sets, max error 3.8e-06
# speedup: 1.40x over eager (0.05931 ms -> 0.0425 ms); 1.42x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T20:15:12+0000
# run: 20261129-201340-optimize-1263-007f0b
# contract: input x: float32[8192, 1024] contiguous
# contract: input residual: float32[8192, 1024] contiguous
# contract: output out: float32[8192, 1024] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Residual add then LayerNorm over 1024 features: LayerNorm(x + y) on (8192, 1024) float32,
the post-attention step of a transformer layer.

Eager PyTorch writes x + y (32 MiB) and reads it back for the normalisation; a fused row kernel
reads x and y once and writes the output once.
"""
import torch
import torch.nn as nn

ROWS = 8192
FEATURES = 1024


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.norm = nn.LayerNorm(features)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x, residual):
        return self.norm(x + residual)


def get_inputs():
    return [torch.randn(ROWS, FEATURES), torch.randn(ROWS, FEATURES)]


def get_init_inputs():
    return [FEATURES]


# ---- HIERA candidate: custom_cuda.row_reduction (custom_cuda) ----------------
# ---- HIERA custom_cuda: Row kernels: warp-shuffle reductions, online softmax, norms ----
# rows kernel fusing add, norm
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
_HIERA_SMS = {}


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


def _hiera_sms(device):
    if device not in _HIERA_SMS:
        _HIERA_SMS[device] = torch.cuda.get_device_properties(device).multi_processor_count
    return _HIERA_SMS[device]


def _hiera_check(*tensors):
    for t in tensors:
        if not (isinstance(t, torch.Tensor) and t.is_cuda and t.dtype == torch.float32):
            raise TypeError("this proposal's CUDA kernels take float32 CUDA tensors; got "
                            + (f"{t.dtype} on {t.device}" if isinstance(t, torch.Tensor) else type(t).__name__))


def _hiera_broadcast(tensors):
    """The broadcast shape of `tensors` (torch.broadcast_shapes is slow: symbolic-shape guards)."""
    rank = max(t.dim() for t in tensors)
    shape = [1] * rank
    for t in tensors:
        for axis, size in enumerate(t.shape, rank - t.dim()):
            if size != 1:
                if shape[axis] not in (1, size):
                    raise ValueError(f"shapes {[tuple(u.shape) for u in tensors]} do not broadcast")
                shape[axis] = size
    return tuple(shape)


def _hiera_leaf(t, shape, full):
    """(tensor, mode, inner, extent): how a kernel reads `t` broadcast to `shape` at flat index i.

    Modes: 0 FULL t[i], 1 SCALAR t[0], 2 COL t[i % cols], 3 ROW t[i // cols], 4 BCAST
    t[i // inner % extent]. `full` leaves are always made FULL (the kernel reads them directly).
    """
    _hiera_check(t)
    n = math.prod(shape)
    if t.shape == shape:
        return t.contiguous(), 0, 1, n
    if full and t.numel() != 1:
        return t.expand(shape).contiguous(), 0, 1, n
    if t.numel() == 1:
        return (t.expand(shape).contiguous(), 0, 1, n) if full else (t.reshape(1), 1, 1, 1)
    dims = (1,) * (len(shape) - t.dim()) + tuple(t.shape)
    varying = [d for d in range(len(shape)) if dims[d] != 1]
    if all(d in varying or shape[d] == 1 for d in range(varying[0], varying[-1] + 1)):
        inner = math.prod(shape[varying[-1] + 1:])
        extent = math.prod(dims[varying[0]:varying[-1] + 1])
        cols = shape[-1]
        mode = 2 if inner == 1 and extent == cols else 3 if inner == cols and extent * cols == n else 4
        return t.contiguous(), mode, inner, extent
    return t.expand(shape).contiguous(), 0, 1, n


def _hiera_rows(source, name, leaves, full, kinds, cached):
    """Run a generated row kernel: one block per row of the leaves' broadcast shape."""
    shape = _hiera_broadcast(leaves)
    device = leaves[0].device
    cols = shape[-1]
    rows = math.prod(shape[:-1])
    shapes = {"row": shape, "keep": shape[:-1] + (1,), "drop": shape[:-1]}
    outs = [torch.empty(shapes[k], device=device, dtype=torch.float32) for k in kinds]
    if rows == 0:
        return outs
    reads = [_hiera_leaf(t, shape, f) for t, f in zip(leaves, full)]
    vec = cols % 4 == 0 and all(r[0].data_ptr() % 16 == 0 for r in reads if r[1] in (0, 2))
    # About 8 float4s (or 8 floats) per thread: enough loads in flight, few threads per reduction.
    per_thread = -(-cols // 32) if vec else -(-cols // 8)
    threads = min(256, max(32, 1 << (per_thread - 1).bit_length()))
    cache_bytes = cached * cols * 4
    use_cache = 0 < cache_bytes <= 48 * 1024
    variant = ("vec" if vec else "scalar") + ("32" if rows * cols < 2**31 else "64")
    grid = min(rows, _hiera_sms(device.index) * (2048 // threads))
    _hiera_launch(_hiera_kernel(source, f"{name}_{variant}", device.index), device.index, grid, threads,
                  cache_bytes if use_cache else 0, *[v for r in reads for v in r], *outs, rows, cols, int(use_cache))
    return outs


_HIERA_SRC_0 = r"""
// HIERA row kernel hiera_rows0: 2 reduction sweep(s) over each row

// How a leaf is read at flat index i of the iteration space (row = i / cols, j = i % cols).
#define HI_FULL 0
#define HI_SCALAR 1
#define HI_COL 2
#define HI_ROW 3
template <typename I>
__device__ __forceinline__ float hi_ld(const float* __restrict__ p, int mode, I i, I row, I j, I inner, I extent) {
    switch (mode) {
        case HI_FULL: return p[i];
        case HI_SCALAR: return p[0];
        case HI_COL: return p[j];
        case HI_ROW: return p[row];
        default: return p[i / inner % extent];
    }
}
template <typename I>
__device__ __forceinline__ float4 hi_ld4(const float* __restrict__ p, int mode, I i, I row, I j, I inner, I extent) {
    switch (mode) {
        case HI_FULL: return *reinterpret_cast<const float4*>(p + i);
        case HI_COL: return *reinterpret_cast<const float4*>(p + j);
        case HI_SCALAR: { const float v = p[0]; return make_float4(v, v, v, v); }
        case HI_ROW: { const float v = p[row]; return make_float4(v, v, v, v); }
        default: return make_float4(p[i / inner % extent], p[(i + 1) / inner % extent],
                                    p[(i + 2) / inner % extent], p[(i + 3) / inner % extent]);
    }
}

__device__ __forceinline__ float hi_max(float a, float b) { return (b > a || b != b) ? b : a; }
__device__ __forceinline__ float hi_min(float a, float b) { return (b < a || b != b) ? b : a; }
#define HI_SUM(a, b) ((a) + (b))
#define HI_MAX(a, b) hi_max(a, b)
#define HI_MIN(a, b) hi_min(a, b)
// Block-wide reduction; every thread gets the result. blockDim.x is a multiple of 32.
#define HI_BLOCK_REDUCE(NAME, OP, IDENTITY)                                          \
__device__ __forceinline__ float NAME(float v, float* red) {                       \
    for (int o = 16; o > 0; o >>= 1) v = OP(v, __shfl_xor_sync(0xffffffffu, v, o)); \
    __syncthreads();                                                                \
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;                         \
    __syncthreads();                                                                \
    v = (threadIdx.x & 31) < (blockDim.x >> 5) ? red[threadIdx.x & 31] : (IDENTITY); \
    for (int o = 16; o > 0; o >>= 1) v = OP(v, __shfl_xor_sync(0xffffffffu, v, o)); \
    return v;                                                                       \
}
HI_BLOCK_REDUCE(hi_block_sum, HI_SUM, 0.0f)
HI_BLOCK_REDUCE(hi_block_max, HI_MAX, -__int_as_float(0x7f800000))
HI_BLOCK_REDUCE(hi_block_min, HI_MIN, __int_as_float(0x7f800000))
// Online softmax statistics: running max m and sum s of exp(v - m), merged pairwise.
// One exp per element: the running sum is rescaled only when the maximum grows.
__device__ __forceinline__ void hi_online_add(float& m, float& s, float v) {
    if (v > m) { s = (m == -__int_as_float(0x7f800000)) ? 0.0f : s * expf(m - v); m = v; }
    s += (m == -__int_as_float(0x7f800000)) ? 0.0f : expf(v - m);
}
__device__ __forceinline__ void hi_online_merge(float& m, float& s, float m2, float s2) {
    const float top = hi_max(m, m2);
    s = (top == -__int_as_float(0x7f800000)) ? 0.0f : s * expf(m - top) + s2 * expf(m2 - top);
    m = top;
}
__device__ __forceinline__ void hi_block_online(float& m, float& s, float* red) {
    for (int o = 16; o > 0; o >>= 1)
        hi_online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
    __syncthreads();
    if ((threadIdx.x & 31) == 0) { red[threadIdx.x >> 5] = m; red[32 + (threadIdx.x >> 5)] = s; }
    __syncthreads();
    const bool live = (threadIdx.x & 31) < (blockDim.x >> 5);
    m = live ? red[threadIdx.x & 31] : -__int_as_float(0x7f800000);
    s = live ? red[32 + (threadIdx.x & 31)] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
        hi_online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
}
__device__ __forceinline__ void hi_sweep0(const float l0, const float l1, const float inv_n, float& o0) {
    const float t3 = l0 + l1;
    o0 = t3;
}
__device__ __forceinline__ void hi_sweep1(const float l0, const float l1, const float inv_n, const float r0, float& o0) {
    const float t4 = l0 + l1;
    const float t5 = r0 * inv_n;
    const float t6 = t4 - t5;
    const float t7 = t6 * t6;
    o0 = t7;
}
__device__ __forceinline__ void hi_sweep2(const float l0, const float l1, const float l2, const float l3, const float inv_n, const float r0, const float r1, float& o0) {
    const float t7 = l0 + l1;
    const float t8 = r0 * inv_n;
    const float t9 = t7 - t8;
    const float t10 = r1 * inv_n;
    const float t11 = t10 + 9.999999747378752e-06f;
    const float t12 = rsqrtf(t11);
    const float t13 = t9 * t12;
    const float t14 = t13 * l2;
    const float t15 = t14 + l3;
    o0 = t15;
}

template <typename I, bool VEC>
__device__ __forceinline__ void hi_rows(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, const float* __restrict__ p2, long long m2, long long in2, long long ex2, const float* __restrict__ p3, long long m3, long long in3, long long ex3, float* __restrict__ o0, long long rows_, long long cols_, long long use_cache) {
    extern __shared__ float4 hi_cache4[];
    float* hi_cache = reinterpret_cast<float*>(hi_cache4);
    __shared__ float red[64];
    const I rows = (I)rows_, cols = (I)cols_;
    const float inv_n = 1.0f / (float)cols;
    for (I row = blockIdx.x; row < rows; row += gridDim.x) {
        // sweep 0
        float acc_r0 = 0.0f;
        if (VEC) {
            #pragma unroll (sizeof(I) == 4 ? 2 : 1)
            for (I q = threadIdx.x; q < cols / 4; q += blockDim.x) {
                const I j = q * 4, i = row * cols + j;
                const float4 v0 = *reinterpret_cast<const float4*>(p0 + i);
                if (use_cache) hi_cache4[(I)0 * (cols / 4) + q] = v0;
                const float4 v1 = *reinterpret_cast<const float4*>(p1 + i);
                if (use_cache) hi_cache4[(I)1 * (cols / 4) + q] = v1;
                { float e0; hi_sweep0(v0.x, v1.x, inv_n, e0); acc_r0 += e0; }
                { float e0; hi_sweep0(v0.y, v1.y, inv_n, e0); acc_r0 += e0; }
                { float e0; hi_sweep0(v0.z, v1.z, inv_n, e0); acc_r0 += e0; }
                { float e0; hi_sweep0(v0.w, v1.w, inv_n, e0); acc_r0 += e0; }
            }
        } else {
            #pragma unroll (sizeof(I) == 4 ? 2 : 1)
            for (I j = threadIdx.x; j < cols; j += blockDim.x) {
                const I i = row * cols + j;
                const float v0 = p0[i];
                if (use_cache) hi_cache[(I)0 * cols + j] = v0;
                const float v1 = p1[i];
                if (use_cache) hi_cache[(I)1 * cols + j] = v1;
                { float e0; hi_sweep0(v0, v1, inv_n, e0); acc_r0 += e0; }
            }
        }
        const float r0 = hi_block_sum(acc_r0, red);
        // sweep 1
        float acc_r1 = 0.0f;
        if (VEC) {
            #pragma unroll (sizeof(I) == 4 ? 2 : 1)
            for (I q = threadIdx.x; q < cols / 4; q += blockDim.x) {
                const I j = q * 4, i = row * cols + j;
                const float4 v0 = use_cache ? hi_cache4[(I)0 * (cols / 4) + q] : *reinterpret_cast<const float4*>(p0 + i);
                const float4 v1 = use_cache ? hi_cache4[(I)1 * (cols / 4) + q] : *reinterpret_cast<const float4*>(p1 + i);
                { float e0; hi_sweep1(v0.x, v1.x, inv_n, r0, e0); acc_r1 += e0; }
                { float e0; hi_sweep1(v0.y, v1.y, inv_n, r0, e0); acc_r1 += e0; }
                { float e0; hi_sweep1(v0.z, v1.z, inv_n, r0, e0); acc_r1 += e0; }
                { float e0; hi_sweep1(v0.w, v1.w, inv_n, r0, e0); acc_r1 += e0; }
            }
        } else {
            #pragma unroll (sizeof(I) == 4 ? 2 : 1)
            for (I j = threadIdx.x; j < cols; j += blockDim.x) {
                const I i = row * cols + j;
                const float v0 = use_cache ? hi_cache[(I)0 * cols + j] : p0[i];
                const float v1 = use_cache ? hi_cache[(I)1 * cols + j] : p1[i];
                { float e0; hi_sweep1(v0, v1, inv_n, r0, e0); acc_r1 += e0; }
            }
        }
        const float r1 = hi_block_sum(acc_r1, red);
        // sweep 2 (outputs)
        if (VEC) {
            #pragma unroll (sizeof(I) == 4 ? 2 : 1)
            for (I q = threadIdx.x; q < cols / 4; q += blockDim.x) {
                const I j = q * 4, i = row * cols + j;
                const float4 v0 = use_cache ? hi_cache4[(I)0 * (cols / 4) + q] : *reinterpret_cast<const float4*>(p0 + i);
                const float4 v1 = use_cache ? hi_cache4[(I)1 * (cols / 4) + q] : *reinterpret_cast<const float4*>(p1 + i);
                const float4 v2 = hi_ld4<I>(p2, (int)m2, i, row, j, (I)in2, (I)ex2);
                const float4 v3 = hi_ld4<I>(p3, (int)m3, i, row, j, (I)in3, (I)ex3);
                float4 w0;
                hi_sweep2(v0.x, v1.x, v2.x, v3.x, inv_n, r0, r1, w0.x);
                hi_sweep2(v0.y, v1.y, v2.y, v3.y, inv_n, r0, r1, w0.y);
                hi_sweep2(v0.z, v1.z, v2.z, v3.z, inv_n, r0, r1, w0.z);
                hi_sweep2(v0.w, v1.w, v2.w, v3.w, inv_n, r0, r1, w0.w);
                reinterpret_cast<float4*>(o0)[q + row * (cols / 4)] = w0;
            }
        } else {
            #pragma unroll (sizeof(I) == 4 ? 2 : 1)
            for (I j = threadIdx.x; j < cols; j += blockDim.x) {
                const I i = row * cols + j;
                const float v0 = use_cache ? hi_cache[(I)0 * cols + j] : p0[i];
                const float v1 = use_cache ? hi_cache[(I)1 * cols + j] : p1[i];
                const float v2 = hi_ld<I>(p2, (int)m2, i, row, j, (I)in2, (I)ex2);
                const float v3 = hi_ld<I>(p3, (int)m3, i, row, j, (I)in3, (I)ex3);
                hi_sweep2(v0, v1, v2, v3, inv_n, r0, r1, o0[i]);
            }
        }
    }
}
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_rows0_vec32)
extern "C" __global__ void __launch_bounds__(256) hiera_rows0_vec32(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, const float* __restrict__ p2, long long m2, long long in2, long long ex2, const float* __restrict__ p3, long long m3, long long in3, long long ex3, float* __restrict__ o0, long long rows_, long long cols_, long long use_cache) { hi_rows<unsigned int, true>(p0, m0, in0, ex0, p1, m1, in1, ex1, p2, m2, in2, ex2, p3, m3, in3, ex3, o0, rows_, cols_, use_cache); }
#endif
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_rows0_vec64)
extern "C" __global__ void __launch_bounds__(256) hiera_rows0_vec64(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, const float* __restrict__ p2, long long m2, long long in2, long long ex2, const float* __restrict__ p3, long long m3, long long in3, long long ex3, float* __restrict__ o0, long long rows_, long long cols_, long long use_cache) { hi_rows<long long, true>(p0, m0, in0, ex0, p1, m1, in1, ex1, p2, m2, in2, ex2, p3, m3, in3, ex3, o0, rows_, cols_, use_cache); }
#endif
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_rows0_scalar32)
extern "C" __global__ void __launch_bounds__(256) hiera_rows0_scalar32(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, const float* __restrict__ p2, long long m2, long long in2, long long ex2, const float* __restrict__ p3, long long m3, long long in3, long long ex3, float* __restrict__ o0, long long rows_, long long cols_, long long use_cache) { hi_rows<unsigned int, false>(p0, m0, in0, ex0, p1, m1, in1, ex1, p2, m2, in2, ex2, p3, m3, in3, ex3, o0, rows_, cols_, use_cache); }
#endif
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_rows0_scalar64)
extern "C" __global__ void __launch_bounds__(256) hiera_rows0_scalar64(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, const float* __restrict__ p2, long long m2, long long in2, long long ex2, const float* __restrict__ p3, long long m3, long long in3, long long ex3, float* __restrict__ o0, long long rows_, long long cols_, long long use_cache) { hi_rows<long long, false>(p0, m0, in0, ex0, p1, m1, in1, ex1, p2, m2, in2, ex2, p3, m3, in3, ex3, o0, rows_, cols_, use_cache); }
#endif
"""


class ModelNew(Model):
    def forward(self, x, residual):
        # rows kernel: add, norm
        v_norm, = _hiera_rows(_HIERA_SRC_0, 'hiera_rows0', (x, residual, self.norm.weight, self.norm.bias,), (True, True, False, False), ('row',), 2)
        return v_norm

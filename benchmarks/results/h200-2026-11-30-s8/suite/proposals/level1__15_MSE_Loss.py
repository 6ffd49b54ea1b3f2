# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 15_MSE_Loss.py
# reference-class: Model
# reference-sha256: 650fff92cfdcd80d1d446699c156df23582601778deda71c1d0f63330acb29fb
# body-sha256: bf5e0ec45ef04e28b90a73698c31d3563032134a968e9a557fd54b941da7cf42
# space: custom_cuda
# strategy: row_reduction
# verification: passed: 12 checks, 5 input sets, max error 0.002
# speedup: 1.47x over eager (0.08003 ms -> 0.0543 ms); 1.75x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T22:59:31+0000
# run: 20261129-225747-optimize-3791-10eab9
# contract: input prediction: float32[4096, 4096] contiguous
# contract: input target: float32[4096, 4096] contiguous
# contract: output out: float32[] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Mean squared error between two (4096, 4096) float32 tensors -> a scalar.

Eager PyTorch materialises the difference (64 MiB) before squaring and reducing; a fused kernel
reads both inputs once and reduces in registers. Memory-bound, with a full reduction at the end.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

ROWS = 4096
COLS = 4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, prediction, target):
        return F.mse_loss(prediction, target)


def get_inputs():
    return [torch.randn(ROWS, COLS), torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []


# ---- HIERA candidate: custom_cuda.row_reduction (custom_cuda) ----------------
# ---- HIERA custom_cuda: Row kernels: warp-shuffle reductions, online softmax, norms ----
# total kernel for mse_loss
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
_HIERA_PLANS = {}


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


def _hiera_flat(leaves, full, shape):
    """How a kernel over the flat elements of `shape` reads `leaves`: (leaf reads, entry-point
    variant, work items, row length). The float4 variant needs whole float4s in one row and
    16-byte aligned FULL/COL reads; the 32-bit one, fewer than 2^31 elements."""
    n = math.prod(shape)
    cols = shape[-1] if shape else 1
    reads = [_hiera_leaf(t, shape, f) for t, f in zip(leaves, full)]
    vec = cols % 4 == 0 and all(r[0].data_ptr() % 16 == 0 for r in reads if r[1] in (0, 2))
    variant = ("vec" if vec else "scalar") + ("32" if n < 2**31 else "64")
    return reads, variant, n // 4 if vec else n, cols


def _hiera_signature(source, name, leaves, *extra):
    """The key of a cached launch plan: what the plan depends on in each leaf (shape, strides, dtype,
    device, 16-byte alignment). A CPU or non-float32 leaf gets no plan: the full path refuses it."""
    return (source, name, *extra, *[(t.shape, t.stride(), t.dtype, t.device, t.data_ptr() & 15) for t in leaves])


def _hiera_plan(key, reads, leaves, *plan):
    """Keep `plan` for `key` when every leaf is read in place (no copy made for it), so a later call
    with the same signature passes the leaves' own pointers; the leaf arguments (pointer, mode,
    inner, extent) are rebuilt from the cached modes."""
    if all(r[0].data_ptr() == t.data_ptr() for r, t in zip(reads, leaves)):
        _HIERA_PLANS[key] = (*plan, [r[1:] for r in reads])


def _hiera_leaf_args(leaves, modes):
    return [v for t, mode in zip(leaves, modes) for v in (t.data_ptr(), *mode)]


def _hiera_total(source, name, leaves, full, mean):
    """The sum (mean: the mean) over every element of a generated pointwise expression of `leaves`:
    per-block partial sums, then one block adding them in order. Plans are cached as for pointwise."""
    key = _hiera_signature(source, name, leaves, mean)
    plan = _HIERA_PLANS.get(key)
    device = leaves[0].device
    if plan is None:
        shape = _hiera_broadcast(leaves)
        n = math.prod(shape)
        if n == 0:
            return torch.empty((), device=device, dtype=torch.float32).fill_(math.nan if mean else 0.0)  # as torch
        reads, variant, work, cols = _hiera_flat(leaves, full, shape)
        blocks = min(-(-work // 256), 8 * _hiera_sms(device.index))  # a full GPU's threads, a partial each block
        kernels = (_hiera_kernel(source, f"{name}_{variant}", device.index),
                   _hiera_kernel(source, f"{name}_finalize", device.index))
        args = [v for r in reads for v in r]
        _hiera_plan(key, reads, leaves, kernels, blocks, n, cols)
    else:
        kernels, blocks, n, cols, modes = plan
        args = _hiera_leaf_args(leaves, modes)
    out = torch.empty((), device=device, dtype=torch.float32)
    partial = torch.empty(blocks, device=device, dtype=torch.float32)
    _hiera_launch(kernels[0], device.index, blocks, 256, 0, *args, partial, n, cols)
    _hiera_launch(kernels[1], device.index, 1, 256, 0, partial, out, blocks, 1.0 / n if mean else 1.0)
    return out


_HIERA_SRC_0 = r"""
// HIERA total reduction hiera_total0: one pass over 2 inputs, partial sums, then their total

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
__device__ __forceinline__ void hi_elem(const float l0, const float l1, float& o0) {
    const float t2 = l0 - l1;
    const float t3 = t2 * t2;
    o0 = t3;
}

template <typename I, bool VEC>
__device__ __forceinline__ void hi_total(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, float* __restrict__ partial, long long n_, long long cols_) {
    __shared__ float red[32];
    const I n = (I)n_, cols = (I)cols_;
    const I stride = (I)gridDim.x * blockDim.x;
    const I first = (I)blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    if (VEC) {
        for (I q = first; q < n / 4; q += stride) {
            const I i = q * 4;
            
            const float4 v0 = *reinterpret_cast<const float4*>(p0 + i);
            const float4 v1 = *reinterpret_cast<const float4*>(p1 + i);
            float4 r;
            hi_elem(v0.x, v1.x, r.x);
            hi_elem(v0.y, v1.y, r.y);
            hi_elem(v0.z, v1.z, r.z);
            hi_elem(v0.w, v1.w, r.w);
            acc += (r.x + r.y) + (r.z + r.w);
        }
    } else {
        for (I i = first; i < n; i += stride) {
            
            const float v0 = p0[i];
            const float v1 = p1[i];
            float r;
            hi_elem(v0, v1, r);
            acc += r;
        }
    }
    acc = hi_block_sum(acc, red);
    if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_total0_vec32)
extern "C" __global__ void __launch_bounds__(256) hiera_total0_vec32(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, float* __restrict__ partial, long long n_, long long cols_) { hi_total<unsigned int, true>(p0, m0, in0, ex0, p1, m1, in1, ex1, partial, n_, cols_); }
#endif
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_total0_vec64)
extern "C" __global__ void __launch_bounds__(256) hiera_total0_vec64(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, float* __restrict__ partial, long long n_, long long cols_) { hi_total<long long, true>(p0, m0, in0, ex0, p1, m1, in1, ex1, partial, n_, cols_); }
#endif
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_total0_scalar32)
extern "C" __global__ void __launch_bounds__(256) hiera_total0_scalar32(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, float* __restrict__ partial, long long n_, long long cols_) { hi_total<unsigned int, false>(p0, m0, in0, ex0, p1, m1, in1, ex1, partial, n_, cols_); }
#endif
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_total0_scalar64)
extern "C" __global__ void __launch_bounds__(256) hiera_total0_scalar64(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, float* __restrict__ partial, long long n_, long long cols_) { hi_total<long long, false>(p0, m0, in0, ex0, p1, m1, in1, ex1, partial, n_, cols_); }
#endif
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_total0_finalize)
extern "C" __global__ void __launch_bounds__(256) hiera_total0_finalize(
        const float* __restrict__ partial, float* __restrict__ out, long long blocks, float scale) {
    __shared__ float red[32];
    float acc = 0.0f;
    for (long long k = threadIdx.x; k < blocks; k += blockDim.x) acc += partial[k];
    acc = hi_block_sum(acc, red);
    if (threadIdx.x == 0) out[0] = acc * scale;
}
#endif
"""


class ModelNew(Model):
    def forward(self, prediction, target):
        # total kernel: mse_loss
        v_mse_loss = _hiera_total(_HIERA_SRC_0, 'hiera_total0', (prediction, target,), (True, True), True)
        return v_mse_loss

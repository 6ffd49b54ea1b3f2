# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 6_Bias_Tanh_Clamp_Residual.py
# reference-class: Model
# reference-sha256: 0144a09e75b6daeb8432c24be48f47837badb40baf883fcbf86dffce58464f2f
# body-sha256: d885b2336d7e56a909c58f069931480854ae09ec042a26dbf9c4ea6d1a8b7555
# space: custom_cuda
# strategy: pointwise_chain
# verification: passed: 12 checks, 5 input sets, max error 1.5e-05
# speedup: 3.42x over eager (0.1272 ms -> 0.03716 ms); 4.63x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-29T23:01:37+0000
# run: 20261129-225953-optimize-3791-8e6e84
# contract: input x: float32[4096, 2048] contiguous
# contract: output out: float32[4096, 2048] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""Pointwise chain on (4096, 2048) float32: y = tanh(x + bias) (bias per column), clamped to
[-0.8, 0.8], scaled by 1.25, then a residual y - 0.1 * x.

Five eager kernels, each reading and writing 32 MiB; one fused kernel reads x once and writes y
once: a memory-bound fusion with a large ideal speedup.
"""
import torch
import torch.nn as nn

ROWS = 4096
COLS = 2048


class Model(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(cols) * 0.1)

    def forward(self, x):
        y = torch.tanh(x + self.bias)
        y = torch.clamp(y, -0.8, 0.8) * 1.25
        return y - 0.1 * x


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return [COLS]


# ---- HIERA candidate: custom_cuda.pointwise_chain (custom_cuda) --------------
# ---- HIERA custom_cuda: Fused pointwise kernel generated from the FX graph ----
# pointwise kernel fusing add, tanh, clamp, mul, mul_1, sub
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


def _hiera_pointwise(source, name, leaves, full, outputs):
    """Run a generated pointwise kernel over the broadcast shape of `leaves`. The shape analysis
    runs once per leaf signature: later calls take the cached plan (host time is most of a small
    kernel's call)."""
    key = _hiera_signature(source, name, leaves, outputs)
    plan = _HIERA_PLANS.get(key)
    device = leaves[0].device
    if plan is not None:
        shape, kernel, grid, n, cols, modes = plan
        outs = [torch.empty(shape, device=device, dtype=torch.float32) for _ in range(outputs)]
        _hiera_launch(kernel, device.index, grid, 256, 0, *_hiera_leaf_args(leaves, modes), *outs, n, cols)
        return outs
    shape = _hiera_broadcast(leaves)
    outs = [torch.empty(shape, device=device, dtype=torch.float32) for _ in range(outputs)]
    n = math.prod(shape)
    if n == 0:
        return outs
    reads, variant, work, cols = _hiera_flat(leaves, full, shape)
    grid = min(-(-work // 256), 32 * _hiera_sms(device.index))
    kernel = _hiera_kernel(source, f"{name}_{variant}", device.index)
    _hiera_launch(kernel, device.index, grid, 256, 0, *[v for r in reads for v in r], *outs, n, cols)
    _hiera_plan(key, reads, leaves, shape, kernel, grid, n, cols)
    return outs


_HIERA_SRC_0 = r"""
// HIERA pointwise kernel hiera_pointwise0: one pass, 2 inputs, 1 outputs

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
        default:
            // i is a multiple of 4: when inner is too, the four lanes share one broadcast element
            // (a per-channel value over H*W), so one division instead of four.
            if (inner % 4 == 0) { const float v = p[i / inner % extent]; return make_float4(v, v, v, v); }
            return make_float4(p[i / inner % extent], p[(i + 1) / inner % extent],
                               p[(i + 2) / inner % extent], p[(i + 3) / inner % extent]);
    }
}
__device__ __forceinline__ void hi_elem(const float l0, const float l1, float& o0) {
    const float t2 = l0 + l1;
    const float t3 = tanhf(t2);
    const float t4 = (t3 < -0.800000011920929f ? -0.800000011920929f : (t3 > 0.800000011920929f ? 0.800000011920929f : t3));
    const float t5 = t4 * 1.25f;
    const float t6 = 0.10000000149011612f * l0;
    const float t7 = t5 - t6;
    o0 = t7;
}

template <typename I, bool VEC>
__device__ __forceinline__ void hi_pointwise(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, float* __restrict__ o0, long long n_, long long cols_) {
    const I n = (I)n_, cols = (I)cols_;
    const I stride = (I)gridDim.x * blockDim.x;
    const I first = (I)blockIdx.x * blockDim.x + threadIdx.x;
    if (VEC) {
        for (I q = first; q < n / 4; q += stride) {
            const I i = q * 4;
            const I row = i / cols, j = i - row * cols;
            const float4 v0 = *reinterpret_cast<const float4*>(p0 + i);
            const float4 v1 = hi_ld4<I>(p1, (int)m1, i, row, j, (I)in1, (I)ex1);
            float4 r0;
            hi_elem(v0.x, v1.x, r0.x);
            hi_elem(v0.y, v1.y, r0.y);
            hi_elem(v0.z, v1.z, r0.z);
            hi_elem(v0.w, v1.w, r0.w);
            reinterpret_cast<float4*>(o0)[q] = r0;
        }
    } else {
        for (I i = first; i < n; i += stride) {
            const I row = i / cols, j = i - row * cols;
            const float v0 = p0[i];
            const float v1 = hi_ld<I>(p1, (int)m1, i, row, j, (I)in1, (I)ex1);
            hi_elem(v0, v1, o0[i]);
        }
    }
}
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_pointwise0_vec32)
extern "C" __global__ void __launch_bounds__(256) hiera_pointwise0_vec32(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, float* __restrict__ o0, long long n_, long long cols_) { hi_pointwise<unsigned int, true>(p0, m0, in0, ex0, p1, m1, in1, ex1, o0, n_, cols_); }
#endif
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_pointwise0_vec64)
extern "C" __global__ void __launch_bounds__(256) hiera_pointwise0_vec64(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, float* __restrict__ o0, long long n_, long long cols_) { hi_pointwise<long long, true>(p0, m0, in0, ex0, p1, m1, in1, ex1, o0, n_, cols_); }
#endif
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_pointwise0_scalar32)
extern "C" __global__ void __launch_bounds__(256) hiera_pointwise0_scalar32(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, float* __restrict__ o0, long long n_, long long cols_) { hi_pointwise<unsigned int, false>(p0, m0, in0, ex0, p1, m1, in1, ex1, o0, n_, cols_); }
#endif
#if !defined(HIERA_ENTRY) || defined(HIERA_ENTRY_hiera_pointwise0_scalar64)
extern "C" __global__ void __launch_bounds__(256) hiera_pointwise0_scalar64(const float* __restrict__ p0, long long m0, long long in0, long long ex0, const float* __restrict__ p1, long long m1, long long in1, long long ex1, float* __restrict__ o0, long long n_, long long cols_) { hi_pointwise<long long, false>(p0, m0, in0, ex0, p1, m1, in1, ex1, o0, n_, cols_); }
#endif
"""


class ModelNew(Model):
    def forward(self, x):
        # pointwise kernel: add, tanh, clamp, mul, mul_1, sub
        v_sub, = _hiera_pointwise(_HIERA_SRC_0, 'hiera_pointwise0', (x, self.bias,), (True, False), 1)
        return v_sub

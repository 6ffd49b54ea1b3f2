"""The expert-knowledge entries (see hiera_core.knowledge for the fields and retrieval)."""

from hiera_core.knowledge.entry import Entry

LAUNCH, MEMORY, COMPUTE = "launch-bound", "memory-bound", "compute-bound"
ALL_CLASSES = (LAUNCH, MEMORY, COMPUTE)
PT, LIBS, CUDA = "pytorch", "cuda_libs", "custom_cuda"

ENTRIES = (
    Entry(
        key="cuda-graphs", cuda_only=True,
        technique="Capture the forward in a CUDA graph",
        spaces=(PT,), classes=(LAUNCH,), ops=(),
        pays="many small kernels (tens of ops on KB-sized tensors): one graph launch replaces dozens of "
             "launches and the Python dispatch between them; typical 3-10x on launch-bound modules",
        not_when="shapes vary between calls (one graph per shape), the forward syncs with the host (.item(), "
                 "data-dependent control flow), or kernels are long enough that launch gaps are already hidden",
        hopper="launch latency is ~2-4 us per kernel on H100/H200, so a 30-op chain of tiny kernels wastes ~100 us "
               "that a graph removes; copy inputs into static buffers, replay, clone the outputs",
        example="""
g = torch.cuda.CUDAGraph()
static_x = x.clone(); torch.cuda.synchronize()
with torch.cuda.graph(g): static_out = body(static_x)
# per call: static_x.copy_(x); g.replay(); return static_out.clone()
"""),
    Entry(
        key="compile-reduce-overhead", cuda_only=True,
        technique="torch.compile(mode='reduce-overhead')",
        spaces=(PT,), classes=(LAUNCH, MEMORY), ops=("pointwise", "reduction", "norm", "softmax"),
        pays="inductor fuses pointwise and reduction chains into few Triton kernels and wraps them in CUDA graphs: "
             "fewer launches and fewer round trips through memory in one step",
        not_when="dynamic shapes (recompiles), graph breaks from Python-side logic, or when the work is one big "
                 "GEMM/conv the libraries already do near peak",
        hopper="Triton kernels on sm_90 reach 80-90% of HBM bandwidth for fused pointwise work; compile once in "
               "__init__ with dynamic=False so every call hits the cached graph",
        example="""
self._fn = torch.compile(self._forward, mode="reduce-overhead", dynamic=False)
def forward(self, x): return self._fn(x)
"""),
    Entry(
        key="pointwise-fusion-kernel",
        technique="Fuse a chain of elementwise ops into one kernel",
        spaces=(CUDA, PT), classes=(MEMORY, LAUNCH), ops=("pointwise",),
        pays="each eager op reads and writes the whole tensor; one fused kernel reads the inputs once and writes "
             "the output once: speedup ~ number of ops in the chain for large tensors",
        not_when="the chain is one op (nothing to fuse), or it is dominated by a GEMM/conv whose epilogue the "
                 "library can fuse instead",
        hopper="a fused fp32 elementwise kernel should reach ~3.5-4 TB/s of the H200's 4.8 TB/s; check "
               "(bytes read + written) / time against that",
        example="""
extern "C" __global__ void fused(const float* x, const float* b, float* y, long long n, long long cols) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    float v = x[i] + b[i % cols]; v = v > 0.f ? v : 0.f; y[i] = v * 0.5f;
  }
}
"""),
    Entry(
        key="vectorized-access",
        technique="128-bit vector loads and stores (float4)",
        spaces=(CUDA,), classes=(MEMORY,), ops=("pointwise", "reduction", "norm", "softmax", "copy"),
        pays="fewer memory instructions per byte; lifts elementwise kernels from ~60-70% to ~85-90% of bandwidth",
        not_when="the pointer is not 16-byte aligned or the row length is not a multiple of 4 (keep a scalar "
                 "tail/fallback path selected on the host), or the kernel is compute- or latency-bound",
        hopper="sm_90 also has 256-bit loads via two float4s per thread in flight; more bytes in flight per SM "
               "matters more than the instruction width once aligned",
        example="""
const float4* x4 = reinterpret_cast<const float4*>(x);
float4 v = x4[i];  v.x = fmaxf(v.x, 0.f); v.y = fmaxf(v.y, 0.f); v.z = fmaxf(v.z, 0.f); v.w = fmaxf(v.w, 0.f);
reinterpret_cast<float4*>(y)[i] = v;   // host: use this path only if n % 4 == 0 and ptr % 16 == 0
"""),
    Entry(
        key="grid-sizing",
        technique="Grid-stride loops with a grid sized to the GPU",
        spaces=(CUDA,), classes=(MEMORY, LAUNCH), ops=("pointwise", "copy"),
        pays="a grid of a few waves (e.g. 4-32 blocks per SM) with a grid-stride loop amortises block start-up and "
             "handles any n, including n > 2^31 with 64-bit indices",
        not_when="each thread does heavy work with data reuse across blocks (tiling decides the grid instead)",
        hopper="132 SMs on H100/H200 SXM: grid = min(ceil(n / 256), 132 * 8) blocks of 256 threads is a good start",
        example="""
grid = min((n + 255) // 256, torch.cuda.get_device_properties(0).multi_processor_count * 8)
"""),
    Entry(
        key="warp-shuffle-reduction",
        technique="Warp-shuffle tree reductions",
        spaces=(CUDA,), classes=(MEMORY,), ops=("reduction", "softmax", "norm"),
        pays="reduces 32 values in 5 register-to-register steps without shared memory or __syncthreads; the "
             "building block of every fast row reduction",
        not_when="the reduction runs over a strided (non-contiguous) dim: reduce across threads' columns instead "
                 "(see strided-dim-reduction)",
        hopper="the same __shfl_xor_sync tree; for block-wide results combine per-warp partials in shared memory "
               "(or in distributed shared memory across a thread-block cluster for very long rows)",
        example="""
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
"""),
    Entry(
        key="online-softmax",
        technique="Online (single-pass) softmax",
        spaces=(CUDA,), classes=(MEMORY,), ops=("softmax",),
        pays="computes the running max and the rescaled sum in one pass over the row, then writes once: 2 passes "
             "over memory instead of 3-4 for eager softmax",
        not_when="rows are tiny (< 32) and numerous: a warp per row with the row in registers is simpler and as fast",
        hopper="for rows that fit in shared memory/registers (<= ~8K floats per block), keep the row on chip after "
               "the first read and the second pass costs nothing",
        example="""
float m = -INFINITY, s = 0.f;
for (int j = lane; j < cols; j += 32) {
  float v = row[j]; float mn = fmaxf(m, v); s = s * __expf(m - mn) + __expf(v - mn); m = mn;
}
// combine (m, s) across the warp: s = s_a*exp(m_a-m) + s_b*exp(m_b-m); then out[j] = exp(row[j]-m)/s
"""),
    Entry(
        key="block-scan",
        technique="Cumulative sum/product: a block scan per row with a carried total, the prologue read in",
        spaces=(CUDA,), classes=(MEMORY, LAUNCH), ops=("reduction",),
        pays="cumsum(x * mask) or a reversed cumsum (flip, cumsum, flip) is 2-4 eager kernels and as many round "
             "trips; one kernel reads each input once, scans in registers and shuffles, and writes once",
        not_when="few rows of huge length (one block per row leaves SMs idle: a decoupled look-back or a "
                 "two-kernel scan of chunk totals is needed), or the scan is over a strided dim with few columns",
        hopper="4 elements a thread (a float4), __shfl_up_sync across the warp, one shared-memory hop across "
               "warps, a carry between tiles of blockDim*4; reverse by indexing from the row's end, not by copying",
        example="""
// tile of 4 per thread: v[1]+=v[0]; v[2]+=v[1]; v[3]+=v[2]; t = v[3]
for (int o = 1; o < 32; o <<= 1) { float u = __shfl_up_sync(~0u, t, o); if (lane >= o) t += u; }
// warp totals -> smem -> scanned by warp 0; prefix = carry + warp_prefix + shfl_up(t, 1)
// out[j] = prefix + v[k]; carry += tile_total
"""),
    Entry(
        key="norm-single-pass",
        technique="LayerNorm / RMSNorm: one block per row, statistics in registers",
        spaces=(CUDA,), classes=(MEMORY,), ops=("norm",),
        pays="one read of the row computes mean and variance (Welford or sum and sum of squares in fp32), a "
             "second pass (from registers or shared memory) applies weight and bias: ~2 bytes moved per output byte",
        not_when="the normalised dim is not the last, contiguous one (transpose or use the library), or rows are "
                 "so long that one block per row leaves SMs idle (split the row across a cluster or two kernels)",
        hopper="cache the row in shared memory (up to 227 KB per SM) when it is read twice; use float4 loads",
        example="""
// per row: s1 = sum(x), s2 = sum(x*x) via warp_sum + smem; mean = s1/n; var = s2/n - mean*mean
// y = (x - mean) * rsqrtf(var + eps) * w + b    // RMSNorm: y = x * rsqrtf(s2/n + eps) * w
"""),
    Entry(
        key="block-row-reduction",
        technique="Match the reduction layout to the row length",
        spaces=(CUDA,), classes=(MEMORY,), ops=("reduction", "softmax", "norm"),
        pays="warp per row for rows <= ~1K elements (no shared memory, no barriers), block per row for 1K-32K, "
             "several blocks per row plus a second pass beyond that: every SM stays busy",
        not_when="there are fewer rows than SMs and rows are short: the whole reduction is launch-bound, fuse it "
                 "with neighbours instead",
        hopper="with 132 SMs, fewer than ~264 rows of a block each underfills the GPU; split long rows",
        example="""
// rows x cols: cols <= 1024 -> 1 warp/row, 8 rows per 256-thread block
// cols >  1024 -> 1 block/row, threads = min(1024, next_pow2(cols/4))
"""),
    Entry(
        key="strided-dim-reduction",
        technique="Reduce over a non-last dim with coalesced loads",
        spaces=(CUDA,), classes=(MEMORY,), ops=("reduction", "norm"),
        pays="when reducing dim d of (outer, d, inner), let consecutive threads own consecutive `inner` columns and "
             "loop over d: every load is coalesced, no transpose needed",
        not_when="inner == 1 (that is a row reduction) or inner is tiny (< 32: use a warp per output and accept "
                 "strided loads, or transpose once)",
        hopper="split d across blocks (grid.z) and finish with a second small kernel when outer * inner is too "
               "small to fill 132 SMs",
        example="""
// thread t of block (bx, o): column c = bx*blockDim.x + t
float acc = 0.f; for (int k = 0; k < d; ++k) acc += x[(o*d + k)*inner + c];
"""),
    Entry(
        key="deterministic-reductions",
        technique="Deterministic reductions (no float atomics)",
        spaces=(CUDA,), classes=ALL_CLASSES, ops=("reduction", "norm", "softmax", "matmul"),
        pays="HIERA calls each candidate twice and rejects results that differ; a fixed reduction tree (per-block "
             "partials written to a buffer, then one finishing kernel) is deterministic and as fast",
        not_when="integer atomics (counts, histograms) are exact and deterministic: those are fine",
        hopper="atomicAdd on float in global memory is fast on sm_90 but its order varies run to run; keep it out of "
               "outputs that are compared exactly",
        example="""
// pass 1: partial[blockIdx.x] = block_sum(...);   pass 2: one block sums partial[0..grid) in a fixed order
"""),
    Entry(
        key="smem-tiled-stencil",
        technique="Shared-memory tiled stencils with halos",
        spaces=(CUDA,), classes=(MEMORY,), ops=("conv", "pool", "pointwise"),
        pays="each input point is read from global memory once per tile instead of once per neighbour: a 3x3 "
             "depthwise conv or 5/7-point stencil goes from ~9 reads to ~1.2 reads per output",
        not_when="the channel mixing is dense (a real convolution with many input channels: cuDNN's implicit GEMM "
                 "wins), or the tile halo is large relative to the tile",
        hopper="load tiles with cp.async (or TMA) into shared memory to overlap the next tile's load with compute; "
               "tiles of 32x8 threads with 4-8 outputs per thread along y keep enough bytes in flight",
        example="""
__shared__ float tile[BY + 2][BX + 2];
// load (BX+2)x(BY+2) including halo, __syncthreads(), then
// out = c*t[y][x] + n*(t[y-1][x] + t[y+1][x] + t[y][x-1] + t[y][x+1])
"""),
    Entry(
        key="register-streaming-3d",
        technique="3D stencils: 2.5D blocking with a register queue along z",
        spaces=(CUDA,), classes=(MEMORY,), ops=("conv", "pointwise"),
        pays="a 2D tile in x-y marches along z, keeping the z-1, z, z+1 planes' values in registers: each input "
             "point is loaded about once; the standard way to reach bandwidth on 7-point and 27-point stencils",
        not_when="the z extent is tiny (< 8 planes): plain 3D tiles are simpler",
        hopper="split z into chunks across blocks so 132 SMs are busy (grid.z = volumes * chunks)",
        example="""
float below = in(x, y, z0 - 1), here = in(x, y, z0), above;
for (int z = z0; z < z1; ++z) {
  above = in(x, y, z + 1);                  // x-y neighbours of `here` come from shared memory
  out(x, y, z) = f(below, here, above, ...); below = here; here = above;
}
"""),
    Entry(
        key="pooling-one-thread-per-output",
        technique="Pooling: one thread per output, window in registers",
        spaces=(CUDA,), classes=(MEMORY,), ops=("pool",),
        pays="max/avg pooling reads each input a handful of times from L1/L2 at most; a flat grid over outputs "
             "with the window loop unrolled reaches most of the bandwidth",
        not_when="the pooling is followed by ops that could be fused into the same kernel (then fuse), or it is "
                 "global/adaptive pooling (that is a reduction)",
        hopper="for channels_last inputs make the channel the fastest thread index for coalesced loads",
        example="""
// out index -> (plane, oy, ox); m = -INF
// for ky, kx: iy = oy*s - p + ky*d, ix likewise; if in bounds: m = fmaxf(m, x[plane][iy][ix])
"""),
    Entry(
        key="gemm-use-libraries",
        technique="Leave GEMMs to cuBLAS/cuBLASLt; optimise around them",
        spaces=(LIBS, CUDA, PT), classes=(COMPUTE,), ops=("matmul",),
        pays="library GEMMs run near the tensor-core peak; the gains are in what surrounds them: fused epilogues, "
             "avoided transposes, batched small GEMMs",
        not_when="the GEMM is tiny (launch-bound) or skinny (matrix-vector: memory-bound, a custom kernel or "
                 "fusion with neighbours can win)",
        hopper="sm_90 GEMMs use WGMMA and TMA; a hand-written CUDA-core GEMM reaches < 10% of them. Strict fp32 "
               "runs on CUDA cores (67 TFLOP/s); TF32 (495) only when the precision policy allows",
        example="""
y = torch.addmm(bias, x, w.t())           # bias fused into the GEMM
y = torch._addmm_activation(bias, x, w.t(), use_gelu=False)   # bias + ReLU epilogue
"""),
    Entry(
        key="fused-epilogue",
        technique="Fuse the GEMM/conv epilogue (bias, activation, scale, residual)",
        spaces=(LIBS, CUDA, PT), classes=(COMPUTE, MEMORY), ops=("matmul", "conv", "pointwise"),
        pays="after a GEMM or conv, the bias/activation/scale chain costs a full read and write of the output per "
             "eager op; one epilogue pass (library-fused or a single custom kernel) removes them",
        not_when="the output is small relative to the GEMM's FLOPs (the epilogue is already negligible)",
        hopper="cuBLASLt epilogues (bias, ReLU, GELU) are free inside the GEMM; for anything else one fused "
               "elementwise kernel after the GEMM",
        example="""
y = F.linear(x, self.w, self.b)           # GEMM + bias in cuBLASLt
y = fused_relu_scale_residual(y, s, r)    # one custom kernel for the rest
"""),
    Entry(
        key="tf32-when-allowed", cuda_only=True,
        technique="TF32 / bf16 tensor-core math, only when the precision policy allows it",
        spaces=(LIBS, PT), classes=(COMPUTE,), ops=("matmul", "conv", "attention"),
        pays="TF32 is ~7x the strict-fp32 peak on Hopper; bf16 ~15x; for GEMM/conv-heavy modules this is the "
             "largest single lever",
        not_when="the spec's precision policy is strict (the default): then fp32 math is part of the contract and "
                 "verification uses fp32 tolerances, which TF32 results can fail",
        hopper="torch.backends.cuda.matmul.allow_tf32 / cudnn.allow_tf32 switch it; set them in __init__ only if the "
               "contract says tf32",
        example="""
if precision_policy == "tf32": torch.backends.cuda.matmul.allow_tf32 = True
"""),
    Entry(
        key="cudnn-benchmark", cuda_only=True,
        technique="Let cuDNN pick the fastest convolution algorithm",
        spaces=(LIBS,), classes=(COMPUTE, MEMORY), ops=("conv",),
        pays="with static shapes, cudnn.benchmark times the algorithms once and keeps the fastest: often 1.2-2x on "
             "convs whose default heuristic choice is poor",
        not_when="shapes change every call (it re-benchmarks) or the conv is a depthwise/stencil-like one where a "
                 "custom tiled kernel wins",
        hopper="cuDNN 9 on sm_90 has implicit-GEMM kernels on tensor cores for NHWC; combine with channels_last",
        example="""
torch.backends.cudnn.benchmark = True     # in __init__; first call pays the search
"""),
    Entry(
        key="channels-last",
        technique="channels_last (NHWC) memory format for convolutions",
        spaces=(LIBS, PT), classes=(COMPUTE, MEMORY), ops=("conv", "pool", "norm"),
        pays="tensor-core conv kernels are NHWC-native; NCHW inputs get transposed inside every conv. Converting "
             "weights once and keeping activations NHWC through a conv stack removes those transposes",
        not_when="a single conv on an NCHW input whose output must be NCHW: the two conversions cost more than "
                 "they save",
        hopper="NHWC plus benchmark mode selects the sm_90 implicit-GEMM kernels",
        example="""
self.conv = self.conv.to(memory_format=torch.channels_last)
y = self.conv(x.contiguous(memory_format=torch.channels_last)).contiguous()
"""),
    Entry(
        key="sdpa-rewrite",
        technique="Replace explicit attention with scaled_dot_product_attention",
        spaces=(PT, LIBS), classes=(COMPUTE, MEMORY), ops=("attention", "matmul", "softmax"),
        pays="Q@K^T, softmax and @V written out materialise the (L x L) score matrix; SDPA's flash/memory-efficient "
             "kernels never do: large wins for long sequences, exact in fp32 within tolerance",
        not_when="the mask or scaling is unusual and cannot be expressed as attn_mask/is_causal/scale, or L is tiny",
        hopper="FlashAttention-style kernels on sm_90 use WGMMA/TMA in half precision; in fp32 the memory-efficient "
               "kernel runs, still avoiding the L x L tensor",
        example="""
out = F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=self.scale)
"""),
    Entry(
        key="smem-transpose",
        technique="Transposes and permutes through padded shared-memory tiles",
        spaces=(CUDA,), classes=(MEMORY,), ops=("copy", "view"),
        pays="a naive transpose has either uncoalesced reads or writes; a 32x32 tile read by rows and written by "
             "columns (with one column of padding against bank conflicts) makes both coalesced",
        not_when="the permute only changes a view that the next op can consume with strides (no copy needed at all)",
        hopper="TMA can do the tile copies in hardware on sm_90; the padded-tile kernel is still within ~90% of copy "
               "bandwidth",
        example="""
__shared__ float t[32][33];
t[ty][tx] = in[(by*32 + ty)*n + bx*32 + tx]; __syncthreads(); out[(bx*32 + ty)*m + by*32 + tx] = t[tx][ty];
"""),
    Entry(
        key="coalescing",
        technique="Map the contiguous dim to consecutive threads",
        spaces=(CUDA,), classes=(MEMORY, COMPUTE), ops=(),
        pays="a warp's 32 loads of consecutive addresses become one 128-byte transaction; strided patterns cost up "
             "to 32x the memory traffic",
        not_when="never a loss; when the contiguous dim is tiny, vectorise across it and put the next dim on threads",
        hopper="the L2 is 50-60 MB: uncoalesced access may hide in small tests and fall apart at full size",
        example="""
// (rows, cols) row-major: thread index -> column, block/loop -> row. Never thread -> row with a loop over columns.
"""),
    Entry(
        key="remove-redundant-work",
        technique="Algebraic simplification: remove work the output does not need",
        spaces=(PT, CUDA, LIBS), classes=ALL_CLASSES, ops=(),
        pays="reference modules often compute things twice, keep dead branches, or use a general op where a "
             "cheaper one is exact (log(softmax) -> log_softmax, x*1, a mean of a constant, repeated transposes); "
             "removing them is free speed",
        not_when="the 'simplification' changes numerics beyond the tolerance (reassociating long fp32 sums, "
                 "dropping an epsilon)",
        hopper="no special concerns; fewer kernels matter most when the workload is launch-bound",
        example="""
# reference: torch.log(torch.softmax(x, -1))   ->   torch.log_softmax(x, -1)   (also more accurate)
"""),
    Entry(
        key="no-host-sync",
        technique="Keep the forward free of host synchronisation",
        spaces=(PT, CUDA, LIBS), classes=(LAUNCH, MEMORY, COMPUTE), ops=(),
        pays=".item(), .cpu(), printing tensors, Python conditionals on tensor values and nonzero() stall the CPU "
             "until the GPU drains, so the next launches cannot queue; removing them restores overlap",
        not_when="the output shape genuinely depends on the data (then sync once, as late as possible)",
        hopper="at ~3 us per launch the CPU must stay ahead of the GPU; a single sync per call can double the "
               "time of a launch-bound module",
        example="""
# instead of: if (x > 0).any(): ...   use torch.where(...) and keep the decision on the GPU
"""),
    Entry(
        key="occupancy-registers",
        technique="Balance registers, shared memory and occupancy",
        spaces=(CUDA,), classes=(MEMORY, COMPUTE), ops=(),
        pays="memory-bound kernels need enough warps (or enough bytes in flight per warp) to hide latency: keep "
             "registers under ~64 per thread and avoid spills; __launch_bounds__ tells the compiler the block size",
        not_when="a compute-bound tiled kernel deliberately trades occupancy for register blocking; spills are the "
                 "signal to stop",
        hopper="sm_90: 64K registers and up to 227 KB shared memory per SM, max 64 warps per SM; a 256-thread "
               "block at 64 registers fits 4 blocks (full occupancy). ptxas -v spills mean local-memory traffic",
        example="""
extern "C" __global__ void __launch_bounds__(256) k(...) { ... }   // check: ptxas reports regs, spills
"""),
    Entry(
        key="reduction-epilogue-fusion",
        technique="Fuse a reduction with its prologue and epilogue",
        spaces=(CUDA, PT), classes=(MEMORY, LAUNCH), ops=("reduction", "pointwise", "norm", "softmax"),
        pays="x - x.mean(-1, keepdim=True), then scaling, activation and a residual: one row kernel computes the "
             "statistic and applies the whole epilogue while the row is on chip, instead of 4-6 passes over memory",
        not_when="the reduction result is used far away in the graph (keep it a separate small kernel)",
        hopper="keep the row in registers/shared memory between the reduction and the epilogue",
        example="""
// per row: m = row_sum(x)/cols; for j: y[j] = tanh((x[j] - m) * s) + r[j];   // one read of x and r, one write
"""),
    Entry(
        key="batch-small-gemms",
        technique="Batch many small GEMMs into one bmm or one larger GEMM",
        spaces=(LIBS, PT), classes=(LAUNCH, COMPUTE), ops=("matmul",),
        pays="several GEMMs sharing an input (Q, K, V projections; gates of an MLP) become one GEMM with "
             "concatenated weights: one launch, better tensor-core utilisation",
        not_when="the weights must stay separate parameters: concatenate them in forward (cheap for small "
                 "weights) or keep separate GEMMs; state_dict keys must not change",
        hopper="tiny GEMMs (< 1 MFLOP) are launch-bound on H200; batching is worth more than any tiling choice",
        example="""
w = torch.cat([self.q.weight, self.k.weight, self.v.weight]);  q, k, v = F.linear(x, w).chunk(3, dim=-1)
"""),
    Entry(
        key="nvrtc-kernel-module",
        technique="Custom kernels compiled at run time with NVRTC, launched on torch's stream",
        spaces=(CUDA,), classes=ALL_CLASSES, ops=(),
        pays="sub-second compiles (cached on disk), no C++ build: kernels live in a Python string, compile on "
             "first use for the current GPU, and run on torch.cuda.current_stream() so ordering with torch ops "
             "is preserved",
        not_when="the kernel needs torch's C++ API (build an extension with _hiera_extension), or a library call "
                 "already does the job",
        hopper="compile for the device's own arch (sm_90 on H100/H200); declare kernels extern \"C\" so they are "
               "found by name",
        example="""
SRC = r'''extern "C" __global__ void relu(const float* x, float* y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i < n) y[i] = fmaxf(x[i], 0.f); }'''
y = torch.empty_like(x); d = x.device.index
_hiera_launch(_hiera_kernel(SRC, "relu", d), d, (n + 255) // 256, 256, 0, x, y, n)
"""),
    Entry(
        key="inductor-max-autotune",
        technique="torch.compile(mode='max-autotune') for GEMM-heavy graphs",
        spaces=(PT,), classes=(COMPUTE,), ops=("matmul", "conv"),
        pays="inductor benchmarks Triton GEMM templates against cuBLAS and fuses the epilogue into the winner",
        not_when="compile time matters (minutes), or the GEMMs are already plain cuBLAS calls with nothing to fuse",
        hopper="Triton's sm_90 templates use WGMMA; gains concentrate in odd shapes and fused epilogues",
        example="""
self._fn = torch.compile(self._forward, mode="max-autotune", dynamic=False)
"""),
    Entry(
        key="avoid-materialised-broadcasts",
        technique="Avoid materialising broadcasts and intermediate copies",
        spaces=(PT, CUDA), classes=(MEMORY, LAUNCH), ops=("pointwise", "copy", "view"),
        pays="expand().contiguous(), repeat, cat of slices and .clone() of temporaries each cost a full write and "
             "read; broadcasting inside the op (or indexing the small operand in the kernel) costs nothing",
        not_when="the consumer needs a contiguous layout (a GEMM on a transposed view may copy anyway)",
        hopper="at 4+ TB/s a 256 MB temporary still costs ~120 us; it is the bytes, not the op count, that matter "
               "on memory-bound work",
        example="""
# instead of: b = self.bias.view(1, -1).expand_as(x).contiguous(); y = x + b
y = x + self.bias          # broadcast without a copy
"""),
)

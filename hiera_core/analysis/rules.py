"""The rule table: every code `hiera-lsp --check` and the editor can report.

`HC0xx` are about the file itself, `HC1xx` are CUDA rules (tree-sitter-cuda), `HC2xx` contract
rules (proposal headers, `# hiera:` directives, `// hiera:` annotations in `.cu` files). The
explanations are repeated, with bad/good examples, in docs/rules.md (a test keeps them equal).
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_core.analysis.findings import Finding, Span


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: str  # default severity; [tool.hiera.check.severity] can override it
    summary: str  # one line
    explanation: str  # one paragraph
    default: bool = True  # runs unless deselected; False: only when --select / select names it


_TABLE = (
    Rule("HC001", "unreadable-file", "error", "The file could not be read.",
         "The path names something that cannot be read as a file: a directory, a broken symlink, a "
         "symlink loop, a file without read permission, or a path that does not exist. Nothing in it "
         "was checked; the other files still are."),
    Rule("HC002", "not-utf8", "warning", "The file is not valid UTF-8.",
         "Sources are read as UTF-8. The file was still analysed on its bytes, but columns after the "
         "first invalid byte may be off and nvcc or Python may reject it. Save it as UTF-8."),
    Rule("HC003", "syntax-error", "error", "The Python file does not parse.",
         "Python rejects the file with a syntax error here, so HIERA cannot import or run its modules. "
         "The other rules still see what the parser could read, and names defined below the error "
         "(such as get_inputs) still count. `python -m py_compile FILE` shows the same error."),
    Rule("HC101", "unguarded-global-index", "warning",
         "Global memory indexed by a global thread index without a bounds guard.",
         "A kernel reads or writes a pointer parameter (global memory) at an index computed from "
         "blockIdx and threadIdx (directly or through local variables), and no enclosing `if`, loop condition, "
         "ternary or earlier early `return` compares any variable of that index with a bound. The grid "
         "is almost always rounded up to whole blocks, so the last block runs past the end of the "
         "tensor: an out-of-bounds access that corrupts memory or faults. Guard the access with the "
         "element count (`if (i < n)`) or use a loop whose condition bounds the index. Kernels that the "
         "file launches only with exact grids (constant grid and block, or `n / B` blocks of B threads "
         "where the file makes n a multiple of B, e.g. `static_assert(N % B == 0)`, or grids that are not "
         "computed by a division, like `<<<rows, cols>>>`) are not reported. `&&` and `||` guard their right "
         "operand: `i < n && x[i] > 0` is guarded. A 2D index needs each thread coordinate bounded, and an "
         "index past what its guard bounds (`if (i < n) y[i + 1] = ...`, an unrolled or paired tail) is "
         "reported too, as is one past a bound named as a count (`n`, `len`, `size`, `num_*`, `*_count`...): "
         "`if (i <= n)`, or an early `if (i > n) return;`, lets the thread at `i == n` through (unless an exit "
         "on `i == n` comes first); an inclusive bound (`last`, `n - 1`) is not."),
    Rule("HC102", "divergent-barrier", "error",
         "`__syncthreads()` under thread-dependent control flow.",
         "A block-wide barrier (`__syncthreads`, `__syncthreads_count/and/or`) sits inside an `if`, "
         "loop or ternary whose condition depends on threadIdx. Threads that take the other path never "
         "arrive, which is undefined behaviour: the block may hang or continue with half-written "
         "shared memory. Move the barrier out of the conditional and make only the work conditional."),
    Rule("HC103", "barrier-after-divergent-exit", "warning",
         "`__syncthreads()` after a thread-dependent early return.",
         "Some threads of the block may already have returned (`if (i >= n) return;`) when the others "
         "reach a later `__syncthreads()`. The CUDA programming guide makes a barrier that not all "
         "threads of the block reach undefined. Keep every thread alive until the last barrier and "
         "guard the loads and stores instead of returning early. Returns of whole blocks (`if "
         "(blockIdx.x >= n) return;`), returns after the last barrier, and returns inside a branch or "
         "loop that the barrier is not in are not reported."),
    Rule("HC104", "divergent-warp-intrinsic", "warning",
         "Full-mask warp intrinsic under lane-dependent control flow.",
         "A warp-synchronous intrinsic with the full mask (`__shfl_*_sync(0xffffffff, ...)`, "
         "`__ballot_sync`, `__syncwarp()`, ...) is reached under a condition that differs between "
         "lanes of one warp (for example `if (lane < n)` or after `if (i >= n) return;`). Every lane "
         "named in the mask must execute the intrinsic, so inactive lanes make it undefined. Hoist the "
         "intrinsic out of the branch, or pass the mask of the lanes that are active "
         "(`__ballot_sync(0xffffffff, pred)` taken before the branch)."),
    Rule("HC105", "block-size-too-large", "error",
         "Block size above the hardware limit of 1024 threads.",
         "A launch (or `__launch_bounds__`) asks for more than 1024 threads per block, or for a block "
         "dimension above its limit (x and y: 1024, z: 64). Such a launch fails with "
         "`cudaErrorInvalidConfiguration` and the kernel never runs."),
    Rule("HC106", "block-size-not-warp-multiple", "warning",
         "Block size that is not a multiple of 32.",
         "Threads are scheduled in warps of 32. A block of, say, 100 threads occupies 4 warps and "
         "leaves 28 lanes idle, and code that assumes whole warps (warp reductions, `tid / 32`) "
         "silently misbehaves. Use a multiple of 32 (a single-thread launch `<<<1, 1>>>` is exempt)."),
    Rule("HC107", "static-shared-over-48k", "error",
         "More than 48 KB of static shared memory in one kernel.",
         "Statically sized `__shared__` arrays of one kernel add up to more than 48 KB (49152 bytes), "
         "which ptxas rejects (`uses too much shared data`). Larger shared memory must be dynamic: "
         "declare `extern __shared__` and opt in with `cudaFuncSetAttribute(kernel, "
         "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)`."),
    Rule("HC108", "dynamic-shared-without-opt-in", "error",
         "Launch with more than 48 KB of shared memory without the opt-in attribute.",
         "A launch passes a literal dynamic shared-memory size that, with the kernel's static shared "
         "memory, exceeds 48 KB, and the file never calls `cudaFuncSetAttribute(kernel, "
         "cudaFuncAttributeMaxDynamicSharedMemorySize, ...)` for that kernel. Without the opt-in the "
         "launch fails with an invalid-argument error."),
    Rule("HC109", "launch-exceeds-launch-bounds", "error",
         "Launch block size larger than the kernel's `__launch_bounds__`.",
         "The kernel promises the compiler at most N threads per block with `__launch_bounds__(N)`, "
         "and the compiler allocates registers for that; a launch with more threads fails with "
         "`cudaErrorLaunchOutOfResources` or `invalid configuration`. Launch with at most N threads or "
         "raise the bound."),
    Rule("HC110", "unchecked-launch", "warning",
         "Kernel launch in a torch extension not followed by an error check.",
         "In a torch extension, a kernel launch (`<<<...>>>` or `cudaLaunchKernel`) is not followed, "
         "before the next launch or the end of the function, by `C10_CUDA_KERNEL_LAUNCH_CHECK()` or a "
         "`cudaGetLastError()`/`cudaPeekAtLastError()` check. A bad configuration then fails silently "
         "and the error surfaces later in an unrelated operation, or never."),
    Rule("HC111", "double-in-float-kernel", "warning",
         "Double-precision literal or math in a float kernel.",
         "A GPU function that works on `float` uses a double literal (`0.5` instead of `0.5f`) in "
         "arithmetic, or calls a math function with an integer or double argument (`pow(x, 2)`), "
         "which promotes the computation to double. Double throughput is 1/2 to 1/64 of float on GPUs "
         "and the conversions cost registers. Write `f`-suffixed literals and float arguments."),
    Rule("HC112", "legacy-warp-intrinsic", "error",
         "Deprecated warp intrinsic without `_sync`.",
         "`__shfl`, `__shfl_up`, `__shfl_down`, `__shfl_xor`, `__ballot`, `__any` and `__all` were "
         "deprecated in CUDA 9 and are not available for compute capability 7.0 and later: the file "
         "does not compile for current GPUs, and their implicit warp-synchronous assumption is wrong "
         "under independent thread scheduling. Use the `_sync` variants with an explicit mask."),
    Rule("HC113", "int32-index-overflow", "warning",
         "32-bit arithmetic on a count that can exceed 2^31.",
         "A product of three or more 32-bit extents (`b * T * C` with int b, T and C) is computed in 32 "
         "bits, as a global-memory index or stored in an `int`, or a 64-bit element count (`x.numel()`, a "
         "product of `x.size(i)`) is stored in a 32-bit integer. Past 2^31 elements the value wraps and "
         "the kernel reads or writes the wrong memory. Products of two extents and the usual `int i = "
         "blockIdx.x * blockDim.x + threadIdx.x` are not reported: they exceed 2^31 only for grids larger "
         "than real tensors need. Widen the first factor: `(int64_t)b * T * C`, and keep counts in int64_t."),
    Rule("HC114", "unchecked-data-ptr", "warning",
         "`data_ptr<T>()` on a tensor whose dtype, device and contiguity are not checked first.",
         "A raw pointer is taken from a tensor (`data_ptr`, `mutable_data_ptr`, `const_data_ptr`, "
         "`data`) and handed to a kernel, but nothing before it checks the tensor's dtype "
         "(`scalar_type()`, `dtype()`, `AT_DISPATCH_*`), device (`is_cuda()`, `device()`) and "
         "contiguity (`is_contiguous()`, `.contiguous()`), directly, through a `CHECK_*` macro (of the "
         "file, a local header or the extension's other files), or in every caller of the function in "
         "the extension's files (the `.cpp` binding usually checks). A typed `data_ptr<T>()` checks the "
         "dtype itself. A CPU or strided tensor then becomes a wild pointer on the GPU. Tensors created "
         "in the function (`torch::empty`, `empty_like`, ...) count as checked."),
    Rule("HC115", "missing-restrict", "info",
         "Kernel pointer parameter without `__restrict__` (off by default).",
         "A kernel takes several pointers and this one is not `__restrict__`, so the compiler must "
         "assume it may alias the others: it reloads values after every store and cannot use the "
         "read-only data cache. If the buffers never overlap, declare the pointers `__restrict__`. "
         "A hint, not a defect: it runs only when selected (`--select HC115`).", default=False),
    Rule("HC116", "kernel-not-analysed", "info",
         "A kernel hidden behind a macro or a parse error was not analysed.",
         "tree-sitter does not expand macros: a `__global__` function generated by a function-like "
         "macro, or one inside a region the parser could not read, is invisible to the other rules. "
         "The rest of the file is still checked. Write the kernel without the macro if you want it "
         "checked, or ignore this finding."),
    Rule("HC117", "shared-race-no-barrier", "error",
         "Shared memory written by one thread and read by another with no barrier between.",
         "A thread reads an element of a `__shared__` array that another thread of the block wrote "
         "(`s[threadIdx.x] = v;` then `s[threadIdx.x + 1]`, or `if (tid == 0) s[0] = v;` then `s[0]` "
         "by all), and no `__syncthreads()` (or other barrier) runs between the write and the read. "
         "Threads run in any order, so the reader may see the old value: a data race. Put "
         "`__syncthreads()` between the write and the read."),
    Rule("HC118", "floor-divided-grid", "warning",
         "A grid size `n / B` that rounds down and leaves the tail without threads.",
         "A launch's grid dimension is `n / B` (B a constant) with no rounding up, and the file neither "
         "makes n a known multiple of B nor asserts it (`static_assert(N % B == 0)`, `TORCH_CHECK(n % B "
         "== 0)`). The last `n % B` elements then get no thread and are silently left unprocessed. "
         "Round up, `(n + B - 1) / B`, and guard the index in the kernel. Kernels with a grid-stride "
         "loop are not reported."),
    Rule("HC119", "uninitialised-shared-read", "error",
         "A `__shared__` array is read but never written.",
         "The kernel reads a `__shared__` array that no code of the file stores into, takes the address "
         "of, or passes on: shared memory is not initialised, so every read returns garbage left by an "
         "earlier block. Store into the array (and `__syncthreads()`) before reading it, or read the "
         "global memory it was meant to cache."),
    Rule("HC120", "atomic-unsupported-on-arch", "error",
         "An atomic operation that the target architecture does not have.",
         "With a target architecture set (`--arch sm_52` or `[tool.hiera.check] arch`), an `atomicAdd` "
         "works on a type the architecture lacks: `double` and `__half2` need sm_60, `__half` sm_70, "
         "`__nv_bfloat16` and `__nv_bfloat162` sm_80, `float2`/`float4` sm_90; `atomicAdd_block` and "
         "`atomicAdd_system` need sm_60. nvcc rejects the file for that target. Calls inside `#if "
         "__CUDA_ARCH__ ...` blocks, and files that define their own `atomicAdd`, are not reported. "
         "Without a target architecture the rule does not run."),
    Rule("HC121", "partial-shuffle-mask", "warning",
         "A warp intrinsic whose constant mask does not match the lanes that run it.",
         "A `__shfl_*_sync` (or other `_sync` warp intrinsic) passes a constant mask that is not the "
         "full warp, but its offsets exchange with lanes outside the mask (`__shfl_down_sync(0xffff, v, "
         "16)`), or all 32 lanes (or lanes 0..K-1 under `if (lane < K)`) execute it. Each lane that calls "
         "it must be in the mask and each lane of the mask must call it, or the result is undefined. Pass "
         "the mask of the lanes that execute the call (0xffffffff for a full warp)."),
    Rule("HC201", "proposal-stale", "warning",
         "The proposal's reference changed since it was verified.",
         "The header of a `<stem>_hiera.py` proposal records the sha256 of its reference file. The "
         "reference on disk no longer matches (or no longer exists), so the proposal was verified "
         "against code that is gone. Re-run `hiera optimize` or `hiera verify` on the reference."),
    Rule("HC202", "proposal-hand-edited", "warning",
         "The proposal was edited after verification.",
         "The body of the proposal no longer matches the `body-sha256` recorded in its header: it was "
         "changed after HIERA verified it, so the recorded verification and speedup no longer apply. "
         "Re-run `hiera verify` on it, or revert the edit."),
    Rule("HC203", "proposal-unverified", "warning",
         "The proposal has no passing verification record.",
         "The header's `verification` field is missing or does not start with `passed`: the module "
         "was never shown to match its reference. Run `hiera verify` before relying on it."),
    Rule("HC204", "directive-missing-function", "error",
         "A `# hiera:` directive names a function that the file does not define.",
         "`# hiera: inputs=NAME` and `init=NAME` must name functions defined at the top level of the "
         "same file (they build the forward inputs and constructor arguments). The named one is not "
         "there, so the module cannot be optimized. Define it or fix the name."),
    Rule("HC205", "directive-invalid", "error",
         "A malformed `# hiera:` directive.",
         "A `# hiera:` directive line has an unknown key, an item that is not `key=value`, a bad "
         "`dynamic` item (must be NAME:DIM) or an unknown precision, or it is not directly above a "
         "class (directives belong to the class right below them, with no blank line between)."),
    Rule("HC206", "directive-unknown-input", "error",
         "`# hiera: dynamic=` names an argument that forward() does not take.",
         "`dynamic=NAME:DIM` declares a dimension of a forward() input as varying at run time; "
         "verification then varies it. NAME is not a parameter of the class's forward(), so the "
         "declaration would be ignored. Use the parameter's name."),
    Rule("HC207", "duplicate-module-class", "error",
         "Two module classes of the file have the same name.",
         "Two top-level `nn.Module` classes share a name, so Python keeps only the last one and the "
         "first is dead code: HIERA (and anyone importing the file) would optimize a class other than "
         "the one written first. Rename or delete all but one; a rewrite of `Model` is named `ModelNew`."),
    Rule("HC210", "annotation-invalid", "error",
         "A `// hiera:` annotation in a `.cu` file cannot be read.",
         "Contract annotations sit in the comment lines directly above a `__global__` function: "
         "`// hiera: requires EXPR` (a C condition over the kernel's integer parameters, e.g. `n % 4 "
         "== 0`) and `// hiera: block N[xM[xK]]` (the block shape the kernel is written for). This one "
         "has an unknown key, a syntax error, names something that is not a parameter, or is not "
         "attached to a kernel."),
    Rule("HC211", "annotation-violated", "error",
         "A literal launch violates the kernel's `// hiera:` contract.",
         "The kernel declares `// hiera: block ...` or `// hiera: requires ...`, and a launch in the "
         "same file whose configuration or arguments are literal (or constants) breaks it: a "
         "different block shape, or argument values for which the condition is false."),
)

RULES: dict[str, Rule] = {rule.code: rule for rule in _TABLE}


def finding(code: str, message: str, path: str, span: Span, hint: str = "") -> Finding:
    """A finding of rule `code` at its default severity (configuration may change it later)."""
    return Finding.at(code, RULES[code].severity, message, path, span, hint)

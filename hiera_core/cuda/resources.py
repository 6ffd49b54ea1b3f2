"""Per-kernel resources (registers, spills, stack, shared memory) and theoretical occupancy.

Source of the numbers: ptxas's verbose report, which NVRTC puts in its program log when given
`--ptxas-options=-v` (every `hiera_core.cuda.nvrtc` compile does). This needs no GPU, no driver and
no binary besides the NVRTC library, unlike `cuobjdump --dump-resource-usage` (not shipped in the
pip CUDA wheels) or `nvcc -Xptxas -v` (a full toolkit install). Dynamic shared memory is a launch
parameter, so it comes from the caller (a candidate's launch plan, or `--dyn-smem`).

Occupancy follows the CUDA occupancy calculator: the blocks per SM allowed by warps, registers
(allocated per warp in units of 256), shared memory (128-byte units plus 1 KiB reserved per
block) and the per-SM block limit; the smallest wins and is named as the limiter.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import asdict, dataclass, field

from hiera_core.analysis import cexpr
from hiera_core.cuda.nvrtc import CompileResult, SourceOrigin, compile_cuda

DEFAULT_BLOCK = 256


@dataclass(frozen=True)
class SmLimits:
    max_warps: int
    max_blocks: int
    smem_per_sm: int  # bytes usable by blocks on one SM (largest carveout)
    max_smem_per_block: int
    regs_per_sm: int = 65536
    reg_unit: int = 256  # registers are allocated per warp in these units
    max_threads_per_block: int = 1024
    smem_unit: int = 128
    reserved_smem_per_block: int = 1024


# CUDA C++ Programming Guide, "Technical Specifications per Compute Capability".
SM_LIMITS = {
    "sm_80": SmLimits(64, 32, 167936, 166912),
    "sm_86": SmLimits(48, 16, 102400, 101376),
    "sm_89": SmLimits(48, 24, 102400, 101376),
    "sm_90": SmLimits(64, 32, 233472, 232448),
    "sm_100": SmLimits(64, 32, 233472, 232448),
}


@dataclass
class Occupancy:
    block: int
    block_assumed: bool  # True when neither the caller nor __launch_bounds__ gave the block size
    dynamic_smem: int
    blocks_per_sm: int
    active_warps: int
    occupancy: float  # active warps / max warps per SM
    limiter: str  # "warps" | "registers" | "shared memory" | "blocks" | "does not launch: ..."


@dataclass
class KernelResources:
    name: str  # demangled where c++filt is available
    mangled: str
    registers: int
    spill_stores: int
    spill_loads: int
    stack_bytes: int
    static_smem: int
    const_bytes: int
    barriers: int
    launch_bounds: int | None
    occupancy: Occupancy | None = None

    def summary(self) -> str:
        occ = self.occupancy
        text = (f"{self.name}: {self.registers} regs, {self.static_smem} B static smem, "
                f"spills {self.spill_stores}/{self.spill_loads} B (st/ld), stack {self.stack_bytes} B")
        if occ:
            block = f"block {occ.block}{' (assumed)' if occ.block_assumed else ''}"
            dyn = f" + {occ.dynamic_smem} B dyn smem" if occ.dynamic_smem else ""
            text += (f"; {block}{dyn}: {occ.blocks_per_sm} blocks/SM, "
                     f"occupancy {occ.occupancy:.0%} ({occ.limiter})")
        return text


@dataclass
class ResourceReport:
    arch: str
    ok: bool
    errors: str
    compile_seconds: float
    kernels: list[KernelResources] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def theoretical_occupancy(arch: str, registers: int, static_smem: int, block: int,
                          dynamic_smem: int = 0, block_assumed: bool = False) -> Occupancy:
    limits = SM_LIMITS.get(arch)
    if limits is None:
        raise ValueError(f"no occupancy limits for {arch}; known: {', '.join(SM_LIMITS)}")
    smem = static_smem + dynamic_smem
    problem = None
    if block > limits.max_threads_per_block:
        problem = f"does not launch: block {block} > {limits.max_threads_per_block} threads"
    elif smem > limits.max_smem_per_block:
        problem = f"does not launch: {smem} B shared memory > {limits.max_smem_per_block} B per block"
    if problem:
        return Occupancy(block, block_assumed, dynamic_smem, 0, 0, 0.0, problem)
    warps_per_block = -(-block // 32)
    regs_per_warp = -(-max(registers, 1) * 32 // limits.reg_unit) * limits.reg_unit
    smem_per_block = -(-(smem + limits.reserved_smem_per_block) // limits.smem_unit) * limits.smem_unit
    bounds = {
        "warps": limits.max_warps // warps_per_block,
        "registers": (limits.regs_per_sm // regs_per_warp) // warps_per_block,
        "shared memory": limits.smem_per_sm // smem_per_block,
        "blocks": limits.max_blocks,
    }
    limiter = min(bounds, key=lambda name: bounds[name])
    blocks = bounds[limiter]
    return Occupancy(block, block_assumed, dynamic_smem, blocks, blocks * warps_per_block,
                     blocks * warps_per_block / limits.max_warps, limiter)


def parse_ptxas_report(log: str) -> list[KernelResources]:
    """Kernels of a `ptxas -v` report (as found in an NVRTC or nvcc log), in report order."""
    kernels: list[KernelResources] = []
    current: KernelResources | None = None
    for line in log.splitlines():
        entry = re.search(r"Compiling entry function '([^']+)'", line)
        if entry:
            current = KernelResources(entry.group(1), entry.group(1), 0, 0, 0, 0, 0, 0, 0, None)
            kernels.append(current)
            continue
        if current is None:
            continue
        if "stack frame" in line:
            current.stack_bytes = _number(r"(\d+) bytes stack frame", line)
            current.spill_stores = _number(r"(\d+) bytes spill stores", line)
            current.spill_loads = _number(r"(\d+) bytes spill loads", line)
        elif "Used" in line and "registers" in line:
            current.registers = _number(r"Used (\d+) registers", line)
            current.barriers = _number(r"used (\d+) barriers", line)
            current.static_smem = _number(r"(\d+) bytes smem", line)
            current.const_bytes = _number(r"(\d+) bytes cmem\[0\]", line)
    return kernels


def kernel_resources(source: str, arch: str = "sm_90", block: int | None = None, dynamic_smem: int = 0,
                     origin: SourceOrigin | None = None, compiled: CompileResult | None = None) -> ResourceReport:
    """Compile `source` (or reuse `compiled`) and report every kernel's resources and occupancy.

    The block size is `block`, else the kernel's `__launch_bounds__`, else DEFAULT_BLOCK (flagged
    as assumed).
    """
    result = compiled or compile_cuda(source, arch=arch, origin=origin)
    report = ResourceReport(result.arch, result.ok, result.error_text(), result.seconds)
    if not result.ok:
        return report
    bounds = launch_bounds(source)
    kernels = parse_ptxas_report(result.log)
    names = _demangle([k.mangled for k in kernels])
    for kernel, name in zip(kernels, names):
        kernel.name = name
        kernel.launch_bounds = bounds.get(name.split("(")[0].split("<")[0])
        threads = block or kernel.launch_bounds or DEFAULT_BLOCK
        if result.arch in SM_LIMITS:
            kernel.occupancy = theoretical_occupancy(
                result.arch, kernel.registers, kernel.static_smem, threads, dynamic_smem,
                block_assumed=block is None and kernel.launch_bounds is None)
    report.kernels = sorted(kernels, key=lambda k: k.name)
    return report


_LAUNCH_BOUNDS = re.compile(r"__global__\s+(?:void\s+)?__launch_bounds__\s*\(((?:[^()]|\([^()]*\))*)\)"
                            r"\s*(?:void\s+)?(\w+)\s*\(")
_CONSTEXPR = re.compile(r"\bconstexpr\s+(?:unsigned\s+)?(?:int|long long|long|unsigned|size_t)\s+([^;{]+);")


def launch_bounds(source: str) -> dict[str, int]:
    """Kernel name -> max threads per block declared by `__launch_bounds__` in the source: a literal
    or an integer expression of the file's `constexpr` constants (`__launch_bounds__(BX * BY)`, as
    HIERA's templates write it); kernels whose bound cannot be worked out are left out."""
    constants = constexpr_values(source)
    bounds = {}
    for match in _LAUNCH_BOUNDS.finditer(source):
        first = _top_level_split(match.group(1))[0]
        value = integer_expression(first, constants)
        if value is not None:
            bounds[match.group(2)] = value
    return bounds


def constexpr_values(source: str) -> dict[str, int]:
    """`constexpr int A = 64, B = A * 2;` -> {"A": 64, "B": 128}, in order, so later constants may
    use earlier ones; any whose value is not an integer expression of known names is skipped."""
    values: dict[str, int] = {}
    for declaration in _CONSTEXPR.finditer(source):
        for item in _top_level_split(declaration.group(1)):
            name, equals, expression = item.partition("=")
            value = integer_expression(expression, values) if equals else None
            if value is not None and name.strip().isidentifier():
                values[name.strip()] = value
    return values


def integer_expression(text: str, constants: dict[str, int]) -> int | None:
    """The value of a C integer expression of literals and `constants`, else None (the analyzers'
    own C arithmetic: truncating division, undefined shifts and division by zero give None)."""
    try:
        return cexpr.parse(text).evaluate(constants.get)
    except cexpr.CExprError:
        return None


def _top_level_split(text: str) -> list[str]:
    """`a, f(b, c), d` -> ["a", " f(b, c)", " d"]: commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for position, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:position])
            start = position + 1
    parts.append(text[start:])
    return parts


def _number(pattern: str, text: str) -> int:
    match = re.search(pattern, text)
    return int(match.group(1)) if match else 0


def _demangle(names: list[str]) -> list[str]:
    """Demangled C++ names via c++filt when it is installed; `extern "C"` names pass unchanged."""
    tool = shutil.which("c++filt")
    if not tool or not any(name.startswith("_Z") for name in names):
        return names
    output = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    demangled = output.splitlines()
    return demangled if len(demangled) == len(names) else names

"""Custom-CUDA answers and HIERA's runtime helpers: which helpers a module calls, the definitions put
above it, its NVRTC kernels compiled here before evaluation, and the note that tells the model how
the helpers are called (read from the runtime itself)."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from hiera_core.cuda.proposal import EXTENSION_RUNTIME_FILE, NVRTC_RUNTIME_FILE
from hiera_core.llm.answers import cuda_strings
from hiera_core.llm.record import LLMRecord

# HIERA's runtime helpers answers may call without defining them: the NVRTC launch helpers
# (hiera_core/cuda/proposal_runtime.py) and the extension builder (hiera_core/cuda/extension_runtime.py).
RUNTIME_HELPERS = ("_hiera_kernel", "_hiera_launch")
EXTENSION_HELPERS = ("_hiera_extension",)


def runtime_helpers_called(code: str) -> list[str]:
    """HIERA's runtime helpers (NVRTC kernels, extensions) that a module calls and does not define."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    called = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return [name for name in RUNTIME_HELPERS + EXTENSION_HELPERS if name in called and name not in defined]


def nvrtc_kernels(code: str) -> list:
    """The module's CUDA kernel strings for NVRTC: not those it builds as torch extensions
    (`_hiera_extension`, load_inline), which torch's compilers build with torch's headers."""
    from hiera_core.cuda.extension_candidates import extension_strings

    built_by_torch = extension_strings(code)
    return [kernel for kernel in cuda_strings(code) if kernel.source not in built_by_torch]


def runtime_prefix(code: str) -> str:
    """HIERA's runtime helpers (NVRTC kernels, extensions) the module calls without defining them,
    with the helpers and imports those need and nothing else (an extension needs no cuda.core)."""
    called = runtime_helpers_called(code)
    if not called:
        return ""
    from hiera_core.cuda.proposal import runtime_source

    return runtime_source(called) + "\n\n"


class KernelCompiler:
    """Compiles a module's NVRTC kernels here (no GPU needed, sub-second), so compile errors come
    back before a worker is started; the architecture is detected once per run."""

    def __init__(self, record: LLMRecord):
        self.record = record
        self._arch: str | None = None

    def compile(self, code: str) -> tuple[str, str]:
        """(errors, resource report) of the module's kernel strings. ("", "") when the NVRTC bindings
        are not installed; the evaluation then reports what fails."""
        try:
            from hiera_core.cuda.nvrtc import SourceOrigin, detect_arch
            from hiera_core.cuda.resources import kernel_resources
        except ImportError:
            return "", ""
        errors, resources = [], []
        for kernel in nvrtc_kernels(code):
            try:
                self._arch = self._arch or detect_arch()
                report = kernel_resources(kernel.source, arch=self._arch,
                                          origin=SourceOrigin("your module", kernel.line))
            except (ImportError, OSError, RuntimeError) as error:  # NVRTC library missing or unusable here
                self.record.notes.append(f"kernels not compiled before evaluation: {error}")
                return "", ""
            if report.ok:
                resources += [k.summary() for k in report.kernels]
            else:
                errors.append(report.errors)
        return "\n".join(errors), "\n".join(resources)


def _helper_listing(path: Path, names: tuple[str, ...]) -> tuple[str, list[ast.FunctionDef]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    helpers = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in names]
    return "\n\n".join(f"def {node.name}({ast.unparse(node.args)}):\n    \"\"\""
                        + ast.get_docstring(node).replace("\n", "\n    ") + "\"\"\"" for node in helpers), helpers


@lru_cache(maxsize=1)
def runtime_note() -> str:
    """How custom-CUDA answers compile and launch kernels: the helpers' signatures and docstrings,
    read from the runtime itself so the prompt always matches the code that will run."""
    listing, helpers = _helper_listing(NVRTC_RUNTIME_FILE, RUNTIME_HELPERS)
    extension, _ = _helper_listing(EXTENSION_RUNTIME_FILE, EXTENSION_HELPERS)
    device = any(arg.arg == "device" for node in helpers for arg in node.args.args)
    return ("How kernels are compiled and launched: HIERA's helpers. Call them without defining them; HIERA puts "
            "the definitions of those you call above your module.\n\n"
            "NVRTC kernels, the first choice (a kernel compiles in well under a second):\n```python\n" + listing
            + "\n```\nDeclare kernels `extern \"C\" __global__ void name(...)`; grid and block are ints or tuples"
            + ("; `device` is the CUDA device index of your tensors (`x.device.index`)" if device else "")
            + ". Keep kernel sources as plain string literals (not f-strings): HIERA compiles them before running "
            "your module and reports errors by line.\n\n"
            "A torch C++/CUDA extension, when the code needs torch's C++ API: ATen calls or at::Tensor on the host "
            "side, a cuBLAS handle (`at::cuda::getCurrentCUDABlasHandle()`), CUDA headers, or several kernels "
            "behind one C++ entry point:\n```python\n" + extension + "\n```\n"
            "Its first build takes about 30 s or more (later ones load it from HIERA's build cache in "
            "milliseconds), so prefer NVRTC kernels when they do the job. Build it once, at module level "
            "(`_ext = _hiera_extension(\"fused\", CPP_SRC, CUDA_SRC, functions=[\"fused_forward\"])`), and call "
            "`_ext.fused_forward(...)` in forward. Pass its sources and flags as string literals or module-level "
            "string constants: HIERA then builds it before running your module and reports compile errors by line. "
            "In CUDA sources launch on torch's current stream: `c10::cuda::getCurrentCUDAStream()`, from "
            "<c10/cuda/CUDAStream.h> (<ATen/cuda/CUDAContext.h> has it too, but also needs the cuBLAS and cuSPARSE "
            "headers). Do not call torch.utils.cpp_extension.load_inline yourself (its cache is keyed by the name "
            "alone).")

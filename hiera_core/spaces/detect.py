"""Which implementation space a candidate's source is in, read from the source itself (AST, pure).

`hiera verify` applies each space's static checks (a custom-kernel candidate may not fall back to
the reference), so the space comes from what the code does, never from a proposal header a hand
could have written: source that compiles CUDA (a `__global__` string, NVRTC through cuda-python,
a torch extension, Triton) is custom CUDA; source that only picks library behaviour (cuDNN/cuBLAS
flags, fused-epilogue GEMM calls, cuDNN convolution entry points) is CUDA libraries; anything else
is PyTorch operators.

    found = infer_space(candidate_source)
    found.space, found.reason      # "custom_cuda", "compiles CUDA source: a string with __global__ (line 12)"
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

# Modules whose use means the candidate builds its own kernels.
KERNEL_MODULES = ("cuda.core", "cuda.bindings", "cupy", "pycuda", "numba.cuda", "triton")
EXTENSION_BUILDERS = ("torch.utils.cpp_extension.load_inline", "torch.utils.cpp_extension.load",
                      "torch.cuda.jiterator")
# Calls and settings that choose what cuBLAS(Lt)/cuDNN run, without kernels of the candidate's own.
LIBRARY_SETTINGS = ("torch.backends.cudnn.", "torch.backends.cuda.matmul.",
                    "torch.backends.cuda.preferred_blas_library")
LIBRARY_CALLS = ("torch.addmm", "torch.baddbmm", "torch.addbmm", "torch._addmm_activation", "torch.cudnn_convolution",
                 "torch.cudnn_convolution_relu", "torch.cudnn_convolution_add_relu", "torch._C._cudnn",
                 "torch._cudnn")
# Tensor methods of the same GEMMs (`bias.addmm(x, w)`): reached through any tensor, not a module name.
LIBRARY_METHODS = {"addmm", "addmm_", "baddbmm", "addbmm"}


@dataclass(frozen=True)
class InferredSpace:
    space: str  # a key of hiera_core.spaces.SPACES
    reason: str  # what in the source decided it, with its line


def infer_space(source: str, first_line: int = 1) -> InferredSpace:
    """The space of a candidate's source, whose line 1 is line `first_line` of its file (the lines
    the reasons name); PyTorch operators when it cannot be parsed (the static checks report why)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return InferredSpace("pytorch", "the candidate does not parse; its syntax error is reported below")
    aliases = _imported_names(tree)
    library: tuple[str, int] | None = None
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 1) + first_line - 1
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "__global__" in node.value:
            return InferredSpace("custom_cuda", f"compiles CUDA source: a string with __global__ (line {line})")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for name in _imported_modules(node):
                if _within(name, KERNEL_MODULES):
                    return InferredSpace("custom_cuda", f"builds its own kernels: imports {name} (line {line})")
        dotted = _dotted(node, aliases) if isinstance(node, (ast.Name, ast.Attribute)) else ""
        if dotted and _within(dotted, EXTENSION_BUILDERS):
            return InferredSpace("custom_cuda", f"builds a torch extension or kernel: uses {dotted} (line {line})")
        if library is None:
            if dotted and (dotted.startswith(LIBRARY_SETTINGS) or _within(dotted, LIBRARY_CALLS)):
                library = (f"uses {dotted}", line)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in LIBRARY_METHODS and not _dotted(node.func, aliases).startswith("torch."):
                library = (f"calls .{node.func.attr}() (a cuBLAS GEMM with its epilogue)", line)
    if library is not None:
        return InferredSpace("cuda_libs", f"chooses CUDA library behaviour without kernels of its own: "
                                          f"{library[0]} (line {library[1]})")
    return InferredSpace("pytorch", "no CUDA source, extension or library setting: PyTorch operators")


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    """`name` is one of `prefixes` or inside one (`cuda.core.Program` is within `cuda.core`)."""
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _imported_modules(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level or not node.module:
        return []
    return [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]


def _imported_names(tree: ast.AST) -> dict[str, str]:
    """Local name -> what it was imported as (`import torch.utils.cpp_extension as ext`: ext -> ...)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]  # `import a.b` binds a
                names[alias.asname or root] = alias.name if alias.asname else root
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _dotted(node: ast.AST, aliases: dict[str, str]) -> str:
    """The full dotted name of a Name/Attribute chain, its first part resolved through the imports."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    parts.append(aliases.get(node.id, node.id))
    return ".".join(reversed(parts))

"""CUDA tooling that needs no GPU: NVRTC compilation with line-mapped errors (`nvrtc`), ptxas
resource reports and theoretical occupancy (`resources`), the `hiera kernels` command (`cli`),
torch C++/CUDA extension builds with a persistent cache (`extensions`) and the prebuild of those
a candidate names (`extension_candidates`), and the small runtime inlined into custom-CUDA
proposals (`proposal_runtime` for NVRTC kernels with `proposal_leaves`, how they read their
tensors, and `proposal_convolutions`, the convolution templates' launchers; `extension_runtime` for
extensions; copied by `proposal`).

Nothing here imports torch at import time (the two runtimes are copied into proposals, never
imported by them; `proposal_runtime` itself imports torch and cuda.core); `nvrtc` imports
`cuda.bindings` only when it compiles, `extensions` and `extension_candidates` torch only when
they build.
"""

import os
import shutil


def find_tool(name: str) -> str | None:
    """A CUDA toolkit executable (`ncu`, `compute-sanitizer`): on PATH, else under $CUDA_HOME/bin,
    $CUDA_PATH/bin or /usr/local/cuda/bin; None when absent."""
    found = shutil.which(name)
    if found:
        return found
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        candidate = os.path.join(home, "bin", name) if home else ""
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None

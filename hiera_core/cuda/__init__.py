"""CUDA tooling that needs no GPU: NVRTC compilation with line-mapped errors (`nvrtc`), ptxas
resource reports and theoretical occupancy (`resources`), the `hiera kernels` command (`cli`),
torch C++/CUDA extension builds with a persistent cache (`extensions`), and the small runtime
inlined into custom-CUDA proposals (`proposal_runtime` for NVRTC kernels, `extension_runtime` for
extensions, copied by `proposal`).

Nothing here imports torch at import time (the two runtimes are copied into proposals, never
imported by them; `proposal_runtime` itself imports torch and cuda.core); `nvrtc` imports
`cuda.bindings` only when it compiles, `extensions` torch only when it builds.
"""

"""CUDA tooling that needs no GPU: NVRTC compilation with line-mapped errors (`nvrtc`), ptxas
resource reports and theoretical occupancy (`resources`), the `hiera kernels` command (`cli`), and
the small runtime inlined into custom-CUDA proposals (`proposal_runtime`, `proposal`).

Nothing here imports torch; `nvrtc` imports `cuda.bindings` only when it compiles.
"""

"""Candidates composed across spaces: a custom-CUDA candidate's kernels with a library choice for
its library regions (the convolutions it leaves to cuDNN autotuned for the task's shapes; its
GEMMs and convolutions on TF32 tensor cores where the contract allows it).

The budget counts candidates: when the plan's strategies give fewer than the budget, these
combinations of per-region choices fill it (issue 23: region combinations count).
"""

from __future__ import annotations

from hiera_core.spaces.codegen import model_new
from hiera_core.spaces.cuda_libs import CUDNN_AUTOTUNE_FLAGS, TF32_FLAGS, forward_with_flags
from hiera_core.spaces.strategy import Candidate
from hiera_core.spec.model import Spec


def library_variants(candidate: Candidate, spec: Spec) -> list[Candidate]:
    """`candidate` (custom CUDA) with the library settings its library calls can use here, one
    candidate per setting that applies."""
    if candidate.space != "custom_cuda":
        return []
    forward = candidate.code.split("class ModelNew", 1)[-1]
    calls_conv = "torch.nn.functional.conv" in forward
    calls_gemm = any(f"torch.{name}(" in forward for name in ("matmul", "mm", "bmm", "addmm", "baddbmm", "einsum")) \
        or "torch.nn.functional.linear(" in forward
    variants = []
    if calls_conv and not spec.dynamic_dims:
        variants.append(_flagged(candidate, "cudnn_autotune", CUDNN_AUTOTUNE_FLAGS,
                                 "its convolutions run by cuDNN with the algorithm autotuned for these static "
                                 "shapes (torch.backends.cudnn.benchmark, inside forward only)"))
    if spec.precision == "tf32" and (calls_conv or calls_gemm):
        variants.append(_flagged(candidate, "tf32", TF32_FLAGS, "its GEMMs and convolutions on TF32 tensor cores "
                                                          "(allowed by the contract's precision policy)"))
    return variants


def _flagged(candidate: Candidate, setting: str, flags: dict[str, str], what: str) -> Candidate:
    wrapper = model_new("_HieraKernels", f"{candidate.name}, {what}.", forward=forward_with_flags("_HieraKernels", flags))
    code = f"{candidate.code.rstrip()}\n\n\n_HieraKernels = ModelNew\n\n\n{wrapper}"
    return Candidate(name=f"{candidate.name}+{setting}", space=candidate.space,
                     strategy=f"{candidate.strategy}+{setting}", code=code, reason=f"{candidate.reason}; {what}",
                     requires_cuda=True, cuda_sources=candidate.cuda_sources)

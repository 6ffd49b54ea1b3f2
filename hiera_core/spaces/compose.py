"""Candidates composed across spaces: a custom-CUDA candidate's kernels with a library choice for
its library regions (the convolutions it leaves to cuDNN autotuned for the task's shapes; its
GEMMs and convolutions on TF32 tensor cores where the contract allows it), or with the PyTorch ops
between its kernels compiled by inductor (`compiled_glue`), and an exact rewrite with its ops compiled
by inductor (`compiled_rewrite`).

The budget counts candidates: when the plan's strategies give fewer than the budget, the library
combinations fill it (issue 23: region combinations count). The compiled glue is the profile's
refinement (hiera_core.loop.evaluate.host_bound_refinements): worth a try once inductor's kernels are
measured to take less GPU time than the custom candidate's.
"""

from __future__ import annotations

import ast

from hiera_core.cuda.proposal import runtime_source
from hiera_core.spaces.codegen import model_new
from hiera_core.spaces.cuda_libs import CUDNN_AUTOTUNE_FLAGS, TF32_FLAGS, forward_with_flags, nhwc_forward
from hiera_core.spaces.strategy import Candidate
from hiera_core.spec.model import Spec

# cuDNN's NHWC convolutions feed the custom kernels channels-last maps, which their pointwise and column
# kernels read in place and return in that layout (proposal_leaves._hiera_storage_order).
NHWC_WHAT = ("its 2D convolutions run by cuDNN in NHWC layout with the algorithm autotuned (weights converted "
             "once), the maps between them kept channels-last, its 4D inputs and outputs converted by a "
             "transposing kernel")
# The inputs' and outputs' layouts changed by the runtime's transpose (`_hiera_relayout`, which leaves
# anything but a 4D map to PyTorch), not PyTorch's strided copy: 10-11 us against inductor's 2 us on
# MobileNetV2's 32x96x14x14 input (H100, 2026-12-06), most of what the composition lost to inductor there.
RELAYOUT_FORWARD = nhwc_forward("_hiera_relayout({}, True)", "_hiera_relayout({}, False)")


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
    if (nhwc := nhwc_variant(candidate, spec)) is not None:
        variants.append(nhwc)
    if spec.precision == "tf32" and (calls_conv or calls_gemm):
        variants.append(_flagged(candidate, "tf32", TF32_FLAGS, "its GEMMs and convolutions on TF32 tensor cores "
                                                          "(allowed by the contract's precision policy)"))
    return variants


def nhwc_variant(candidate: Candidate, spec: Spec) -> Candidate | None:
    """`candidate` (custom CUDA, as generated) with its 2D convolutions in cuDNN's NHWC layout
    (NHWC_WHAT); None when it calls none, is a composition already, or the shapes are dynamic (the
    algorithm search needs static ones)."""
    forward = candidate.code.split("class ModelNew", 1)[-1]
    if (candidate.space != "custom_cuda" or "+" in candidate.strategy or spec.dynamic_dims
            or "torch.nn.functional.conv2d(" not in forward):
        return None
    defined = {node.name for node in ast.parse(candidate.code).body if isinstance(node, ast.FunctionDef)}
    return _wrapped(candidate, f"{candidate.name}+cudnn_nhwc", "cudnn_nhwc", NHWC_WHAT,
                    init="self.to(memory_format=torch.channels_last)",
                    forward=forward_with_flags("_HieraKernels", CUDNN_AUTOTUNE_FLAGS, **RELAYOUT_FORWARD),
                    prelude=runtime_source({"_hiera_relayout"}, present=defined))


# Calls in a custom-CUDA forward that compiling it cannot improve: the library's GEMMs and convolutions
# (inductor calls the same kernels), views, metadata and casts the trace found to be no-ops, and
# Python's arithmetic on numbers (math.*). Any other call is glue inductor may fuse; `reshape` and
# `contiguous` count, as after a permute or transpose they copy.
LIBRARY_CALLS = {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                 "matmul", "mm", "bmm", "addmm", "baddbmm", "einsum", "scaled_dot_product_attention"}
VIEW_CALLS = {"view", "view_as", "permute", "transpose", "t", "unsqueeze", "squeeze", "expand", "expand_as", "narrow",
              "chunk", "split", "unbind", "flatten", "size", "dim", "stride", "numel", "slice", "getattr", "to",
              "float", "type_as"}


def compiled_glue(candidate: Candidate, dynamic: bool) -> Candidate | None:
    """`candidate` (custom CUDA) with its forward compiled by torch.compile (inductor), its kernels
    launched as written: each `_hiera_*` entry point it calls is left out of the trace
    (torch.compiler.disable, a graph break each), so inductor compiles only the PyTorch ops between
    them. None when its forward has no such op (only kernels, library calls and views)."""
    if candidate.space != "custom_cuda":
        return None
    forward = _last_forward(candidate.code)
    if forward is None:
        return None
    called = {_called_name(node) for node in ast.walk(forward) if isinstance(node, ast.Call)}
    entry_points = sorted(name for name in called if name.startswith("_hiera_"))
    if not entry_points or not called - set(entry_points) - LIBRARY_CALLS - VIEW_CALLS - {""}:
        return None
    what = ("the PyTorch ops between its kernels compiled by torch.compile (inductor), its kernels launched as "
            "written (each a graph break)")
    # Dynamo calls the entry points as they are instead of tracing into cuda.core's launches.
    return _wrapped(candidate, f"{candidate.name}.compiled_glue", "compiled_glue", what,
                    prelude="\n".join(f"{name} = torch.compiler.disable({name})" for name in entry_points),
                    init=f"self._hiera_compiled = torch.compile(self._hiera_kernels_forward, "
                         f"dynamic={'None' if dynamic else 'False'})",
                    forward="def _hiera_kernels_forward(self, *inputs):\n    return _HieraKernels.forward(self, *inputs)\n\n"
                            "def forward(self, *inputs):\n    return self._hiera_compiled(*inputs)\n")


def compiled_rewrite(candidate: Candidate, dynamic: bool) -> Candidate:
    """`candidate` (an exact rewrite: PyTorch ops doing less work than the reference's) with its
    forward compiled by torch.compile (inductor, default mode): the rewrite saves the work, inductor
    fuses the pointwise ops and reductions around its GEMMs as it does the reference's."""
    what = "its ops compiled by torch.compile (inductor, default mode)"
    return _wrapped(candidate, f"{candidate.name}.compiled", "compiled", what,
                    init=f"self._hiera_compiled = torch.compile(self._hiera_rewritten_forward, "
                         f"dynamic={'None' if dynamic else 'False'})",
                    forward="def _hiera_rewritten_forward(self, *inputs):\n    return _HieraKernels.forward(self, *inputs)\n\n"
                            "def forward(self, *inputs):\n    return self._hiera_compiled(*inputs)\n")


def _last_forward(code: str) -> ast.FunctionDef | None:
    """The forward of the last `class ModelNew` in `code` (the one that loads)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "ModelNew"]
    methods = classes[-1].body if classes else []
    return next((node for node in methods if isinstance(node, ast.FunctionDef) and node.name == "forward"), None)


def _called_name(call: ast.Call) -> str:
    """The called function's own name; "" for Python's arithmetic (math.*) and calls of computed values."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return "" if isinstance(func.value, ast.Name) and func.value.id in ("math", "operator") else func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _flagged(candidate: Candidate, setting: str, flags: dict[str, str], what: str) -> Candidate:
    return _wrapped(candidate, f"{candidate.name}+{setting}", setting, what,
                    forward=forward_with_flags("_HieraKernels", flags))


def _wrapped(candidate: Candidate, name: str, setting: str, what: str, *, forward: str, init: str = "",
             prelude: str = "") -> Candidate:
    """`candidate`, its ModelNew kept as `_HieraKernels`, under a ModelNew of its own (`init`,
    `forward`), with the module-level `prelude` between them: named `name`, of strategy
    `<its strategy>+<setting>`, in its space."""
    wrapper = model_new("_HieraKernels", f"{candidate.name}, {what}.", forward=forward, init=init)
    alias = "_HieraKernels = ModelNew" + (f"\n{prelude}" if prelude else "")
    return Candidate(name=name, space=candidate.space, strategy=f"{candidate.strategy}+{setting}",
                     code=f"{candidate.code.rstrip()}\n\n\n{alias}\n\n\n{wrapper}",
                     reason=f"{candidate.reason}; {what}", requires_cuda=True, cuda_sources=candidate.cuda_sources)

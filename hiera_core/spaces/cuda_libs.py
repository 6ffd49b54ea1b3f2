"""The CUDA-library space: cuDNN algorithm search and layout, cuBLASLt fused epilogues, TF32
only when the contract's precision policy allows it.

Backend flags are set and restored inside ModelNew.forward (try/finally), never leaked to the
caller's process.
"""

from __future__ import annotations

from hiera_core.spaces.codegen import graph_forward_source, model_new
from hiera_core.spaces.gemm_epilogue import gemm_epilogues
from hiera_core.spaces.pytorch_ops import nhwc_applies
from hiera_core.spaces.strategy import Candidate, ImplementContext, Strategy, register
from hiera_core.spec.model import Spec

CUDNN_AUTOTUNE_FLAGS = {"torch.backends.cudnn.benchmark": "True"}
TF32_FLAGS = {"torch.backends.cuda.matmul.allow_tf32": "True", "torch.backends.cudnn.allow_tf32": "True"}


def forward_with_flags(cls: str, flags: dict[str, str], prologue: str = "", epilogue: str = "return out") -> str:
    """A forward that sets backend flags around the reference forward and restores them."""
    saves = "\n".join(f"    saved_{i} = {flag}" for i, flag in enumerate(flags))
    sets = "\n".join(f"    {flag} = {value}" for flag, value in flags.items())
    restores = "\n".join(f"        {flag} = saved_{i}" for i, flag in enumerate(flags))
    body = "\n".join(f"        {line}" for line in (prologue.strip().splitlines() if prologue.strip() else []))
    tail = "\n".join(f"    {line}" for line in epilogue.strip().splitlines())
    return (f"def forward(self, *inputs):\n{saves}\n{sets}\n    try:\n"
            + (body + "\n" if body else "")
            + f"        out = {cls}.forward(self, *inputs)\n    finally:\n{restores}\n{tail}\n")


def applies_cudnn_benchmark(spec: Spec) -> str | None:
    if "conv" not in spec.op_kinds or spec.dynamic_dims:
        return None
    return "cuDNN benchmarks its convolution algorithms for these static shapes and keeps the fastest"


def generate_cudnn_benchmark(ctx: ImplementContext) -> Candidate:
    return _with_flags(ctx, "cudnn_benchmark", CUDNN_AUTOTUNE_FLAGS, "The reference forward with cuDNN's algorithm "
                       "autotuning (torch.backends.cudnn.benchmark), enabled only inside forward.",
                       applies_cudnn_benchmark(ctx.spec))


def applies_cudnn_nhwc(spec: Spec) -> str | None:
    if applies_cudnn_benchmark(spec) is None or not nhwc_applies(spec):
        return None
    return "cuDNN's NHWC kernels with algorithm autotuning: the layout tensor cores prefer for 2D convolutions"


def nhwc_forward(to_channels_last: str = "{}.contiguous(memory_format=torch.channels_last)",
                 to_contiguous: str = "{}.contiguous()") -> dict[str, str]:
    """forward_with_flags' prologue and epilogue for NHWC convolutions: the 4D inputs channels-last,
    the outputs contiguous like the reference's, each converted by the expression given ({}: the
    tensor)."""
    return {"prologue": f"inputs = [{to_channels_last.format('x')}\n"
                        "          if isinstance(x, torch.Tensor) and x.dim() == 4 else x for x in inputs]",
            "epilogue": f"if isinstance(out, torch.Tensor):\n    return {to_contiguous.format('out')}\n"
                        f"return type(out)({to_contiguous.format('o')} for o in out)"}


def generate_cudnn_nhwc(ctx: ImplementContext) -> Candidate:
    forward = forward_with_flags(ctx.reference_class, CUDNN_AUTOTUNE_FLAGS, **nhwc_forward())
    code = model_new(ctx.reference_class, "cuDNN in NHWC layout with algorithm autotuning; weights converted "
                     "once, the output returned contiguous like the reference's.",
                     init="self.to(memory_format=torch.channels_last)", forward=forward)
    return Candidate(name="cuda_libs.cudnn_nhwc", space="cuda_libs", strategy="cudnn_nhwc", code=code,
                     reason=applies_cudnn_nhwc(ctx.spec) or "", requires_cuda=True)


def applies_tf32(spec: Spec) -> str | None:
    if spec.precision != "tf32" or not {"matmul", "conv", "attention"} & set(spec.op_kinds):
        return None
    return "the contract allows TF32: cuBLAS/cuDNN run float32 GEMMs and convolutions on tensor cores"


def generate_tf32(ctx: ImplementContext) -> Candidate:
    return _with_flags(ctx, "tf32", TF32_FLAGS, "TF32 tensor-core math for float32 GEMMs and convolutions "
                       "(allowed by '# hiera: precision=tf32'), enabled only inside forward.", applies_tf32(ctx.spec))


def _with_flags(ctx: ImplementContext, strategy: str, flags: dict[str, str], description: str,
                reason: str | None) -> Candidate:
    """The reference forward run with library flags set inside it."""
    code = model_new(ctx.reference_class, description, forward=forward_with_flags(ctx.reference_class, flags))
    return Candidate(name=f"cuda_libs.{strategy}", space="cuda_libs", strategy=strategy, code=code,
                     reason=reason or "", requires_cuda=True)


# ---- cuBLASLt epilogue: GEMM [+ vector] -> ReLU / tanh-GELU [* positive scale] in one call -----------

FUSED_GEMM_HELPER = '''
def _hiera_gemm_activation(x, weight, bias, extra_bias, scale, use_gelu, out_in):
    """act(x @ W + bias [+ extra_bias]) * scale as one cuBLASLt call with a fused epilogue. W is
    weight.t() for a Linear's (out, in) weight (out_in), weight itself for addmm's (in, out).

    scale > 0, so act(z) * scale == act(z * scale) for ReLU; it is folded into alpha and the bias
    (beta stays 1, which cuBLASLt's path needs). For GELU the scale cannot be folded and is applied after.
    """
    mat2 = weight.t() if out_in else weight
    total_bias = bias if bias is not None else mat2.new_zeros(mat2.shape[1])
    if extra_bias is not None:
        total_bias = total_bias + extra_bias.reshape(-1)
    fold = 1.0 if use_gelu else scale
    if fold != 1.0:
        total_bias = total_bias * fold
    rows = x.reshape(-1, x.shape[-1])
    out = torch._addmm_activation(total_bias, rows, mat2, alpha=fold, use_gelu=use_gelu)
    if use_gelu and scale != 1.0:
        out = out * scale
    return out.reshape(*x.shape[:-1], mat2.shape[1])
'''


def applies_cublaslt_epilogue(spec: Spec) -> str | None:
    found = gemm_epilogues(spec.graph)
    if not found:
        return None
    epilogues = sorted({"ReLU" if match.activation == "relu" else "tanh GELU" for match in found})
    return (f"a GEMM followed by {' / '.join(epilogues)} (from what its ops compute): cuBLASLt applies "
            "the bias and activation as the GEMM's epilogue")


def generate_cublaslt_epilogue(ctx: ImplementContext) -> Candidate | None:
    import copy

    found = gemm_epilogues(ctx.spec.graph) if ctx.graph is not None else []
    if not found:
        return None
    graph_module = copy.deepcopy(ctx.graph)
    graph = graph_module.graph
    nodes = {node.name: node for node in graph.nodes}
    # The FX graph calls the same helper that the candidate's source defines at module level.
    namespace: dict = {"__name__": "hiera_generated"}
    exec(compile("import torch\n" + FUSED_GEMM_HELPER, "<hiera-helper>", "exec"), namespace)
    helper = namespace["_hiera_gemm_activation"]
    for match in found:
        gemm, last = nodes[match.gemm], nodes[match.epilogue[-1]]
        with graph.inserting_before(last):
            if match.form == "linear_module":
                x, weight = gemm.args[0], graph.get_attr(f"{gemm.target}.weight")
                has_bias = graph_module.get_submodule(gemm.target).bias is not None
                bias = graph.get_attr(f"{gemm.target}.bias") if has_bias else None
            elif match.form == "linear":
                x, weight, *rest = gemm.args
                bias = rest[0] if rest else gemm.kwargs.get("bias")
            else:
                bias, x, weight = gemm.args
            extra = nodes[match.extra_bias] if match.extra_bias else None
            result = graph.create_node("call_function", helper, (x, weight, bias, extra, match.scale,
                                                                 match.activation == "gelu", match.form != "addmm"),
                                       name=f"fused_{match.gemm}")
            for name in match.views:  # the reference's views of the GEMM's output, now of the fused one
                source = nodes[name].args[0]
                result = graph.node_copy(nodes[name], lambda arg, source=source, result=result:
                                         result if arg is source else arg)
        last.replace_all_uses_with(result)
        for name in (*reversed(match.epilogue), *reversed(match.views), match.gemm):
            graph.erase_node(nodes[name])
        if extra is not None and not extra.users:
            graph.erase_node(extra)
    graph.lint()
    graph_module.recompile()
    imports, forward = graph_forward_source(graph_module, {"_hiera_gemm_activation": helper})
    code = model_new(ctx.reference_class, "GEMMs with their bias, activation and scaling fused into cuBLASLt "
                     "GEMM epilogues (torch._addmm_activation).", forward=forward,
                     helpers=FUSED_GEMM_HELPER, imports=imports)
    return Candidate(name="cuda_libs.cublaslt_epilogue", space="cuda_libs", strategy="cublaslt_epilogue",
                     code=code, reason=applies_cublaslt_epilogue(ctx.spec) or "", requires_cuda=True)


register(Strategy("cuda_libs", "cudnn_benchmark", "cuDNN algorithm autotuning", applies_cudnn_benchmark,
                  generate_cudnn_benchmark, requires_cuda=True))
register(Strategy("cuda_libs", "cudnn_nhwc", "cuDNN NHWC with algorithm autotuning", applies_cudnn_nhwc,
                  generate_cudnn_nhwc, requires_cuda=True))
register(Strategy("cuda_libs", "tf32", "TF32 tensor-core math (precision=tf32 only)", applies_tf32,
                  generate_tf32, requires_cuda=True))
register(Strategy("cuda_libs", "cublaslt_epilogue", "cuBLASLt fused bias/activation epilogue",
                  applies_cublaslt_epilogue, generate_cublaslt_epilogue, requires_cuda=True))

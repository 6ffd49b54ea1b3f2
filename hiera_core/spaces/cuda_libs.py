"""The CUDA-library space: cuDNN algorithm search and layout, cuBLASLt fused epilogues, TF32
only when the contract's precision policy allows it.

Backend flags are set and restored inside ModelNew.forward (try/finally), never leaked to the
caller's process.
"""

from __future__ import annotations

from hiera_core.spaces.codegen import graph_forward_source, model_new
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
    if applies_cudnn_benchmark(spec) is None:
        return None
    if not any(node.get("module_type") == "Conv2d" or node["target"].endswith("conv2d")
               for node in spec.graph.get("nodes", [])):
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


# ---- cuBLASLt epilogue: Linear [+ bias] -> ReLU / tanh-GELU [* positive scale] in one call ------------

def _linear_chains(graph_module) -> list[dict]:
    """Linear layers followed by an optional bias add, a ReLU/tanh-GELU and an optional positive scale."""
    import operator

    import torch

    modules = dict(graph_module.named_modules())
    chains = []
    for node in graph_module.graph.nodes:
        if not (node.op == "call_module" and isinstance(modules.get(node.target), torch.nn.Linear)):
            continue
        chain = {"linear": node, "module": node.target, "extra_bias": None, "gelu": False, "scale": 1.0, "nodes": [node]}
        current = node
        user = _only_user(current)
        if user is not None and user.op == "call_function" and user.target in (operator.add, torch.add) \
                and _is_vector_param(user, current, graph_module, modules[node.target].out_features):
            chain["extra_bias"] = next(a for a in user.args if a is not current)
            chain["nodes"].append(user)
            current, user = user, _only_user(user)
        activation = _activation(user, modules)
        if activation is None:
            continue
        chain["gelu"] = activation == "gelu"
        chain["nodes"].append(user)
        current, user = user, _only_user(user)
        if user is not None and user.op == "call_function" and user.target in (operator.mul, torch.mul):
            other = user.args[1] if user.args[0] is current else user.args[0]
            if isinstance(other, (int, float)) and other > 0:
                chain["scale"] = float(other)
                chain["nodes"].append(user)
        chains.append(chain)
    return chains


def _only_user(node):
    users = list(node.users)
    return users[0] if len(users) == 1 else None


def _is_vector_param(add_node, linear_node, graph_module, features: int) -> bool:
    other = add_node.args[1] if add_node.args[0] is linear_node else add_node.args[0]
    if not hasattr(other, "op") or other.op != "get_attr":
        return False
    meta = other.meta.get("tensor_meta")
    return meta is not None and list(meta.shape) in ([features], [1, features])


def _activation(node, modules) -> str | None:
    import torch
    import torch.nn.functional as F

    if node is None:
        return None
    if node.op == "call_module":
        module = modules.get(node.target)
        if isinstance(module, torch.nn.ReLU):
            return "relu"
        if isinstance(module, torch.nn.GELU) and module.approximate == "tanh":
            return "gelu"
    if node.op == "call_function":
        if node.target in (torch.relu, F.relu):
            return "relu"
        if node.target is F.gelu and node.kwargs.get("approximate") == "tanh":
            return "gelu"
    if node.op == "call_method" and node.target == "relu":
        return "relu"
    return None


FUSED_LINEAR_HELPER = '''
def _hiera_linear_activation(x, weight, bias, extra_bias, scale, use_gelu):
    """act(x @ weight.T + bias [+ extra_bias]) * scale as one cuBLASLt call with a fused epilogue.

    scale > 0, so act(z) * scale == act(z * scale) for ReLU; it is folded into alpha/beta.
    For GELU the scale cannot be folded and is applied after.
    """
    total_bias = bias if extra_bias is None else bias + extra_bias.reshape(-1)
    rows = x.reshape(-1, x.shape[-1])
    fold = 1.0 if use_gelu else scale
    out = torch._addmm_activation(total_bias, rows, weight.t(), beta=fold, alpha=fold, use_gelu=use_gelu)
    if use_gelu and scale != 1.0:
        out = out * scale
    return out.reshape(*x.shape[:-1], weight.shape[0])
'''


def applies_cublaslt_epilogue(spec: Spec) -> str | None:
    if not spec.graph.get("traceable"):
        return None
    nodes = spec.graph.get("nodes", [])
    for index, node in enumerate(nodes):
        if node.get("module_type") == "Linear" and any(map(_epilogue_activation, nodes[index + 1:index + 4])):
            return "Linear followed by bias/activation/scale: cuBLASLt applies them as the GEMM's epilogue"
    return None


def _epilogue_activation(node: dict) -> bool:
    """Whether the spec's graph node is an activation cuBLASLt's epilogue computes: a ReLU, or a GELU
    in its tanh form (cuBLASLt has no exact-erf GELU; `_activation` generates only these)."""
    name = node.get("module_type") or node["target"].rsplit(".", 1)[-1]
    if name in ("ReLU", "relu"):
        return True
    settings = node.get("constants") if node.get("module_type") else node.get("kwargs")
    return name in ("GELU", "gelu") and (settings or {}).get("approximate") == "tanh"


def generate_cublaslt_epilogue(ctx: ImplementContext) -> Candidate | None:
    import copy

    if ctx.graph is None:
        return None
    graph_module = copy.deepcopy(ctx.graph)
    chains = [chain for chain in _linear_chains(graph_module)
              if graph_module.get_submodule(chain["module"]).bias is not None]
    if not chains:
        return None
    graph = graph_module.graph
    # The FX graph calls the same helper that the candidate's source defines at module level.
    namespace: dict = {"__name__": "hiera_generated"}
    exec(compile("import torch\n" + FUSED_LINEAR_HELPER, "<hiera-helper>", "exec"), namespace)
    helper = namespace["_hiera_linear_activation"]
    for chain in chains:
        last = chain["nodes"][-1]
        with graph.inserting_before(last):
            weight = graph.get_attr(f"{chain['module']}.weight")
            bias = graph.get_attr(f"{chain['module']}.bias")
            fused = graph.create_node("call_function", helper, (chain["linear"].args[0], weight, bias,
                                                                chain["extra_bias"], chain["scale"], chain["gelu"]),
                                      name=f"fused_{chain['module'].replace('.', '_')}")
        last.replace_all_uses_with(fused)
        for node in reversed(chain["nodes"]):
            graph.erase_node(node)
    graph.lint()
    graph_module.recompile()
    imports, forward = graph_forward_source(graph_module, {"_hiera_linear_activation": helper})
    code = model_new(ctx.reference_class, "Linear layers with their bias, activation and scaling fused into "
                     "cuBLASLt GEMM epilogues (torch._addmm_activation).", forward=forward,
                     helpers=FUSED_LINEAR_HELPER, imports=imports)
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

"""The custom-CUDA space: expert kernel templates generated from the FX graph, compiled with NVRTC.

One lowering (`lowering`: a handler per op, registered by its family's `lower_*` module) turns the
traced forward into generated kernels plus explicit library calls (cuBLAS/cuDNN through
F.linear/F.conv*/torch.matmul, and views). The strategy that applies is the template family
leading that lowering, by priority: stencil > pooling > row_reduction > pointwise (a pointwise
kernel leads only when it fuses two or more ops). So each graph gets one custom-CUDA candidate,
named after its main template:

- `pointwise_chain`: one kernel per chain of elementwise ops (broadcast bias, activations, clamp,
  scaling, residuals), standalone or as the epilogue after a library op;
- `row_reduction`: softmax / log_softmax (online, one read), layernorm, rmsnorm, last-dim and
  trailing-dims reductions with their pointwise prologue and epilogue fused, sum/mean/max/min/
  argmax/prod over any single dim, group and instance norm, cumsum/cumprod scans over any dim;
- `pooling`: max/avg pooling, 1D-3D;
- `stencil`: depthwise or single-channel 3x3(x3) convolutions as shared-memory tiled stencils.

`applies` lowers the spec's graph summary (pure, no torch); `generate` lowers the real FX graph with
the module at hand (attributes, stencil coefficients) and renders the proposal.
"""

from __future__ import annotations

from hiera_core.spaces.custom_cuda import (  # noqa: F401  (registration)
    lower_composed,
    lower_library,
    lower_norms,
    lower_pointwise,
    lower_reductions,
    lower_scan,
    lower_stencil,
)
from hiera_core.spaces.custom_cuda.graph import (
    Lowering,
    Op,
    Ref,
    Resolver,
    Unsupported,
    normalize_fn,
    ops_from_spec_graph,
)
from hiera_core.spaces.custom_cuda.lowering import lower
from hiera_core.spaces.strategy import Candidate, ImplementContext, Strategy, register

TEMPLATES = {
    "pointwise": ("pointwise_chain", "Fused pointwise kernel generated from the FX graph"),
    "row_reduction": ("row_reduction", "Row kernels: warp-shuffle reductions, online softmax, norms"),
    "pooling": ("pooling", "Max/avg pooling kernel, one thread per output"),
    "stencil": ("stencil", "Shared-memory tiled stencil, register queue along the slowest axis"),
}


class SpecResolver(Resolver):
    """Planning: parameter kinds and shapes from the spec; module attributes unknown."""

    def __init__(self, spec):
        self.params = {p.name: p for p in spec.parameters}

    def tensor_kind(self, path: str) -> str | None:
        param = self.params.get(path)
        return param.kind if param else None

    def tensor_shape(self, path: str) -> tuple | None:
        param = self.params.get(path)
        return tuple(param.shape) if param else None


class ModelResolver(Resolver):
    """Generation: the reference module's submodules, parameters and buffers."""

    def __init__(self, model):
        self.model = model
        self.parameters = dict(model.named_parameters())
        self.buffers = dict(model.named_buffers())

    def module(self, path: str):
        return self.model.get_submodule(path)

    def tensor(self, path: str):
        return self.parameters.get(path, self.buffers.get(path))

    def tensor_kind(self, path: str) -> str | None:
        return "parameter" if path in self.parameters else "buffer" if path in self.buffers else None

    def tensor_shape(self, path: str) -> tuple | None:
        tensor = self.tensor(path)
        return tuple(tensor.shape) if tensor is not None else None


def ops_from_fx(gm) -> list[Op]:
    """Op records from a shape-propagated torch.fx GraphModule."""
    import torch.fx

    def convert(value):
        if isinstance(value, torch.fx.Node):
            return Ref(value.name)
        if isinstance(value, (list, tuple)):
            return type(value)(convert(v) for v in value)
        if isinstance(value, slice):  # x[..., : x.shape[-1] // 2]: a bound computed in the forward
            return slice(convert(value.start), convert(value.stop), convert(value.step))
        return value

    ops = []
    for node in gm.graph.nodes:
        module_type = type(gm.get_submodule(node.target)).__name__ if node.op == "call_module" else None
        if node.op == "call_function":  # e.g. torch._C._VariableFunctions.reshape -> torch.reshape
            module = getattr(node.target, "__module__", None) or "torch"
            module = {"_operator": "operator", "torch._C._nn": "torch.nn.functional",
                      "torch._C._VariableFunctions": "torch", "torch.functional": "torch"}.get(module, module)
            target = f"{module}.{getattr(node.target, '__name__', node.target)}"
        else:
            target = str(node.target)
        meta = node.meta.get("tensor_meta")
        shape = tuple(meta.shape) if hasattr(meta, "shape") else None
        dtype = str(meta.dtype).removeprefix("torch.") if hasattr(meta, "dtype") else None
        constant = None
        if node.op == "get_attr" and node.target.startswith("_tensor_constant"):
            value = getattr(gm, node.target)
            constant = float(value.item()) if value.numel() == 1 and value.is_floating_point() else None
        ops.append(Op(node.name, node.op, normalize_fn(node.op, target, module_type), target, module_type,
                      [convert(a) for a in node.args], {k: convert(v) for k, v in node.kwargs.items()}, shape, dtype,
                      constant))
    return ops


def lower_spec(spec) -> Lowering | str:
    """The lowering of the spec's graph (led by a template or not), or why there is none."""
    graph = spec.graph or {}
    if not graph.get("traceable"):
        return f"the forward is not FX-traceable ({graph.get('reason') or 'no graph'})"
    try:
        return lower(ops_from_spec_graph(graph), SpecResolver(spec))
    except Unsupported as why:
        return str(why)
    except Exception as error:  # a lowering bug costs this space the module, not the whole plan
        return (f"the custom-CUDA lowering failed on this graph ({type(error).__name__}: {error}); the other "
                f"spaces are still planned. This is a HIERA bug: please report it with the module")


def plan_from_spec(spec) -> Lowering | str:
    """The lowering of the spec's graph when a template leads it, or why there is none."""
    lowering = lower_spec(spec)
    if isinstance(lowering, str):
        return lowering
    if lowering.family is None:
        left = "; ".join(lowering.fallbacks.values())
        return "no kernel would fuse two or more ops" + (f" (left to PyTorch: {left})" if left else "")
    return lowering


def _make_strategy(family: str) -> Strategy:
    name, title = TEMPLATES[family]

    def applies(spec) -> str | None:
        lowering = plan_from_spec(spec)
        if isinstance(lowering, str) or lowering.family != family:
            return None
        return f"{title}: {lowering.describe()}"

    def generate(ctx: ImplementContext) -> Candidate | None:
        if ctx.graph is None:
            return None
        try:
            lowering = lower(ops_from_fx(ctx.graph), ModelResolver(ctx.model))
        except Unsupported:
            return None
        if lowering.family != family:
            return None
        from hiera_core.spaces.custom_cuda.codegen import render

        notes = [lowering.describe()] + [
            f"contract: stencil weight {s.config['weight']} keeps its zero pattern; taps {s.config['taps']}"
            for s in lowering.steps if s.family == "stencil" and s.config.get("pruned") and "weight" in s.config] + lowering.contracts + [
            f"left to PyTorch: {node} ({why})" for node, why in lowering.fallbacks.items()]
        rendered = render(lowering, ctx.reference_class, title, notes)
        return Candidate(name=f"custom_cuda.{name}", space="custom_cuda", strategy=name, code=rendered.code,
                         reason=f"{title}: {lowering.describe()}", requires_cuda=True,
                         cuda_sources=rendered.sources)

    return register(Strategy("custom_cuda", name, title, applies, generate, requires_cuda=True))


STRATEGIES = {family: _make_strategy(family) for family in TEMPLATES}

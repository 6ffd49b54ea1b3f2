"""The PyTorch-operator space: torch.compile modes, CUDA-graph capture, channels_last, SDPA.

`applies` is pure (spec only); `generate` returns source text and only imports torch for the
FX rewrite (SDPA).
"""

from __future__ import annotations

import math

from hiera_core.spaces.attention import (
    attention_matches,
    causal_mask,
    mask_reads_inputs,
    tensor_ops_on_inputs,
    unread_attention_weights,
)
from hiera_core.spaces.codegen import graph_forward_source, model_new
from hiera_core.spaces.strategy import Candidate, ImplementContext, Strategy, register
from hiera_core.spec.model import Spec
from hiera_core.spec.trace import run_op


def _dynamic_flag(spec: Spec) -> str:
    # Declared dynamic dims compile once with symbolic sizes; otherwise specialise on the shapes.
    return "None" if spec.dynamic_dims else "False"


def _compile_candidate(ctx: ImplementContext, name: str, mode: str | None, reason: str, clone: bool = False) -> Candidate:
    mode_arg = repr(mode)
    # CUDA-graph trees reuse output memory on the next replay: hand the caller its own copy.
    copy_out = ("\n    if isinstance(out, torch.Tensor):\n        return out.clone()"
                "\n    return type(out)(o.clone() for o in out)") if clone else "\n    return out"
    forward = (f"def _hiera_reference_forward(self, *inputs):\n"
               f"    return {ctx.reference_class}.forward(self, *inputs)\n\n"
               f"def forward(self, *inputs):\n"
               f"    out = self._hiera_compiled(*inputs){copy_out}\n")
    code = model_new(
        ctx.reference_class,
        f"The reference forward compiled by torch.compile (inductor, mode={mode_arg}).",
        init=f"self._hiera_compiled = torch.compile(self._hiera_reference_forward, mode={mode_arg}, "
             f"dynamic={_dynamic_flag(ctx.spec)})",
        forward=forward)
    return Candidate(name=f"pytorch.{name}", space="pytorch", strategy=name, code=code, reason=reason,
                     requires_cuda=mode is not None and mode != "default")


def applies_compile_default(spec: Spec) -> str | None:
    if spec.workload_class == "compute-bound" and set(spec.op_kinds) <= {"matmul", "conv"}:
        return "only library ops (matmul/conv): inductor can add little beyond fusing what surrounds them"
    return (f"inductor fuses the {spec.kernel_launches} ops into fewer kernels, so intermediates skip memory "
            f"({spec.workload_class})")


def applies_compile_max_autotune(spec: Spec) -> str | None:
    if not {"matmul", "conv"} & set(spec.op_kinds):
        return None
    return "autotunes Triton GEMM/conv templates against cuBLAS/cuDNN and fuses epilogues into them"


def applies_reduce_overhead(spec: Spec) -> str | None:
    if spec.dynamic_dims:
        return None
    return (f"static shapes and {spec.kernel_launches} small ops: inductor fusion plus CUDA-graph replay "
            "removes per-launch overhead")


def applies_cuda_graph(spec: Spec) -> str | None:
    if spec.dynamic_dims:
        return None
    return (f"static shapes: one CUDA-graph replay instead of {spec.kernel_launches} launches "
            "(about 4 us of CPU overhead each)")


def graph_replay_methods(inner: str) -> str:
    """`_hiera_capture` and `forward`: `inner`.forward captured once per input signature in a CUDA
    graph and replayed. Inputs are copied into the graph's static buffers, outputs copied out (a
    caller's earlier result must survive the next replay)."""
    return f"""
        def _hiera_capture(self, inputs):
            static_inputs = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
            warmup = torch.cuda.Stream()
            warmup.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(warmup), torch.no_grad():
                for _ in range(3):
                    {inner}.forward(self, *static_inputs)
            torch.cuda.current_stream().wait_stream(warmup)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph), torch.no_grad():
                static_out = {inner}.forward(self, *static_inputs)
            return graph, static_inputs, static_out

        def forward(self, *inputs):
            key = tuple((tuple(x.shape), x.stride(), x.dtype, x.device) if isinstance(x, torch.Tensor) else x
                        for x in inputs)
            if key not in self._hiera_graphs:
                self._hiera_graphs[key] = self._hiera_capture(inputs)
            graph, static_inputs, static_out = self._hiera_graphs[key]
            for static, given in zip(static_inputs, inputs):
                if isinstance(static, torch.Tensor):
                    static.copy_(given)
            graph.replay()
            if isinstance(static_out, torch.Tensor):
                return static_out.clone()
            return type(static_out)(out.clone() for out in static_out)
        """


def generate_cuda_graph(ctx: ImplementContext) -> Candidate:
    code = model_new(
        ctx.reference_class,
        "The reference forward captured once per input signature in a CUDA graph and replayed. "
        "Inference only: inputs are copied into static buffers, outputs are copied out.",
        init="self._hiera_graphs = {}", forward=graph_replay_methods(ctx.reference_class))
    return Candidate(name="pytorch.cuda_graph", space="pytorch", strategy="cuda_graph", code=code,
                     reason=applies_cuda_graph(ctx.spec) or "", requires_cuda=True)


GRAPH_SUFFIX = "+graph"  # the strategy of a candidate `graphed` captured


def replays_a_graph(strategy: str) -> bool:
    """Whether candidates of `strategy` already replay a CUDA graph (graphing them again gains nothing)."""
    return strategy in ("cuda_graph", "compile_reduce_overhead") or strategy.endswith(GRAPH_SUFFIX)


def graphed(candidate: Candidate, why: str) -> Candidate:
    """`candidate` with its own forward captured in a CUDA graph: the refinement for a verified
    candidate whose call is paced by its host (Python, launches) rather than its GPU work. Same
    space: the graph replays the candidate's kernels, nothing else."""
    wrapper = model_new(
        "_HieraUngraphed",
        f"{candidate.name}, its forward captured once per input signature in a CUDA graph and replayed: "
        f"one launch instead of its host path. Inputs are copied into static buffers, outputs are copied out.",
        init="self._hiera_graphs = {}", forward=graph_replay_methods("_HieraUngraphed"))
    code = f"{candidate.code.rstrip()}\n\n\n_HieraUngraphed = ModelNew\n\n\n{wrapper}"
    return Candidate(name=f"{candidate.name}.graphed", space=candidate.space, strategy=candidate.strategy + GRAPH_SUFFIX,
                     code=code, reason=why, requires_cuda=True, cuda_sources=candidate.cuda_sources)


def nhwc_applies(spec: Spec) -> bool:
    """Whether the module may run in NHWC (channels_last): it has 2D convolutions, and no `view`
    flattens a map of several channels and pixels, which fails on an NHWC tensor (LeNet-5's
    `x.view(-1, 16*5*5)`: every NHWC candidate of it was rejected, session 40)."""
    nodes = spec.graph.get("nodes", [])
    if not any(node.get("module_type") == "Conv2d" or node["target"].endswith("conv2d") for node in nodes):
        return False
    shapes = {node["name"]: node.get("shape") for node in nodes}
    for node in nodes:
        if node.get("op") == "call_method" and node["target"] == "view" and node.get("args"):
            source = node["args"][0]
            shape = shapes.get(source.get("node")) if isinstance(source, dict) else None
            if shape and len(shape) == 4 and shape[1] > 1 and shape[2] * shape[3] > 1 \
                    and len(node.get("shape") or []) != 4:
                return False
    return True


def applies_channels_last(spec: Spec) -> str | None:
    if not nhwc_applies(spec):
        return None
    return "2D convolutions run fastest in NHWC on tensor cores; weights converted once, input per call"


def generate_channels_last(ctx: ImplementContext) -> Candidate:
    cls = ctx.reference_class
    code = model_new(
        cls,
        "The reference forward in channels_last (NHWC) layout: 4D parameters converted once, 4D inputs "
        "per call, and the output returned in the reference's (contiguous) layout.",
        init="self.to(memory_format=torch.channels_last)",
        forward=f"""
            def forward(self, *inputs):
                inputs = [x.contiguous(memory_format=torch.channels_last)
                          if isinstance(x, torch.Tensor) and x.dim() == 4 else x for x in inputs]
                out = {cls}.forward(self, *inputs)
                if isinstance(out, torch.Tensor):
                    return out.contiguous()
                return type(out)(o.contiguous() for o in out)
            """)
    return Candidate(name="pytorch.channels_last", space="pytorch", strategy="channels_last", code=code,
                     reason=applies_channels_last(ctx.spec) or "", requires_cuda=True)


# ---- SDPA: softmax(f(q @ k^T)) @ v  ->  F.scaled_dot_product_attention (spaces/attention.py) ---------

def applies_sdpa(spec: Spec) -> str | None:
    found, modules = attention_matches(spec.graph), unread_attention_weights(spec.graph)
    reasons = []
    if found:
        masked = " with its mask" if any(match.masked for match in found) else ""
        reasons.append(f"softmax(q k^T) v written by hand{masked} ({len(found)} found from what the ops compute)")
    if modules:
        reasons.append(f"nn.MultiheadAttention whose attention weights nothing reads ({len(modules)}), called with "
                       "need_weights=False")
    if not reasons:
        return None
    return "; ".join(reasons) + ": F.scaled_dot_product_attention runs each as one fused kernel that never writes the scores"


def applies_sdpa_compiled(spec: Spec) -> str | None:
    found, modules = attention_matches(spec.graph), unread_attention_weights(spec.graph)
    if not found and not modules:
        return None
    inside = {name for match in found for name in (*match.chain, match.scores, match.softmax, *match.identities,
                                                     match.out)} | set(modules)
    rest = [name for name in tensor_ops_on_inputs(spec.graph) if name not in inside]
    if not rest:
        return None
    return (f"attention ({len(found) + len(modules)}) as F.scaled_dot_product_attention, and the {len(rest)} other "
            "ops around it fused by inductor (torch.compile)")


def _rewritten_with_sdpa(ctx: ImplementContext):
    """A copy of the reference's FX graph with each hand-written attention replaced by
    F.scaled_dot_product_attention and each nn.MultiheadAttention whose weights nothing reads called
    with need_weights=False, and what each became; None when there is none to replace."""
    import copy
    import operator

    import torch

    found = attention_matches(ctx.spec.graph) if ctx.graph is not None else []
    modules = unread_attention_weights(ctx.spec.graph) if ctx.graph is not None else []
    if not found and not modules:
        return None
    graph_module = copy.deepcopy(ctx.graph)
    graph = graph_module.graph
    nodes = {node.name: node for node in graph.nodes}
    forms = []
    for name in modules:
        nodes[name].kwargs = {**nodes[name].kwargs, "need_weights": False}
        forms.append("nn.MultiheadAttention, weights not computed")
    for match in found:
        out, scores = nodes[match.out], nodes[match.scores]
        causal = False
        with graph.inserting_before(out):
            scale: object = 1.0
            for kind, operand in match.scales:
                factor = nodes[operand] if isinstance(operand, str) else operand
                scale = graph.call_function(operator.mul if kind == "mul" else operator.truediv, (scale, factor)) \
                    if isinstance(scale, torch.fx.Node) or isinstance(factor, torch.fx.Node) else \
                    (scale * factor if kind == "mul" else scale / factor)
            mask = None
            if match.masked:
                if not mask_reads_inputs(match, ctx.spec.graph):
                    causal = _replayed_mask_is_causal(ctx, graph_module, match)
                if not causal:
                    if ctx.spec.dynamic_dims:
                        return None  # the mask is replayed on zeros of the scores' static shape
                    shape = _zero_scores_shape(nodes, match)
                    replayed = {scores: graph.call_method("new_zeros", (nodes[match.query], shape))}
                    for name in match.chain:  # f(0): the chain replayed on zero scores
                        replayed[nodes[name]] = graph.node_copy(nodes[name], lambda arg, replayed=replayed: replayed.get(arg, arg))
                    mask = replayed[nodes[match.chain[-1]]]
            kwargs = {"scale": scale}
            if mask is not None:
                kwargs["attn_mask"] = mask
            if causal:
                kwargs["is_causal"] = True
            fused = graph.call_function(torch.nn.functional.scaled_dot_product_attention,
                                        (nodes[match.query], nodes[match.key], nodes[match.value]), kwargs)
        out.replace_all_uses_with(fused)
        forms.append("causal" if causal else "masked" if mask is not None else "unmasked")
    graph.eliminate_dead_code()
    graph.lint()
    graph_module.recompile()
    return graph_module, forms


def _zero_scores_shape(nodes: dict, match) -> tuple[int, ...]:
    """The shape of the zero scores the mask chain is replayed on: the scores' own, or, when the chain
    is elementwise in them (no views), one over the batch dims. The mask then has only the batch dims
    its operands have (BERT's (B, 1, 1, S) padding mask gives (B, 1, L, S)) and SDPA broadcasts it."""
    shape = tuple(nodes[match.scores].meta["tensor_meta"].shape)
    return (1,) * (len(shape) - 2) + shape[-2:] if match.elementwise else shape


# The causal check evaluates the mask on the CPU; larger ones (256 MiB in float32) are replayed per call.
MOST_MASK_ELEMENTS = 2 ** 26


def _replayed_mask_is_causal(ctx: ImplementContext, graph_module, match) -> bool:
    """Whether the chain's mask, replayed on zero scores with the module's own buffers (on the inputs'
    device), is the causal triangle (attention.causal_mask). False when it cannot be evaluated here
    (meta inputs)."""
    import torch
    from torch.fx.node import map_arg

    nodes = {node.name: node for node in graph_module.graph.nodes}
    placeholders = [node for node in graph_module.graph.nodes if node.op == "placeholder"]
    values = {node: value for node, value in zip(placeholders, ctx.example_inputs)}
    if any(isinstance(v, torch.Tensor) and v.is_meta for v in values.values()):
        return False
    scores = nodes[match.scores]
    shape = _zero_scores_shape(nodes, match)
    if math.prod(shape) > MOST_MASK_ELEMENTS:
        return False
    # Where the inputs are: a worker on a GPU holds the module and its buffers there.
    device = next((v.device for v in values.values() if isinstance(v, torch.Tensor)), torch.device("cpu"))
    values[scores] = torch.zeros(shape, dtype=scores.meta["tensor_meta"].dtype, device=device)

    def evaluate(node):
        if node in values:
            return values[node]
        result = run_op(graph_module, node.op, node.target, map_arg(node.args, evaluate), map_arg(node.kwargs, evaluate))
        values[node] = result
        return result

    try:
        with torch.no_grad():
            mask = evaluate(nodes[match.chain[-1]])
    except Exception:  # an op that needs the GPU or real inputs: replayed per call instead
        return False
    return isinstance(mask, torch.Tensor) and causal_mask(mask)


def generate_sdpa(ctx: ImplementContext, compiled: bool = False) -> Candidate | None:
    """The reference with its hand-written attention as SDPA; `compiled`: that forward under
    torch.compile (default mode)."""
    rewritten = _rewritten_with_sdpa(ctx)
    if rewritten is None:
        return None
    graph_module, forms = rewritten
    imports, forward = graph_forward_source(graph_module)
    doc = f"Hand-written attention replaced by F.scaled_dot_product_attention ({', '.join(forms)})"
    name, init, reason = "sdpa", "", applies_sdpa(ctx.spec)
    if compiled:
        name, reason = "sdpa_compiled", applies_sdpa_compiled(ctx.spec)
        doc += ", the forward then compiled by torch.compile (inductor, default mode)"
        init = f"self._hiera_compiled = torch.compile(self._hiera_rewritten_forward, dynamic={_dynamic_flag(ctx.spec)})"
        forward = (forward.replace("def forward(self", "def _hiera_rewritten_forward(self", 1)
                   + "\n\ndef forward(self, *inputs):\n    return self._hiera_compiled(*inputs)\n")
    code = model_new(ctx.reference_class, f"{doc}.", forward=forward, init=init, imports=imports)
    return Candidate(name=f"pytorch.{name}", space="pytorch", strategy=name, code=code, reason=reason or "")


register(Strategy("pytorch", "compile_default", "torch.compile (default mode)", applies_compile_default,
                  lambda ctx: _compile_candidate(ctx, "compile_default", None, applies_compile_default(ctx.spec) or "")))
register(Strategy("pytorch", "compile_max_autotune", "torch.compile (max-autotune, no CUDA graphs)",
                  applies_compile_max_autotune,
                  lambda ctx: _compile_candidate(ctx, "compile_max_autotune", "max-autotune-no-cudagraphs",
                                                 applies_compile_max_autotune(ctx.spec) or ""),
                  requires_cuda=True))
register(Strategy("pytorch", "compile_reduce_overhead", "torch.compile (reduce-overhead: CUDA graphs)",
                  applies_reduce_overhead,
                  lambda ctx: _compile_candidate(ctx, "compile_reduce_overhead", "reduce-overhead",
                                                 applies_reduce_overhead(ctx.spec) or "", clone=True),
                  requires_cuda=True))
register(Strategy("pytorch", "cuda_graph", "CUDA-graph capture of the eager forward", applies_cuda_graph,
                  generate_cuda_graph, requires_cuda=True))
register(Strategy("pytorch", "channels_last", "channels_last (NHWC) layout", applies_channels_last,
                  generate_channels_last, requires_cuda=True))
register(Strategy("pytorch", "sdpa", "fused attention (scaled_dot_product_attention)", applies_sdpa, generate_sdpa))
register(Strategy("pytorch", "sdpa_compiled", "fused attention, the rest compiled by torch.compile",
                  applies_sdpa_compiled, lambda ctx: generate_sdpa(ctx, compiled=True)))

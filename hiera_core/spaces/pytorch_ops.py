"""The PyTorch-operator space: torch.compile modes, CUDA-graph capture, channels_last, SDPA.

`applies` is pure (spec only); `generate` returns source text and only imports torch for the
FX rewrite (SDPA).
"""

from __future__ import annotations

from hiera_core.spaces.codegen import graph_forward_source, model_new
from hiera_core.spaces.strategy import Candidate, ImplementContext, Strategy, register
from hiera_core.spec.model import Spec


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


def _has_4d_conv(spec: Spec) -> bool:
    return any(node.get("module_type") == "Conv2d" or node["target"].endswith("conv2d")
               for node in spec.graph.get("nodes", []))


def applies_channels_last(spec: Spec) -> str | None:
    if not _has_4d_conv(spec):
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


# ---- SDPA: softmax(q @ k^T * scale) @ v  ->  F.scaled_dot_product_attention ------------------------

def _attention_matches(graph) -> list[dict]:
    """Find matmul -> scale -> softmax(-1) -> matmul chains in an FX graph."""
    import operator

    import torch

    matmuls = (torch.matmul, torch.bmm, operator.matmul)
    matches = []
    for node in graph.nodes:
        if node.op != "call_function" or node.target not in matmuls:
            continue
        probs, value = node.args
        if not hasattr(probs, "op") or not _is_softmax_last(probs):
            continue
        scaled = probs.args[0]
        scale = 1.0
        if scaled.op == "call_function" and scaled.target in (operator.mul, operator.truediv, torch.mul, torch.div) \
                and isinstance(scaled.args[1], (int, float)):
            scale = scaled.args[1] if scaled.target in (operator.mul, torch.mul) else 1.0 / scaled.args[1]
            scores = scaled.args[0]
        else:
            scores = scaled
        if not (hasattr(scores, "op") and scores.op == "call_function" and scores.target in matmuls):
            continue
        query, key_t = scores.args
        key = _untransposed_key(key_t)
        if key is None or len(probs.users) != 1 or len(scores.users) != 1:
            continue
        matches.append({"out": node, "query": query, "key": key, "value": value, "scale": float(scale)})
    return matches


def _is_softmax_last(node) -> bool:
    import torch

    if node.op == "call_function" and node.target in (torch.softmax, torch.nn.functional.softmax):
        dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
        return dim == -1
    if node.op == "call_method" and node.target == "softmax":
        dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
        return dim == -1
    return False


def _untransposed_key(node):
    import torch

    if not hasattr(node, "op"):
        return None
    if node.op == "call_method" and node.target == "transpose" or \
            node.op == "call_function" and node.target is torch.transpose:
        dims = {d % 4 if isinstance(d, int) else d for d in node.args[1:3]} if len(node.args) >= 3 else set()
        if set(node.args[1:3]) == {-2, -1} or dims == {2, 3}:
            return node.args[0]
    return None


def applies_sdpa(spec: Spec) -> str | None:
    kinds = set(spec.op_kinds)
    if "softmax" in kinds and "matmul" in kinds and spec.graph.get("traceable"):
        return "softmax(q k^T) v written by hand: F.scaled_dot_product_attention runs it as one fused kernel"
    return None


def generate_sdpa(ctx: ImplementContext) -> Candidate | None:
    import copy

    import torch

    if ctx.graph is None:
        return None
    graph_module = copy.deepcopy(ctx.graph)
    matches = _attention_matches(graph_module.graph)
    if not matches:
        return None
    for match in matches:
        with graph_module.graph.inserting_before(match["out"]):
            fused = graph_module.graph.call_function(
                torch.nn.functional.scaled_dot_product_attention,
                (match["query"], match["key"], match["value"]), {"scale": match["scale"]})
        match["out"].replace_all_uses_with(fused)
    graph_module.graph.eliminate_dead_code()
    graph_module.recompile()
    imports, forward = graph_forward_source(graph_module)
    code = model_new(ctx.reference_class, "Hand-written attention replaced by F.scaled_dot_product_attention.",
                     forward=forward, imports=imports)
    return Candidate(name="pytorch.sdpa", space="pytorch", strategy="sdpa", code=code,
                     reason=applies_sdpa(ctx.spec) or "")


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

"""Profile feedback: a verified candidate whose calls are paced by the host (its GPU work a fraction
of the time to queue a call) gets one more try, its own forward replayed as a CUDA graph, and so does
the best library or custom-CUDA one beside a compiled module when its GPU work is close; a candidate
that is GPU-bound, or already replays a graph, does not."""

from __future__ import annotations

import ast

import pytest

from hiera_core.loop.evaluate import host_bound_refinements
from hiera_core.loop.run_result import CandidateOutcome
from hiera_core.spec.model import Roofline, Spec, TensorInfo
from hiera_core.verify.verdicts import static_verification

KERNEL_CODE = '''import torch

class ModelNew(Model):
    def forward(self, x):
        return _hiera_pointwise(_HIERA_SRC_0, "hiera_pointwise0", (x,), (True,), 1)[0]
'''


def candidate(name: str, space: str = "custom_cuda") -> dict:
    return {"name": name, "space": space, "strategy": name.split(".")[1], "code": KERNEL_CODE, "reason": "",
            "requires_cuda": True, "cuda_sources": ["__global__ void k() {}"]}


def outcome(name: str, gpu_ms: float, host_ms: float, space: str = "custom_cuda") -> CandidateOutcome:
    bound = "host" if host_ms > gpu_ms * 1.05 + 0.002 else "gpu"
    ms = max(gpu_ms, host_ms) if bound == "host" else gpu_ms
    return CandidateOutcome(name=name, space=space, strategy=name.split(".")[1], status="verified", reason="",
                            speedup=0.1 / ms, ms=ms, baseline_ms=0.1,
                            timing={"bound": bound, "gpu_median_ms": gpu_ms, "host_median_ms": host_ms, "median_ms": ms})


def static_spec(dynamic: bool = False, elements: int = 4096) -> Spec:
    """A spec with one float32 input and output of `elements` values each, on an H100's bandwidth."""
    spec = Spec.__new__(Spec)
    spec.dynamic_dims = [{"input": 0, "dim": 0}] if dynamic else []
    spec.inputs = [TensorInfo("x", [elements], "float32", [1], True, "cuda")]
    spec.outputs = [TensorInfo("out", [elements], "float32", [1], True, "cuda")]
    spec.roofline = Roofline("h100", "H100", 6.7e13, 3.35e12, 0.0, 0.0, 0.0, "memory")
    return spec


def test_the_host_bound_candidate_with_least_gpu_work_is_graphed():
    # level2/7 GroupNorm + SiLU on the H200: the custom kernels 13 us of GPU work, 41 us to queue.
    candidates = [candidate("custom_cuda.row_reduction"), candidate("pytorch.compile_default", "pytorch")]
    outcomes = [outcome("custom_cuda.row_reduction", 0.013, 0.041), outcome("pytorch.compile_default", 0.0115, 0.088, "pytorch")]
    compiled, kernels = host_bound_refinements(static_spec(), candidates, outcomes)
    refinement = compiled
    assert refinement["name"] == "pytorch.compile_default.graphed" and refinement["space"] == "pytorch"
    assert refinement["strategy"] == "compile_default+graph" and refinement["requires_cuda"]
    assert "host-bound: 0.0115 ms of GPU work, 0.088 ms to queue a call" in refinement["reason"]
    # The custom kernels' 13 us are within reach of inductor's 11.5 us once both replay a graph.
    assert kernels["name"] == "custom_cuda.row_reduction.graphed" and kernels["space"] == "custom_cuda"


def test_a_candidate_queued_a_little_slower_than_its_gpu_work_is_graphed_when_that_would_win():
    # GPT-2's MLP on the H100 (2026-12-06): the custom GELU kernel between the two GEMMs took 0.166 ms
    # of GPU work and 0.189 ms to queue, inductor's 0.162 and 0.200, the eager graph 0.190 GPU-bound;
    # the proposal was the eager graph.
    candidates = [candidate("pytorch.cuda_graph", "pytorch"), candidate("pytorch.compile_default", "pytorch"),
                  candidate("custom_cuda.pointwise_chain")]
    outcomes = [outcome("pytorch.cuda_graph", 0.1896, 0.150, "pytorch"),
                outcome("pytorch.compile_default", 0.1624, 0.200, "pytorch"),
                outcome("custom_cuda.pointwise_chain", 0.1657, 0.1887)]
    names = [r["name"] for r in host_bound_refinements(static_spec(), candidates, outcomes)]
    assert names[:2] == ["pytorch.compile_default.graphed", "custom_cuda.pointwise_chain.graphed"]


def test_a_compiled_module_whose_kernels_would_win_once_replayed_is_graphed():
    # DCGAN's generator on the H100 (2026-12-07): inductor's module 0.170 ms of GPU work a call, the
    # gaps between its launches included, 0.146 ms replayed; reduce-overhead 0.174 was the best.
    candidates = [candidate("pytorch.compile_default", "pytorch"), candidate("pytorch.compile_reduce_overhead", "pytorch")]
    compiled = outcome("pytorch.compile_default", 0.170, 0.428, "pytorch")
    outcomes = [compiled, outcome("pytorch.compile_reduce_overhead", 0.1595, 0.174, "pytorch")]
    assert host_bound_refinements(static_spec(), candidates, outcomes) == []  # GPU time alone: no gain
    compiled.timing["kernel_sum_ms"] = 0.140
    names = [r["name"] for r in host_bound_refinements(static_spec(), candidates, outcomes)]
    assert names == ["pytorch.compile_default.graphed"]
    compiled.timing["kernel_sum_ms"] = 0.169  # kernels that leave no gap to remove
    assert host_bound_refinements(static_spec(), candidates, outcomes) == []


def test_a_graph_is_not_tried_where_copying_the_inputs_into_it_would_cost_the_gain():
    candidates = [candidate("custom_cuda.pointwise_chain")]
    outcomes = [outcome("custom_cuda.pointwise_chain", 0.02, 0.043)]
    assert host_bound_refinements(static_spec(), candidates, outcomes)
    # 64 Mi float32 values in and out: 0.16 ms each to copy at the H100's 3.35 TB/s
    assert host_bound_refinements(static_spec(elements=64 << 20), candidates, outcomes) == []


def test_a_library_or_custom_candidate_far_behind_in_gpu_work_is_not_graphed_beside_it():
    candidates = [candidate("custom_cuda.row_reduction"), candidate("cuda_libs.cudnn_nhwc", "cuda_libs"),
                  candidate("pytorch.compile_default", "pytorch")]
    outcomes = [outcome("custom_cuda.row_reduction", 0.030, 0.090), outcome("cuda_libs.cudnn_nhwc", 0.012, 0.080),
                outcome("pytorch.compile_default", 0.0115, 0.088, "pytorch")]
    names = [r["name"] for r in host_bound_refinements(static_spec(), candidates, outcomes)]
    assert names == ["pytorch.compile_default.graphed", "cuda_libs.cudnn_nhwc.graphed"]
    outcomes[1] = outcome("cuda_libs.cudnn_nhwc", 0.020, 0.080)  # 1.7x the compiled module's GPU work
    names = [r["name"] for r in host_bound_refinements(static_spec(), candidates, outcomes)]
    assert names == ["pytorch.compile_default.graphed"]


def test_a_custom_rival_with_2d_convolutions_is_also_tried_with_them_nhwc():
    """Beside a compiled module (inductor lays a conv net's maps out channels-last), the custom rival
    that calls 2D convolutions is graphed as it is and with them in cuDNN's NHWC layout."""
    conv = KERNEL_CODE.replace("        return _hiera_pointwise(_HIERA_SRC_0, \"hiera_pointwise0\", (x,)",
                               "        y = torch.nn.functional.conv2d(x, self.conv.weight, None, 1, 1)\n"
                               "        return _hiera_pointwise(_HIERA_SRC_0, \"hiera_pointwise0\", (y,)")
    candidates = [dict(candidate("custom_cuda.stencil"), code=conv), candidate("pytorch.compile_default", "pytorch")]
    outcomes = [outcome("custom_cuda.stencil", 0.0736, 0.318), outcome("pytorch.compile_default", 0.063, 0.29, "pytorch")]
    refinements = host_bound_refinements(static_spec(), candidates, outcomes)
    assert [r["name"] for r in refinements] == ["pytorch.compile_default.graphed", "custom_cuda.stencil.graphed",
                                                "custom_cuda.stencil+cudnn_nhwc.graphed"]
    nhwc = refinements[-1]
    assert nhwc["space"] == "custom_cuda" and "NHWC layout, as inductor lays them out" in nhwc["reason"]
    assert "_hiera_relayout(x, True)" in nhwc["code"] and static_verification(nhwc["code"], "custom_cuda", "Model", 1).passed
    # A rival that is a composition already is not wrapped again.
    composed = dict(candidates[0], name="custom_cuda.stencil+cudnn_autotune", strategy="stencil+cudnn_autotune")
    names = [r["name"] for r in host_bound_refinements(static_spec(), [composed, candidates[1]],
                                                       [outcome("custom_cuda.stencil+cudnn_autotune", 0.0736, 0.318),
                                                        outcomes[1]])]
    assert names == ["pytorch.compile_default.graphed", "custom_cuda.stencil+cudnn_autotune.graphed"]
    # Beside a graphed eager module (not inductor's) it is not tried.
    outcomes[1] = outcome("pytorch.cuda_graph", 0.063, 0.29, "pytorch")
    candidates[1] = candidate("pytorch.cuda_graph", "pytorch")
    assert "custom_cuda.stencil+cudnn_nhwc.graphed" not in [r["name"] for r in host_bound_refinements(
        static_spec(), candidates, outcomes)]


def test_the_graphed_candidate_keeps_its_space_checks_and_replays_its_own_forward():
    candidates = [candidate("custom_cuda.pointwise_chain")]
    [refinement] = host_bound_refinements(static_spec(), candidates, [outcome("custom_cuda.pointwise_chain", 0.02, 0.043)])
    code = refinement["code"]
    assert refinement["space"] == "custom_cuda" and refinement["cuda_sources"] == candidates[0]["cuda_sources"]
    assert code.startswith(KERNEL_CODE.rstrip()) and "_HieraUngraphed = ModelNew" in code
    assert "_HieraUngraphed.forward(self, *static_inputs)" in code and "Model.forward" not in code
    classes = [node.name for node in ast.parse(code).body if isinstance(node, ast.ClassDef)]
    assert classes == ["ModelNew", "ModelNew"]  # the last definition, the graphed one, is what loads
    assert static_verification(code, "custom_cuda", "Model", 1).passed


@pytest.mark.parametrize("outcomes", [
    [outcome("custom_cuda.stencil", 0.048, 0.045)],  # GPU-bound: a graph saves nothing
    # host-paced, but its GPU work and the replay's two copies come within timing noise of its time
    [outcome("custom_cuda.pointwise_chain", 0.037, 0.042)],
    [outcome("pytorch.cuda_graph", 0.01, 0.04, "pytorch")],  # already a graph
    [outcome("pytorch.compile_reduce_overhead", 0.01, 0.09, "pytorch")],
    # host-bound, but its GPU work alone is no faster than the best candidate's time
    [outcome("custom_cuda.pointwise_chain", 0.03, 0.06), outcome("pytorch.channels_last", 0.02, 0.019, "pytorch")],
])
def test_no_refinement_when_no_candidate_is_paced_by_its_host(outcomes):
    candidates = [candidate(o.name, o.space) for o in outcomes]
    assert host_bound_refinements(static_spec(), candidates, outcomes) == []


def test_no_refinement_for_dynamic_shapes_or_without_a_verified_candidate():
    candidates = [candidate("custom_cuda.pointwise_chain")]
    assert host_bound_refinements(static_spec(dynamic=True), candidates,
                                 [outcome("custom_cuda.pointwise_chain", 0.01, 0.04)]) == []
    rejected = CandidateOutcome(name="custom_cuda.pointwise_chain", space="custom_cuda", strategy="pointwise_chain",
                                status="rejected", reason="values: differ")
    assert host_bound_refinements(static_spec(), candidates, [rejected]) == []


GLUE_CODE = '''import torch

class ModelNew(Model):
    def forward(self, x):
        y = torch.roll(x, (1, 2), (0, 1))
        return torch.cat([_hiera_pointwise(_HIERA_SRC_0, "hiera_pointwise0", (y,), (True,), 1)[0], x])
'''


def test_custom_kernels_slower_than_inductors_get_their_glue_compiled():
    """Inductor's kernels took less GPU time than the custom candidate's, whose forward leaves a roll
    and a concatenation to PyTorch: one more refinement, the custom kernels with that glue compiled
    by inductor, graphed; in the custom space."""
    candidates = [candidate("custom_cuda.stencil") | {"code": GLUE_CODE}, candidate("pytorch.compile_default", "pytorch")]
    outcomes = [outcome("custom_cuda.stencil", 0.030, 0.090), outcome("pytorch.compile_default", 0.0115, 0.088, "pytorch")]
    refinements = host_bound_refinements(static_spec(), candidates, outcomes)
    assert [r["name"] for r in refinements] == ["pytorch.compile_default.graphed",
                                                "custom_cuda.stencil.compiled_glue.graphed"]
    composed = refinements[1]
    assert composed["space"] == "custom_cuda" and composed["strategy"] == "stencil+compiled_glue+graph"
    assert "took 0.0115 ms of GPU work, custom_cuda.stencil's 0.03 ms" in composed["reason"]
    assert "_hiera_pointwise = torch.compiler.disable(_hiera_pointwise)" in composed["code"]
    assert static_verification(composed["code"], "custom_cuda", "Model", 1).passed


@pytest.mark.parametrize("best, code", [
    ("pytorch.compile_default", KERNEL_CODE),  # the custom forward is its kernel only: nothing to compile
    ("pytorch.channels_last", GLUE_CODE),  # the least GPU work is eager's ops in another layout, not inductor's
])
def test_no_compiled_glue_without_glue_or_without_inductor_ahead(best, code):
    candidates = [candidate("custom_cuda.stencil") | {"code": code}, candidate("pytorch.compile_default", "pytorch"),
                  candidate("pytorch.channels_last", "pytorch")]
    outcomes = [outcome("custom_cuda.stencil", 0.030, 0.090), outcome(best, 0.0115, 0.088, "pytorch")]
    names = [r["name"] for r in host_bound_refinements(static_spec(), candidates, outcomes)]
    assert names[0] == f"{best}.graphed"
    assert not any("compiled_glue" in name for name in names)


def test_compiled_glue_passes_over_a_faster_custom_candidate_with_nothing_to_compile():
    """The custom candidate with the least GPU work is a kernel-only forward (a library-flag variant
    wraps one the same way): the next one, whose forward leaves glue to PyTorch, is composed."""
    candidates = [candidate("custom_cuda.pointwise_chain"), candidate("custom_cuda.stencil") | {"code": GLUE_CODE},
                  candidate("pytorch.compile_default", "pytorch")]
    outcomes = [outcome("custom_cuda.pointwise_chain", 0.025, 0.090), outcome("custom_cuda.stencil", 0.030, 0.090),
                outcome("pytorch.compile_default", 0.0115, 0.088, "pytorch")]
    names = [r["name"] for r in host_bound_refinements(static_spec(), candidates, outcomes)]
    assert names[-1] == "custom_cuda.stencil.compiled_glue.graphed"


REWRITE_CODE = '''import torch

class ModelNew(Model):
    def forward(self, q, k, v):
        return torch.matmul(torch.tril(torch.matmul(q, k.transpose(-2, -1))), v)
'''


def test_an_exact_rewrite_behind_inductors_kernels_gets_its_own_ops_compiled_and_graphed():
    """Performer's causal linear attention on the H100 (2026-12-06): the rewrite verified, its nine
    launches 0.143 ms of GPU work and 0.446 ms to queue, max-autotune's fusion of the reference's ops
    0.073 and 0.143; the rewrite was left ungraphed and uncompiled. It is tried with inductor
    compiling its ops, graphed, and stays an exact rewrite (held to the bytes it moves)."""
    from hiera_core.spaces.algebra import rewrites_the_work

    candidates = [candidate("pytorch.scan_as_masked_matmul", "pytorch") | {"code": REWRITE_CODE},
                  candidate("pytorch.compile_max_autotune", "pytorch")]
    outcomes = [outcome("pytorch.scan_as_masked_matmul", 0.143, 0.446, "pytorch"),
                outcome("pytorch.compile_max_autotune", 0.0727, 0.1426, "pytorch")]
    refinements = host_bound_refinements(static_spec(), candidates, outcomes)
    assert [r["name"] for r in refinements] == ["pytorch.compile_max_autotune.graphed",
                                                "pytorch.scan_as_masked_matmul.compiled.graphed"]
    composed = refinements[-1]
    assert composed["space"] == "pytorch" and composed["strategy"] == "scan_as_masked_matmul+compiled+graph"
    assert rewrites_the_work(composed["space"], composed["strategy"])
    assert "torch.compile(self._hiera_rewritten_forward" in composed["code"]
    assert "took 0.0727 ms of GPU work, pytorch.scan_as_masked_matmul's 0.143 ms" in composed["reason"]
    assert static_verification(composed["code"], "pytorch", "Model", 1).passed
    # Already the least GPU work, the rewrite is graphed as it is: nothing else to compile it against.
    outcomes[0] = outcome("pytorch.scan_as_masked_matmul", 0.05, 0.446, "pytorch")
    names = [r["name"] for r in host_bound_refinements(static_spec(), candidates, outcomes)]
    assert names == ["pytorch.scan_as_masked_matmul.graphed"]

"""The contract-augmented spec (measured and meta-only) and the expert planner."""

import pytest
from helpers.engine import EXAMPLES, SIMPLE_TASK, write_task

from hiera_core.plan.planner import ExpertPlanner, render_plan
from hiera_core.spec.contract import classify, prepare
from hiera_core.spec.model import Spec, render_text
from hiera_core.task.load import load_task


def test_measured_spec_has_every_contract_field(tmp_path):
    path = write_task(tmp_path, "simple.py", SIMPLE_TASK)
    spec = prepare(load_task(str(path)), "cpu").spec
    (x,) = spec.inputs
    assert (x.name, x.shape, x.dtype, x.stride, x.contiguous, x.device) == ("x", [64, 128], "float32", [128, 1], True, "cpu")
    assert x.stats is not None and x.stats.finite and not x.stats.nonnegative
    (out,) = spec.outputs
    assert out.shape == [64, 128] and out.stats.min >= 1.0  # relu(x)*2 + 1
    assert spec.mutated_inputs == [] and spec.deterministic is True
    assert spec.tolerance["out"].rtol == 1e-4 and spec.tolerance["out"].atol > 0
    assert spec.precision == "strict" and spec.dynamic_dims == []
    assert spec.bytes_min == 2 * 64 * 128 * 4
    assert spec.reference_ms is not None and spec.measured and not spec.not_measured
    assert {op.op for op in spec.ops} >= {"aten::relu", "aten::mul", "aten::add"}
    assert abs(sum(op.share for op in spec.ops) - 1.0) < 1e-6
    assert spec.graph["traceable"] and any(n["kind"] == "pointwise" for n in spec.graph["nodes"])
    assert Spec.from_dict(spec.to_dict()) == spec  # JSON round trip
    assert "does not mutate inputs; deterministic" in render_text(spec)


def test_mutation_and_nondeterminism_are_detected(tmp_path):
    path = write_task(tmp_path, "mutates.py", SIMPLE_TASK.replace(
        "return torch.relu(x) * self.scale + 1.0", "x.add_(torch.rand_like(x))\n            return x * self.scale"))
    spec = prepare(load_task(str(path)), "cpu", measure=False).spec
    assert spec.mutated_inputs == ["x"] and spec.deterministic is False


def test_several_gb_task_gets_a_meta_spec_and_plan(tmp_path):
    path = write_task(tmp_path, "huge.py", """
        import torch
        import torch.nn as nn

        class Model(nn.Module):
            def forward(self, a, b):
                return torch.relu(a @ b)

        def get_inputs():
            return [torch.randn(65536, 65536), torch.randn(65536, 65536)]  # 16 GiB each

        def get_init_inputs():
            return []
    """)
    prepared = prepare(load_task(str(path)), "cpu", gpu="h200")
    spec = prepared.spec
    assert prepared.meta_only and not spec.measured
    assert spec.flops == pytest.approx(2 * 65536**3, rel=0.01)
    assert spec.bytes_min == 3 * 65536 * 65536 * 4
    assert spec.inputs[0].stats is None and spec.reference_ms is None
    assert "meta-device trace" in spec.not_measured[0] and "GiB" in spec.not_measured[0]
    assert spec.roofline.device == "h200" and spec.workload_class == "compute-bound"
    assert "meta-device trace only" in render_text(spec)
    assert ExpertPlanner().plan(spec).entries  # a plan without running anything


def test_small_inputs_with_a_huge_intermediate_get_a_meta_spec(tmp_path):
    # Inputs and output of a few MiB, an outer product of 1 TiB between them: the estimate counts the
    # forward's peak, not only what goes in and out.
    path = write_task(tmp_path, "outer.py", """
        import torch
        import torch.nn as nn

        class Model(nn.Module):
            def forward(self, a, b):
                return torch.relu(a[:, None] * b[None, :]).sum(dim=1)

        def get_inputs():
            return [torch.randn(2**19), torch.randn(2**19)]

        def get_init_inputs():
            return []
    """)
    prepared = prepare(load_task(str(path)), "cpu", gpu="h200")
    assert prepared.meta_only
    assert "forward's peak 2048.0 GiB" in prepared.spec.not_measured[0]


def test_forward_peak_counts_live_intermediates_once():
    import torch

    from hiera_core.spec.memory import forward_peak_bytes

    class Chain(torch.nn.Module):
        def forward(self, x):
            y = x * 2            # 4 MiB, freed after z
            z = y + 1            # 4 MiB
            z.relu_()            # in place: nothing new
            return z.view(-1)    # a view: nothing new

    out, peak = forward_peak_bytes(Chain(), [torch.empty(1024, 1024, device="meta")])
    assert out.shape == (2**20,) and peak == 2 * 4 * 2**20


def _gpu_spec(name: str) -> Spec:
    spec = prepare(load_task(str(EXAMPLES / name)), "cpu", gpu="h200", measure=False).spec
    spec.device = "cuda"
    op_work_ms = sum(1000 * max(op.flops / spec.roofline.peak_flops, op.bytes / spec.roofline.peak_bw) for op in spec.ops)
    spec.workload_class = classify(op_work_ms, spec.kernel_launches, "cuda", spec.roofline.limiter)
    return spec


def test_workload_classes_get_different_plans():
    plans = {}
    for name, expected in (("launch_bound.py", "launch-bound"), ("elementwise_chain.py", "memory-bound"),
                           ("gemm_epilogue.py", "compute-bound")):
        spec = _gpu_spec(name)
        assert spec.workload_class == expected
        plans[expected] = ExpertPlanner().plan(spec)
    launch, memory, compute = plans["launch-bound"], plans["memory-bound"], plans["compute-bound"]
    assert launch.entries[0].strategy in ("pytorch.compile_reduce_overhead", "pytorch.cuda_graph")
    assert launch.spaces[0].space == "pytorch"
    assert compute.entries[0].space == "cuda_libs" and compute.spaces[0].space == "cuda_libs"
    assert memory.spaces[0].space != "cuda_libs"
    assert "below the ridge" in memory.summary and "above the ridge" in compute.summary
    assert len({tuple(e.strategy for e in p.entries[:3]) for p in plans.values()}) == 3
    assert "Strategies, best first:" in render_plan(compute)


def test_strategies_that_rarely_pay_for_the_workload_are_not_planned():
    # On the H200, CUDA graphs of single-kernel memory-bound examples timed 0.44x-0.85x of eager.
    plan = ExpertPlanner().plan(_gpu_spec("layernorm.py"))
    planned = [e.strategy for e in plan.entries]
    assert "pytorch.cuda_graph" not in planned and "custom_cuda.row_reduction" in planned
    skipped = {s["strategy"]: s["reason"] for s in plan.skipped}
    assert skipped["pytorch.cuda_graph"] == "rarely pays for memory-bound work (expert prior 0.30 < 0.45)"
    assert "pytorch.cuda_graph" in [e.strategy for e in ExpertPlanner().plan(_gpu_spec("launch_bound.py")).entries]


def test_a_reference_measured_host_bound_on_the_gpu_is_planned_as_launch_bound():
    spec = _gpu_spec("layernorm.py")  # memory-bound by its ops
    assert spec.workload_class == "memory-bound"
    spec.reference_ms, spec.reference_gpu_ms, spec.reference_bound = 0.021, 0.006, "host"
    spec.workload_class = classify(1.0, spec.kernel_launches, "cuda", spec.roofline.limiter, host_bound=True)
    plan = ExpertPlanner().plan(spec)
    assert spec.workload_class == "launch-bound"
    assert plan.entries[0].strategy in ("pytorch.compile_reduce_overhead", "pytorch.cuda_graph")
    assert "the reference's host time per call (21 us) exceeds its GPU time (6 us)" in plan.summary
    assert "(host-bound: its GPU time is 0.006 ms)" in render_text(spec)


def test_cpu_plans_skip_cuda_only_strategies():
    spec = prepare(load_task(str(EXAMPLES / "launch_bound.py")), "cpu", measure=False).spec
    plan = ExpertPlanner().plan(spec)
    assert [e.strategy for e in plan.entries] == ["pytorch.compile_default"]
    assert any(s["strategy"] == "pytorch.cuda_graph" and "CUDA" in s["reason"] for s in plan.skipped)
    # The spaces whose strategies apply but need a GPU say so, not that nothing applies.
    custom = next(rank for rank in plan.spaces if rank.space == "custom_cuda")
    assert custom.score == 0.0 and "needs a CUDA device" in custom.reason


def test_gpu_roofline_uses_the_tf32_peak_where_the_reference_itself_runs_on_tensor_cores():
    conv = _gpu_spec("conv2d_relu_bias.py")  # torch.backends.cudnn.allow_tf32 is on by default
    gemm = _gpu_spec("gemm_epilogue.py")  # torch.backends.cuda.matmul.allow_tf32 is off by default
    assert conv.roofline.peak_flops == pytest.approx(494.7e12)
    assert gemm.roofline.peak_flops == pytest.approx(67e12)
    # torch.compile's cuDNN convolution took 0.0744 ms on an H200 (hiera bench, 2026-11-29): a lower
    # bound must sit below it, which the CUDA-core peak (0.144 ms) did not.
    assert conv.roofline.bound_ms < 0.0744


def test_meta_on_a_task_that_fits_says_why_it_was_not_run(tmp_path):
    path = write_task(tmp_path, "simple.py", SIMPLE_TASK)
    text = render_text(prepare(load_task(str(path)), "cpu", force_meta=True).spec)
    assert "does not fit" not in text
    assert "meta-device trace only, nothing was run; not measured: " in text and "--meta was given" in text


def test_a_gpu_without_the_cuda_extra_plans_no_custom_kernels_and_says_what_to_install(monkeypatch):
    import importlib.util

    from hiera_core.cuda import nvrtc

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "cuda.core" else real(name, *a))
    line = nvrtc.custom_cuda_unavailable()
    assert line == ("custom CUDA kernels space off: cuda.core not installed here; pip install 'hiera[cuda]' "
                    "(cuda-core, cuda-bindings, NVRTC, ninja) to turn it on")
    plan = ExpertPlanner().plan(_gpu_spec("elementwise_chain.py"))
    assert not [entry for entry in plan.entries if entry.space == "custom_cuda"]
    assert {"strategy": "custom_cuda.pointwise_chain", "reason": line} in plan.skipped
    monkeypatch.setattr(importlib.util, "find_spec", real)
    assert nvrtc.custom_cuda_unavailable() is None  # this machine has the extra (tests install it)


GEMM_THEN_ROWS = '''import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 1024)

    def forward(self, x):
        y = self.fc(x) * 2.0
        return torch.logsumexp(y.clamp(-10.0, 10.0), dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(512, 1024)]


def get_init_inputs():
    return []
'''


def test_a_gemm_bound_module_still_gets_kernels_for_the_regions_after_its_gemm(tmp_path):
    """The module is compute-bound (its GEMM), but the custom-CUDA candidate keeps the library's GEMM
    and generates a kernel for the memory-bound row reduction after it: it is planned from that
    region's workload, not skipped as a custom GEMM would be."""
    path = tmp_path / "gemm_then_rows.py"
    path.write_text(GEMM_THEN_ROWS)
    spec = prepare(load_task(str(path)), "cpu", gpu="h200", measure=False).spec
    spec.device = "cuda"
    assert spec.workload_class == "compute-bound"
    plan = ExpertPlanner().plan(spec)
    entries = {e.strategy: e for e in plan.entries}
    kernels = entries["custom_cuda.row_reduction"]
    assert "planned from the regions its kernels serve" in kernels.reason
    assert kernels.score > entries["pytorch.compile_default"].score
    served = [r for r in plan.regions if r.choices and r.choices[0].space == "custom_cuda"]
    assert served and all(r.workload_class != "compute-bound" for r in served)


def test_the_tolerance_scale_is_the_rms_of_the_finite_values_summed_a_chunk_at_a_time(monkeypatch):
    """An output's RMS (what atol scales with) over its finite values, inf and nan left out, the same
    when summed in chunks (which keeps a large output from being copied whole in float64)."""
    import math

    import torch

    from hiera_core.spec import contract

    values = torch.randn(1000, generator=torch.Generator().manual_seed(0)) * 3
    values[7], values[500] = math.inf, math.nan
    kept = values[values.isfinite()].double()
    expected = float(kept.pow(2).mean().sqrt())
    assert math.isclose(contract.finite_rms(values), expected, rel_tol=1e-12)
    monkeypatch.setattr(contract, "RMS_CHUNK", 64)
    assert math.isclose(contract.finite_rms(values.reshape(10, 100).t()), expected, rel_tol=1e-12)
    assert contract.finite_rms(torch.full((5,), math.nan)) is None

"""Regions: the traced graph cut around its anchor ops, each with its own slice of the contract
and its own ranked choices, from what the region computes (no GPU needed)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from helpers.cuda_tasks import example_task, extra_task, load_task, task_context

from hiera_core.plan.planner import ExpertPlanner, Plan, render_plan
from hiera_core.plan.regions import partition
from hiera_core.spaces.compose import library_variants
from hiera_core.spec.model import OpShare


def _module(tmp_path, forward: str, inputs: str, init: str = "") -> object:
    path = tmp_path / "task.py"
    path.write_text("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
                    "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                    + (f"        {init}\n" if init else "")
                    + f"\n    def forward(self, x):\n        {forward}\n\n\n"
                    f"def get_inputs():\n    return {inputs}\n\n\ndef get_init_inputs():\n    return []\n")
    return task_context(load_task(path))


def test_an_op_no_template_has_gets_pytorch_and_the_rest_of_its_region_a_kernel(tmp_path):
    ctx = task_context(extra_task("conv_transpose_unknown_op_chain", tmp_path))
    plan = ExpertPlanner().plan(ctx.spec)
    conv, rest = plan.regions
    assert (conv.kind, conv.anchor, conv.nodes) == ("conv", "up", ["up"])
    assert rest.anchor == "logcumsumexp" and "gelu" in rest.nodes and "drop" in rest.nodes
    assert conv.choices[0].space == "cuda_libs" and "cuDNN" in conv.choices[0].approach
    best = rest.choices[0]
    assert best.space == "custom_cuda" and best.approach.startswith("logcumsumexp left to PyTorch + generated pointwise")
    assert "logcumsumexp (logcumsumexp) has no template" in best.reason
    assert math.isclose(sum(r.share for r in plan.regions), 1.0)


def test_pointwise_ops_that_only_feed_a_row_op_are_its_prologue(tmp_path):
    ctx = task_context(extra_task("log_softmax_prologue", tmp_path))
    (region,) = partition(ctx.spec)
    assert (region.kind, region.anchor, region.nodes) == ("softmax", "log_softmax", ["mul", "add", "log_softmax"])


def test_a_pointwise_value_also_returned_is_not_folded_into_the_row_op(tmp_path):
    ctx = _module(tmp_path, "y = torch.tanh(x) * 2.0\n        return torch.softmax(y, dim=-1), y", "[torch.randn(8, 64)]")
    first, second = partition(ctx.spec)
    assert (first.kind, first.nodes) == ("pointwise", ["tanh", "mul"])
    assert (second.kind, second.nodes) == ("softmax", ["softmax"])
    assert first.outputs == [[8, 64]] and second.inputs == [[8, 64]]


def test_each_region_gets_its_own_flops_bytes_and_class(tmp_path):
    ctx = _module(tmp_path, "return torch.relu(self.fc(x)).sum(dim=-1)", "[torch.randn(256, 1024)]",
                  "self.fc = nn.Linear(1024, 2048)")
    gemm, total = partition(ctx.spec)
    assert gemm.kind == "matmul" and gemm.flops >= 2 * 256 * 2048 * 1024  # and the relu's elements
    # the input, the weight and bias, the output it hands on
    assert gemm.bytes == 4 * (256 * 1024 + 2048 * 1024 + 2048 + 256 * 2048)
    assert gemm.workload_class == "compute-bound" and total.workload_class in ("memory-bound", "launch-bound")
    assert total.kind == "reduction" and total.inputs == [[256, 2048]] and total.outputs == [[256]]


def test_measured_shares_follow_the_profile_per_op_kind(tmp_path):
    ctx = _module(tmp_path, "return torch.relu(self.fc(x)).sum(dim=-1)", "[torch.randn(256, 1024)]",
                  "self.fc = nn.Linear(1024, 2048)")
    spec = replace(ctx.spec, ops=[OpShare("aten::addmm", "matmul", 1, 0.0, 0.0, 0.7),
                                  OpShare("aten::relu", "pointwise", 1, 0.0, 0.0, 0.2),
                                  OpShare("aten::sum", "reduction", 1, 0.0, 0.0, 0.1)])
    gemm, total = partition(spec)
    assert gemm.share_source == total.share_source == "measured"
    assert gemm.share == pytest.approx(0.9) and total.share == pytest.approx(0.1)


def test_the_plan_shows_its_regions_and_keeps_them_through_json():
    ctx = task_context(example_task("small_mlp"))
    plan = ExpertPlanner().plan(ctx.spec)
    assert [r.kind for r in plan.regions] == ["matmul", "matmul", "matmul"]
    assert "cuBLASLt" in plan.regions[0].choices[0].approach  # Linear + ReLU: the library's fused epilogue
    text = render_plan(plan)
    assert "Regions (each planned from its own workload" in text and "region 3 (matmul network_4" in text
    again = Plan.from_dict(plan.to_dict())
    assert again.regions == plan.regions


def test_on_a_cpu_every_region_is_planned_in_pytorch(tmp_path):
    ctx = task_context(extra_task("conv_transpose_unknown_op_chain", tmp_path))
    spec = replace(ctx.spec, device="cpu")
    plan = ExpertPlanner().plan(spec)
    assert {choice.space for region in plan.regions for choice in region.choices} == {"pytorch"}


def test_a_reference_at_its_roofline_limit_gets_no_candidates(tmp_path):
    from hiera_core.loop.reference import at_roofline_limit

    ctx = task_context(example_task("softmax"))
    roofline = replace(ctx.spec.roofline, device="h200", bound_ms=0.95)
    spec = replace(ctx.spec, roofline=roofline, reference_ms=1.0, environment={"device_name": "NVIDIA H200"})
    compiled = [{"space": "pytorch", "strategy": "compile_default"}]
    reason = at_roofline_limit(spec, compiled)
    assert reason.startswith("the reference runs at 95% of its roofline bound") and "at most 1.05x" in reason
    assert at_roofline_limit(replace(spec, reference_ms=2.0), compiled) is None  # 48%: room left
    # the bound is for another GPU than the one measured on, or nothing was measured: no verdict
    assert at_roofline_limit(replace(spec, environment={"device_name": "NVIDIA A100-SXM4-80GB"}), compiled) is None
    assert at_roofline_limit(replace(spec, measured=False), compiled) is None
    # an exact rewrite changes the work itself, so the bound does not limit it
    assert at_roofline_limit(spec, compiled + [{"space": "pytorch", "strategy": "sum_through_linear"}]) is None


def test_a_custom_candidate_composed_with_library_settings_for_its_library_regions(tmp_path):
    import torch
    from helpers.cuda_tasks import build_proposal, candidate_for

    from hiera_core.verify.static_checks import check_candidate as static_problems

    task = extra_task("conv_transpose_unknown_op_chain", tmp_path)
    ctx = task_context(task)
    _, kernels = candidate_for(ctx)
    assert [v.name for v in library_variants(kernels, ctx.spec)] == ["custom_cuda.pointwise_chain+cudnn_autotune"]
    variants = library_variants(kernels, replace(ctx.spec, precision="tf32"))
    assert [v.strategy for v in variants] == ["pointwise_chain+cudnn_autotune", "pointwise_chain+tf32"]
    assert library_variants(kernels, replace(ctx.spec, dynamic_dims=[["x", 0]])) == []  # autotuning needs static shapes
    for variant in variants:
        assert variant.space == "custom_cuda" and variant.cuda_sources == kernels.cuda_sources
        assert static_problems(variant.code, "custom_cuda", "Model") == []
    # The setting holds inside forward only: the caller's process keeps its own.
    namespace = build_proposal(task, variants[0].code)
    seen = []
    namespace["_HieraKernels"].forward = lambda self, x: seen.append(torch.backends.cudnn.benchmark) or x
    before = torch.backends.cudnn.benchmark
    namespace["ModelNew"]()(torch.zeros(1))
    assert seen == [True] and torch.backends.cudnn.benchmark == before


def test_a_custom_candidate_with_2d_convolutions_gets_them_in_nhwc_with_its_maps_channels_last():
    import torch
    from helpers.cuda_tasks import build_proposal, candidate_for

    from hiera_core.verify.static_checks import check_candidate as static_problems

    task = example_task("conv2d_relu_bias")
    ctx = task_context(task)
    _, kernels = candidate_for(ctx)
    nhwc = {v.name: v for v in library_variants(kernels, ctx.spec)}[f"{kernels.name}+cudnn_nhwc"]
    assert nhwc.space == "custom_cuda" and static_problems(nhwc.code, "custom_cuda", "Model") == []
    # Its inputs and output change layout by the runtime's transposing kernel, added beside the
    # runtime the kernels carry (not a second copy of it).
    assert nhwc.code.count("def _hiera_relayout(") == 1 and nhwc.code.count("def _hiera_launch(") == 1
    assert "_hiera_relayout(x, True)" in nhwc.code and "_hiera_relayout(out, False)" in nhwc.code
    namespace = build_proposal(task, nhwc.code)
    seen = {}

    def kernels_forward(self, x):
        seen.update(x=x.is_contiguous(memory_format=torch.channels_last), benchmark=torch.backends.cudnn.benchmark,
                    weight=self.conv.weight.is_contiguous(memory_format=torch.channels_last))
        return x

    namespace["_HieraKernels"].forward = kernels_forward
    out = namespace["ModelNew"](*task.init)(torch.randn(2, 64, 5, 6))
    assert seen == {"x": True, "benchmark": True, "weight": True}
    assert out.is_contiguous()  # as the reference returns it
    assert torch.backends.cudnn.benchmark is False


def test_kernels_for_regions_that_take_little_of_the_measured_time_are_not_planned(tmp_path):
    ctx = task_context(extra_task("conv_transpose_unknown_op_chain", tmp_path))
    # 99% of the measured time in the transposed convolution (cuDNN's), 1% in what the kernel serves
    ops = [OpShare("aten::convolution", "conv", 1, 0.0, 0.0, 0.99), OpShare("aten::gelu", "pointwise", 1, 0.0, 0.0, 0.01)]
    spec = replace(ctx.spec, ops=ops, reference_ms=1.0)
    plan = ExpertPlanner().plan(spec)
    assert "custom_cuda.pointwise_chain" not in [e.strategy for e in plan.entries]
    (skipped,) = [s for s in plan.skipped if s["strategy"] == "custom_cuda.pointwise_chain"]
    assert skipped["reason"].startswith("at best 1.0")
    # the same graph where the chain is most of the time: planned
    ops = [OpShare("aten::convolution", "conv", 1, 0.0, 0.0, 0.3), OpShare("aten::gelu", "pointwise", 1, 0.0, 0.0, 0.7)]
    plan = ExpertPlanner().plan(replace(ctx.spec, ops=ops, reference_ms=1.0))
    assert "custom_cuda.pointwise_chain" in [e.strategy for e in plan.entries]


def test_an_integer_buffer_only_ops_left_to_pytorch_read_does_not_refuse_the_graph(tmp_path):
    from helpers.cuda_tasks import candidate_for

    ctx = _module(tmp_path, "bias = self.table[self.index]\n        return torch.softmax(x * 0.5 + bias, dim=-1)",
                  "[torch.randn(4, 49, 49)]",
                  "self.table = nn.Parameter(torch.randn(169)); "
                  "self.register_buffer('index', torch.randint(0, 169, (49, 49)))")
    key, candidate = candidate_for(ctx)
    assert key == "custom_cuda.row_reduction"  # the softmax and its prologue, around the gather
    assert "v_getitem = self.table[self.index]" in candidate.code  # the gather, as the reference does it


def test_ops_on_a_buffer_are_read_from_the_module_not_baked_into_the_candidate(tmp_path):
    from helpers.cuda_tasks import candidate_for

    # A rotary-style table computed from a buffer in forward: plain symbolic_trace computes
    # `self.inv_freq.cos()` while tracing and bakes the result in as a `_tensor_constant`, which
    # refused the whole graph; the buffer is now a graph node, so the candidate computes from the
    # module's own buffer (a loaded state_dict changes it) on each call.
    ctx = _module(tmp_path, "return torch.softmax(x * self.inv_freq.cos() + 1.0, dim=-1)",
                  "[torch.randn(2, 4, 64, 64)]", "self.register_buffer('inv_freq', torch.rand(64))")
    assert not any(node["target"].startswith("_tensor_constant") for node in ctx.spec.graph["nodes"])
    key, candidate = candidate_for(ctx)
    assert key == "custom_cuda.row_reduction"
    assert "self.inv_freq" in candidate.code and "_tensor_constant" not in candidate.code


def test_a_module_with_control_flow_on_a_buffer_is_still_traced(tmp_path):
    # A proxied buffer cannot drive Python control flow: such a module keeps the plain trace.
    ctx = _module(tmp_path, "return torch.softmax(x * 2.0 if bool(self.flag) else x, dim=-1)",
                  "[torch.randn(8, 32)]", "self.register_buffer('flag', torch.tensor(True))")
    assert ctx.spec.graph["traceable"] and any(node["target"] == "torch.softmax" or "softmax" in node["target"]
                                               for node in ctx.spec.graph["nodes"])


def test_a_mask_compared_from_a_buffer_is_computed_in_the_softmax_kernel(tmp_path):
    from helpers.cuda_tasks import candidate_for

    # nanoGPT's causal attention: `att.masked_fill(self.bias == 0, float('-inf'))` before the softmax.
    ctx = _module(tmp_path, "att = x.masked_fill(self.bias == 0, float('-inf'))\n"
                            "        return torch.softmax(att, dim=-1)",
                  "[torch.randn(2, 4, 64, 64)]",
                  "self.register_buffer('bias', torch.tril(torch.ones(64, 64)).view(1, 1, 64, 64))")
    key, candidate = candidate_for(ctx)
    assert key == "custom_cuda.row_reduction"
    # the module's own buffer on each call, compared and filled as the row kernel reads it
    assert "_hiera_rows(_HIERA_SRC_0, 'hiera_rows0', (self.bias, x,), (False, True), ('row',), 1, split=(2, 2))" in candidate.code
    assert "masked_fill" not in candidate.code.split("class ModelNew")[1].replace("# rows kernel: eq, masked_fill", "")


def test_a_kernel_serving_every_region_is_held_to_the_modules_bound_not_the_sum_of_its_regions(tmp_path):
    # RMSNorm: three regions, each reading and writing the whole tensor. Eager runs near the sum of
    # their bounds (three passes); one row kernel serving all three moves the tensor once.
    # (as transformers writes it: the casts split the regions)
    ctx = _module(tmp_path, "dtype = x.dtype\n        h = x.to(torch.float32)\n"
                            "        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)\n"
                            "        return self.w * h.to(dtype)",
                  "[torch.randn(64, 4096)]", "self.w = nn.Parameter(torch.ones(4096))")
    ops = [OpShare("aten::pow", "pointwise", 1, 0.0, 0.0, 0.3), OpShare("aten::mean", "reduction", 1, 0.0, 0.0, 0.3),
           OpShare("aten::mul", "pointwise", 2, 0.0, 0.0, 0.4)]
    module_bound_ms = 1000 * 2 * 64 * 4096 * 4 / ctx.spec.roofline.peak_bw  # x in, the output out
    spec = replace(ctx.spec, ops=ops, roofline=replace(ctx.spec.roofline, bound_ms=module_bound_ms))
    regions = ExpertPlanner().plan(replace(spec, reference_ms=1.0)).regions
    assert len(regions) > 1
    unfused_ms = sum(region.bound_ms for region in regions)
    assert unfused_ms > 1.5 * module_bound_ms
    plan = ExpertPlanner().plan(replace(spec, reference_ms=unfused_ms))
    assert "custom_cuda.row_reduction" in [entry.strategy for entry in plan.entries]
    # a reference already at the module's own bound leaves the kernel nothing to gain
    plan = ExpertPlanner().plan(replace(spec, reference_ms=1.01 * module_bound_ms))
    (skipped,) = [s for s in plan.skipped if s["strategy"] == "custom_cuda.row_reduction"]
    assert skipped["reason"].startswith("at best 1.0")


def test_stencil_sweeps_fused_in_time_are_one_kernel_in_each_regions_plan(tmp_path):
    """Two Jacobi sweeps (a region each, cut at each pad): both regions name the one kernel that
    computes them, fused in time, and each counts only its own ops."""
    ctx = _module(tmp_path, "for _ in range(2):\n            p = F.pad(x, (1, 1, 1, 1))\n"
                            "            x = 0.2 * (p[1:-1, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] + p[2:, 1:-1] + p[:-2, 1:-1])\n"
                            "        return x",
                  "[torch.randn(64, 96)]")
    first, second = ExpertPlanner().plan(ctx.spec).regions
    for region in (first, second):
        best = region.choices[0]
        assert best.space == "custom_cuda" and best.approach == "generated stencil kernel, 2 steps fused in time"
        assert ": 10 op(s) computed in 1 kernel(s)" in best.reason  # its slices and sums; its pad is read through


def test_a_strategy_that_is_a_regions_choice_is_planned_from_that_regions_workload(tmp_path, monkeypatch):
    """GPT-2's MLP: host-bound in eager mode (launch-bound, where library strategies are not planned),
    yet its first GEMM, with the tanh GELU spelled out after it, is compute-bound and most of the GPU
    time: cuBLASLt's epilogue and max-autotune's GEMM search are planned from that region."""
    ctx = _module(tmp_path, "h = self.fc(x)\n        h = 0.5 * h * (1.0 + torch.tanh(0.7978845608028654 * "
                  "(h + 0.044715 * torch.pow(h, 3.0))))\n        return self.proj(h)", "[torch.randn(384, 768)]",
                  "self.fc = nn.Linear(768, 3072)\n        self.proj = nn.Linear(3072, 768)")

    def plan(gemm_share: float):
        ops = [OpShare("aten::addmm", "matmul", 2, 0.0, 0.0, gemm_share),
               OpShare("aten::tanh", "pointwise", 8, 0.0, 0.0, 1.0 - gemm_share)]
        spec = replace(ctx.spec, ops=ops, reference_ms=0.2, device="cuda", workload_class="launch-bound")
        return ExpertPlanner().plan(spec)

    entries = {entry.strategy: entry for entry in plan(0.94).entries}
    assert "planned from region 1: compute-bound" in entries["cuda_libs.cublaslt_epilogue"].reason
    assert "pytorch.compile_max_autotune" in entries
    # Where no region holding enough of the time names it, it is planned as the module's launch-bound work.
    monkeypatch.setattr("hiera_core.plan.planner.REGION_PLANNED_SHARE", 0.99)
    assert "cuda_libs.cublaslt_epilogue" not in [entry.strategy for entry in plan(0.94).entries]


def test_an_addmm_regions_flops_count_its_product_not_its_bias(tmp_path):
    """transformers' Conv1D: addmm(bias, x, weight) with a (768, 3072) weight and then a (3072, 768)
    one: each GEMM is 2 * 384 * 768 * 3072 FLOPs (the bias's length once made them 4x and 1/4 of it)."""
    ctx = _module(tmp_path, "h = torch.addmm(self.b1, x, self.w1)\n        return torch.addmm(self.b2, h, self.w2)",
                  "[torch.randn(384, 768)]", "self.w1 = nn.Parameter(torch.randn(768, 3072))\n"
                  "        self.b1 = nn.Parameter(torch.randn(3072))\n        self.w2 = nn.Parameter(torch.randn(3072, 768))\n"
                  "        self.b2 = nn.Parameter(torch.randn(768))")
    first, second = (region for region in partition(ctx.spec) if region.kind == "matmul")
    assert first.flops == pytest.approx(2 * 384 * 768 * 3072, rel=0.01)
    assert second.flops == pytest.approx(2 * 384 * 768 * 3072, rel=0.01)


def test_a_whole_module_strategy_is_planned_from_the_time_its_regions_take_at_their_own_classes(tmp_path):
    """LeNet-5 at batch 4096 reads as compute-bound, yet most of its time is in memory-bound
    convolutions and pools, where torch.compile's default mode pays (its best mode on an H100): the
    default mode is scored from the regions' shares of the time, each at its own class."""
    ctx = _module(tmp_path, "x = F.max_pool2d(F.relu(self.conv(x)), 2)\n        return self.fc(x.flatten(1))",
                  "[torch.randn(64, 16, 64, 64)]",
                  "self.conv = nn.Conv2d(16, 16, 3, padding=1, groups=16)\n        self.fc = nn.Linear(16 * 32 * 32, 10)")

    def entries(workload_class: str) -> dict:
        plan = ExpertPlanner().plan(replace(ctx.spec, device="cuda", workload_class=workload_class))
        return {entry.strategy: entry for entry in plan.entries}

    compute_bound = entries("compute-bound")["pytorch.compile_default"]
    assert "planned from the regions' time: 57% memory-bound, 43% compute-bound" in compute_bound.reason
    assert compute_bound.score > 0.65  # the default mode's prior for compute-bound work
    # A host-bound module's pace is its launches, not its regions' GPU work: its own class only.
    assert "regions' time" not in entries("launch-bound")["pytorch.compile_default"].reason

"""cuBLASLt's GEMM epilogue is planned and generated from what the ops after a GEMM compute, not from
how they are spelled: GPT-2's tanh GELU written out in eight ops after transformers' Conv1D (addmm)
fuses; an exact-erf GELU or a sigmoid approximation, written either way, does not; nor does a GEMM
whose raw output is read again."""

from __future__ import annotations

import pytest
import torch
from helpers.engine import write_task
from helpers.spaces import candidate_module, implement_context

from hiera_core.spaces import strategies
from hiera_core.spaces.gemm_epilogue import gemm_epilogues

TASK = """
    import math
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(64, 96) * 0.1)
            self.bias = nn.Parameter(torch.randn(96) * 0.1)
            self.proj = nn.Linear(96, 32)

        def forward(self, x):
            size_out = x.size()[:-1] + (96,)
            h = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight).view(size_out)
            h = {activation}
            return self.proj(h)

    def get_inputs():
        return [torch.randn(2, 24, 64)]

    def get_init_inputs():
        return []
"""
TANH_GELU = "0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * torch.pow(h, 3.0))))"


def cublaslt_addmm_activation(bias, mat1, mat2, beta=1, alpha=1, use_gelu=False):
    """torch._addmm_activation as CUDA computes it (the CPU kernel applies the erf GELU instead)."""
    out = torch.addmm(bias, mat1, mat2, beta=beta, alpha=alpha)
    return torch.nn.functional.gelu(out, approximate="tanh") if use_gelu else torch.relu(out)


def context(tmp_path, activation: str):
    return implement_context(write_task(tmp_path, "mlp.py", TASK.replace("{activation}", activation)))


@pytest.mark.parametrize("activation, expected, scale", [
    (TANH_GELU, "gelu", 1.0),
    ("F.gelu(h, approximate='tanh') * 3.0", "gelu", 3.0),
    ("h * (h > 0) * 0.5", "relu", 0.5),
    ("torch.clamp(h, min=0.0)", "relu", 1.0),
])
def test_the_epilogue_is_recognised_from_its_arithmetic_and_fused(tmp_path, monkeypatch, activation, expected, scale):
    task, prepared, ctx = context(tmp_path, activation)
    [match] = gemm_epilogues(ctx.spec.graph)
    assert (match.form, match.activation, match.scale) == ("addmm", expected, pytest.approx(scale))
    strategy = strategies()["cuda_libs.cublaslt_epilogue"]
    assert strategy.applies(ctx.spec) is not None
    candidate = strategy.generate(ctx)
    forward = candidate.code.split("class ModelNew")[1]
    assert "torch.addmm" not in forward and "tanh" not in forward and "clamp" not in forward
    monkeypatch.setattr(torch, "_addmm_activation", cublaslt_addmm_activation)
    model = candidate_module(task, prepared, candidate.code)
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("activation", [
    "0.5 * h * (1.0 + torch.erf(h / math.sqrt(2.0)))",  # exact GELU: cuBLASLt has only the tanh form
    "F.gelu(h)",
    "h * torch.sigmoid(1.702 * h)",  # a GELU approximation cuBLASLt does not compute
    "torch.relu(h - 0.5)",  # a shift before the ReLU, not a bias the epilogue has
    "torch.relu(h) + h",  # the GEMM's raw output is read again
    "F.silu(h)",
])
def test_other_epilogues_are_not_fused(tmp_path, activation):
    task, prepared, ctx = context(tmp_path, activation)
    assert gemm_epilogues(ctx.spec.graph) == []
    strategy = strategies()["cuda_libs.cublaslt_epilogue"]
    assert strategy.applies(ctx.spec) is None and strategy.generate(ctx) is None


def test_the_plan_names_cublaslt_for_the_gemm_region(tmp_path):
    from hiera_core.plan.regions import partition, plan_regions

    task, prepared, ctx = context(tmp_path, TANH_GELU)
    ctx.spec.device = "cuda"
    regions = plan_regions(ctx.spec, partition(ctx.spec), "no custom-CUDA lowering in this test")
    addmm = next(region for region in regions if region.anchor == "addmm")
    assert any("cuBLASLt GEMM with its bias and activation fused" in choice.approach for choice in addmm.choices)


@pytest.mark.gpu
@pytest.mark.parametrize("activation", [TANH_GELU, "h * (h > 0) * 0.5"])
def test_the_fused_gemm_matches_the_reference_on_gpu(tmp_path, activation):
    """torch._addmm_activation as the GPU runs it (cuBLASLt's epilogue), on a 3D input whose rows are
    not a multiple of a tile, against the reference's ops."""
    task, prepared, ctx = context(tmp_path, activation)
    candidate = strategies()["cuda_libs.cublaslt_epilogue"].generate(ctx)
    model = candidate_module(task, prepared, candidate.code).cuda()
    reference = prepared.model.cuda()
    inputs = [torch.randn(3, 37, 64, device="cuda")]
    with torch.no_grad():
        torch.testing.assert_close(model(*inputs), reference(*inputs), rtol=1e-4, atol=1e-4)

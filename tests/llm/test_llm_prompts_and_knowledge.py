"""Prompt templates state what they receive; the knowledge base is sound and retrieved by tags."""

import pytest

from hiera_core import knowledge, prompts
from hiera_core.spec.model import OpShare

STAGE_TEMPLATES = {"system", "plan", "implement", "region", "refine", "reflect", "space_pytorch", "space_cuda_libs",
                   "space_custom_cuda"}


def test_every_template_uses_exactly_the_data_it_declares():
    assert set(prompts.names()) == STAGE_TEMPLATES
    for name in prompts.names():
        template = prompts.load(name)
        assert template.stage and template.answer and template.receives, name
        assert template.placeholders() == set(template.receives), name
        assert all(meaning for meaning in template.receives.values()), name


def test_render_refuses_missing_or_unexpected_data():
    template = prompts.load("refine")
    data = {key: f"<{key}>" for key in template.receives}
    text = template.render(**data)
    assert "<outcome>" in text and "stage:" not in text and "receives:" not in text  # the header stays out
    with pytest.raises(KeyError, match="missing \\['task'\\]"):
        template.render(**{k: v for k, v in data.items() if k != "task"})
    with pytest.raises(KeyError, match="unexpected \\['extra'\\]"):
        template.render(**data, extra="x")


def test_the_knowledge_base_has_enough_sound_entries():
    entries = knowledge.all_entries()
    assert len(entries) >= 25
    assert knowledge.validate() == []
    for entry in entries:
        text = entry.render()
        assert text.startswith(f"### {entry.technique}") and "- Hopper:" in text and "```" in text


def test_retrieval_by_workload_class_op_kinds_and_space():
    softmax = knowledge.select("memory-bound", {"softmax": 0.9, "pointwise": 0.1}, "custom_cuda", limit=3)
    assert softmax[0].key == "online-softmax"
    assert all("custom_cuda" in e.spaces and "memory-bound" in e.classes for e in softmax)
    gemm = knowledge.select("compute-bound", {"matmul": 0.8, "pointwise": 0.2}, "cuda_libs", limit=3)
    assert {e.key for e in gemm} >= {"fused-epilogue", "gemm-use-libraries"}
    assert not {"online-softmax", "cuda-graphs"} & {e.key for e in gemm}


def test_gpu_only_techniques_are_not_offered_on_cpu():
    on_gpu = {e.key for e in knowledge.select("launch-bound", {"pointwise": 1.0}, "pytorch", "cuda", limit=30)}
    on_cpu = {e.key for e in knowledge.select("launch-bound", {"pointwise": 1.0}, "pytorch", "cpu", limit=30)}
    assert "cuda-graphs" in on_gpu and "cuda-graphs" not in on_cpu and on_cpu < on_gpu


def test_op_shares_ignore_views():
    ops = [OpShare("aten::mul", "pointwise", 2, 0, 0, 0.5), OpShare("aten::view", "view", 1, 0, 0, 0.1),
           OpShare("aten::add", "pointwise", 1, 0, 0, 0.2), OpShare("aten::sum", "reduction", 1, 0, 0, 0.2)]
    assert knowledge.op_shares_of(ops) == {"pointwise": 0.7, "reduction": 0.2}


def test_a_profile_s_kernels_give_the_op_mix_that_knowledge_is_re_retrieved_for():
    kernels = [{"name": "sm90_xmma_gemm_f16f16_f32", "ms": 0.5, "share": 0.6},
               {"name": "void at::native::vectorized_elementwise_kernel<4, ...>", "ms": 0.2, "share": 0.25},
               {"name": "cudnn::conv2d_fprop_kernel", "ms": 0.05, "share": 0.05},
               {"name": "aten::softmax", "ms": 0.05, "share": 0.05}, {"name": "aten::view", "ms": 0.0, "share": 0.05}]
    assert knowledge.op_shares_of_kernels(kernels) == pytest.approx(
        {"matmul": 0.6, "pointwise": 0.25, "conv": 0.05, "softmax": 0.05})
    gemm = knowledge.select("compute-bound", knowledge.op_shares_of_kernels(kernels), "cuda_libs", limit=3)
    assert "gemm-use-libraries" in {e.key for e in gemm}

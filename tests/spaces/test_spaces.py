"""Candidates of the PyTorch-operator and CUDA-library spaces: valid source, right numerics, flags
restored. (CUDA-only ones are run on the GPU by tests/gpu.)"""

import ast

import pytest
import torch
from helpers.engine import EXAMPLES, SIMPLE_TASK, write_task
from helpers.spaces import candidate_module, implement_context

from hiera_core.spaces import strategies


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_every_applicable_strategy_writes_valid_source(example):
    task, prepared, ctx = implement_context(EXAMPLES / example)
    for key, strategy in strategies().items():
        if strategy.space == "custom_cuda" or strategy.applies(ctx.spec) is None:
            continue
        candidate = strategy.generate(ctx)
        if candidate is None:
            continue
        tree = ast.parse(candidate.code)
        classes = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "ModelNew"]
        assert classes and ast.unparse(classes[0].bases[0]) == task.class_name, key
        assert candidate.name == key


def test_cublaslt_epilogue_matches_reference_on_cpu():
    task, prepared, ctx = implement_context(EXAMPLES / "gemm_epilogue.py")
    candidate = strategies()["cuda_libs.cublaslt_epilogue"].generate(ctx)
    assert "_addmm_activation" in candidate.code and "relu" not in candidate.code.split("class ModelNew")[1]
    model = candidate_module(task, prepared, candidate.code)
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("activation, fused", [("nn.GELU(approximate='tanh')", True), ("nn.GELU()", False),
                                               ("nn.ReLU()", True)])
def test_cublaslt_epilogue_applies_only_where_its_epilogue_computes_the_activation(activation, fused, tmp_path):
    """cuBLASLt's GELU epilogue is the tanh form: a Linear before an exact GELU is not planned for it
    (it used to be, and then generated nothing), one before a tanh GELU or a ReLU is and generates."""
    path = write_task(tmp_path, "mlp.py", f"""
        import torch
        import torch.nn as nn

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(64, 128)
                self.act = {activation}

            def forward(self, x):
                return self.act(self.fc(x))

        def get_inputs():
            return [torch.randn(8, 64)]

        def get_init_inputs():
            return []
    """)
    task, prepared, ctx = implement_context(path)
    strategy = strategies()["cuda_libs.cublaslt_epilogue"]
    assert (strategy.applies(ctx.spec) is not None) == fused
    assert (strategy.generate(ctx) is not None) == fused


@pytest.mark.parametrize(("flatten", "nhwc"), [("x.view(-1, 16 * 5 * 5)", False), ("x.flatten(1)", True),
                                              ("x.mean((2, 3))", True)])
def test_nhwc_layouts_only_where_no_view_flattens_a_map(flatten, nhwc, tmp_path):
    """LeNet-5 flattens its last map with `view`, which an NHWC tensor cannot take: every NHWC
    candidate of it was rejected on the GPU. `flatten` copies where it must, so NHWC stays planned."""
    path = write_task(tmp_path, "lenet.py", f"""
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 16, 5)
                self.fc = nn.Linear({"16" if "mean" in flatten else "400"}, 10)

            def forward(self, x):
                x = F.max_pool2d(F.relu(self.conv(x)), 2)
                x = {flatten}
                return self.fc(x)

        def get_inputs():
            return [torch.randn(4, 3, 14, 14)]

        def get_init_inputs():
            return []
    """)
    _, _, ctx = implement_context(path)
    for name in ("cuda_libs.cudnn_nhwc", "pytorch.channels_last"):
        assert (strategies()[name].applies(ctx.spec) is not None) == nhwc, name
    assert strategies()["cuda_libs.cudnn_benchmark"].applies(ctx.spec) is not None


def test_sdpa_rewrite_of_hand_written_attention(tmp_path):
    path = write_task(tmp_path, "attention.py", """
        import torch
        import torch.nn as nn

        class Model(nn.Module):
            def __init__(self, scale):
                super().__init__()
                self.scale = scale

            def forward(self, q, k, v):
                scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
                return torch.matmul(torch.softmax(scores, dim=-1), v)

        def get_inputs():
            return [torch.randn(2, 4, 64, 32) for _ in range(3)]

        def get_init_inputs():
            return [32 ** -0.5]
    """)
    task, prepared, ctx = implement_context(path)
    candidate = strategies()["pytorch.sdpa"].generate(ctx)
    assert "scaled_dot_product_attention" in candidate.code and "softmax" not in candidate.code
    model = candidate_module(task, prepared, candidate.code)
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-5, atol=1e-5)


def test_backend_flags_are_restored_even_when_forward_raises(tmp_path):
    path = write_task(tmp_path, "mm.py", SIMPLE_TASK.replace("torch.relu(x) * self.scale + 1.0",
                                                             "torch.mm(x, x.t()) * self.scale"))
    task, prepared, ctx = implement_context(path, precision="tf32")
    candidate = strategies()["cuda_libs.tf32"].generate(ctx)
    model = candidate_module(task, prepared, candidate.code)
    before = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
    model(*prepared.inputs)
    assert (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32) == before
    with pytest.raises(RuntimeError):
        model(torch.randn(3, 5, 7))  # mm of a 3-D tensor raises inside forward
    assert (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32) == before


def test_tf32_only_when_the_contract_allows_it(tmp_path):
    path = write_task(tmp_path, "mm.py", SIMPLE_TASK.replace("torch.relu(x) * self.scale + 1.0", "torch.mm(x, x.t())"))
    _, _, ctx = implement_context(path)
    assert strategies()["cuda_libs.tf32"].applies(ctx.spec) is None
    ctx.spec.precision = "tf32"
    assert strategies()["cuda_libs.tf32"].applies(ctx.spec)

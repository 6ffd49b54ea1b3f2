"""A pooling kernel applies the pointwise ops before it as it reads (its prologue): a CNN stem's batch
norm and ReLU are not written out as a map of their own for the pool to read again."""

from __future__ import annotations

import pytest
from helpers.cuda_tasks import candidate_for, check_emulated, extra_task, forward_source, load_task, task_context

pytest.importorskip("cuda.bindings")


def test_the_stems_norm_and_relu_run_in_the_max_pools_read(tmp_path):
    """One kernel for batch norm, ReLU and max pool, reading the norm's four per-channel tensors; run
    on the CPU with the pool emulated (the norm and ReLU the prologue computes, then PyTorch's pool),
    the proposal matches the reference."""
    import torch
    import torch.nn.functional as F

    task = extra_task("stem_bn_relu_maxpool", tmp_path)
    _, candidate = candidate_for(task_context(task))
    forward = forward_source(candidate.code)
    assert forward.count("_hiera_pool(") == 1 and "_hiera_pointwise(" not in forward
    assert "# pool kernel: bn, relu, pool" in candidate.code
    (source,) = candidate.cuda_sources
    assert "hi_prologue_of" in source and "_nhwc(" in source

    def pool(source, name, x, rank, kernel, stride, padding, dilation, ceil_mode, per_channel=()):
        mean, var, scale, shift = (v.reshape(1, -1, 1, 1) for v in per_channel)
        activated = torch.relu((x - mean) / torch.sqrt(var + 1e-5) * scale + shift)
        return F.max_pool2d(activated, kernel, stride, padding, dilation, ceil_mode)

    check_emulated(task, candidate.code, _hiera_pool=pool)


def test_an_average_pools_prologue_reads_a_bias_per_channel(tmp_path):
    task = extra_task("avgpool_tanh_prologue", tmp_path)
    _, candidate = candidate_for(task_context(task))
    forward = forward_source(candidate.code)
    assert forward.count("_hiera_pool(") == 1 and "_hiera_pointwise(" not in forward
    assert "(self.b,)" in forward
    (source,) = candidate.cuda_sources
    assert "tanhf" in source and "hi_prologue(src[" in source


@pytest.mark.parametrize("body, inputs", [
    # two maps of the pool's shape: computed first, by a pointwise kernel
    ("F.max_pool2d(torch.relu(x + y), 2)", "[torch.randn(2, 3, 8, 8), torch.randn(2, 3, 8, 8)]"),
    # an unbatched (C, H, W) input: dim 1 is no channel, so no per-channel read
    ("F.max_pool2d(x * self.s, 2)", "[torch.randn(3, 8, 8)]"),
])
def test_a_pool_computes_first_what_its_prologue_cannot_read(body, inputs, tmp_path):
    path = tmp_path / "task.py"
    path.write_text("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
                    "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                    "        self.s = nn.Parameter(torch.rand(8, 1))\n\n"
                    f"    def forward(self, x, y=None):\n        return {body}\n\n\n"
                    f"def get_inputs():\n    return {inputs}\n\n\ndef get_init_inputs():\n    return []\n")
    _, candidate = candidate_for(task_context(load_task(path)))
    forward = forward_source(candidate.code)
    assert forward.count("_hiera_pointwise(") == 1 and forward.count("_hiera_pool(") == 1
    assert "hi_prologue_of" not in candidate.code

"""Hand-written attention found from what it computes and run as F.scaled_dot_product_attention
(pytorch.sdpa, pytorch.sdpa_compiled): which spellings are attention, the mask SDPA gets, and that
the rewrite computes what the reference does."""

import pytest
import torch
from helpers.attention_tasks import SIZES_IN_PYTHON
from helpers.engine import write_task
from helpers.spaces import candidate_module, implement_context

from hiera_core.plan.regions import partition, plan_regions
from hiera_core.spaces import strategies
from hiera_core.spaces.attention import attention_matches

TASK = """
    import math
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    L = 23

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.drop = nn.Dropout(0.1)
            self.register_buffer("tri", torch.tril(torch.ones(L, L)).view(1, 1, L, L))
            self.register_buffer("neg", torch.full((L, L), torch.finfo(torch.float32).min).triu(1)[None, None])
            self.register_buffer("pad", (torch.arange(L) >= L - 5).view(1, 1, 1, L))
            self.register_buffer("bias", torch.randn(1, 3, L, L))

        def forward(self, q, k, v):
            {body}

    def get_inputs():
        return [torch.randn(2, 3, L, 16) for _ in range(3)]

    def get_init_inputs():
        return []
"""

# Each body is softmax(f(q k^T)) @ v for an f affine in the scores: (spelling, the mask SDPA gets).
ATTENTION = {
    "nanogpt_buffer_compare": ("""att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.tri == 0, float('-inf'))
            return self.drop(F.softmax(att, dim=-1)) @ v""", "causal"),
    "llama_finfo_min_triangle": ("""w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(16)
            w = w + self.neg
            w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
            return torch.matmul(F.dropout(w, p=0.1, training=False), v)""", "causal"),
    "padding_mask_filled": ("""s = 0.25 * torch.matmul(q, k.permute(0, 1, 3, 2))
            s = s.masked_fill(self.pad, -1e9)
            return F.softmax(s, -1) @ v""", "masked"),
    "learned_bias_then_scale": ("""s = (q @ k.transpose(-1, -2) + self.bias) * 0.25
            return s.softmax(-1) @ v""", "masked"),
    "mask_from_an_input": ("""s = q @ k.transpose(-2, -1) * 0.25
            s = s.masked_fill((v[..., 0] > 1.5).unsqueeze(-2), float('-inf'))
            return torch.softmax(s, dim=-1) @ v""", "masked"),
    "unmasked": ("""return torch.softmax(q @ k.transpose(-2, -1) / 4.0, dim=-1) @ v""", "unmasked"),
    "where_keeps_the_triangle": ("""s = torch.where(self.tri.bool(), q @ k.transpose(-2, -1), float('-inf'))
            return torch.softmax(s * 0.25, dim=-1) @ v""", "causal"),
    "where_fills_above": ("""s = torch.where(self.tri == 0, -1e9, q @ k.transpose(-2, -1) / 4)
            return torch.softmax(s, dim=-1) @ v""", "causal"),
    "einsum_with_ellipsis": ("""s = torch.einsum('... i d, ... j d -> ... i j', q, k) * 0.25
            s = s.masked_fill(self.tri == 0, float('-inf'))
            return torch.einsum('... i j, ... j d -> ... i d', s.softmax(dim=-1), v)""", "causal"),
}

# softmax(g(q k^T)) @ v where g is not what SDPA computes.
NOT_ATTENTION = {
    "softmax_over_queries": "return torch.softmax(q @ k.transpose(-2, -1) * 0.25, dim=-2) @ v",
    "negative_scale": "return torch.softmax(q @ k.transpose(-2, -1) * -0.25, dim=-1) @ v",
    "mask_filled_with_zero": """s = (q @ k.transpose(-2, -1)).masked_fill(self.tri == 0, 0.0)
            return torch.softmax(s, dim=-1) @ v""",
    "soft_capped": "return torch.softmax(torch.tanh(q @ k.transpose(-2, -1) / 30) * 30, dim=-1) @ v",
    "scores_read_twice": """s = q @ k.transpose(-2, -1)
            return torch.softmax(s, dim=-1) @ v + s.sum(-1, keepdim=True)""",
    "einsum_scores_transposed": """s = torch.einsum('b h i d, b h j d -> b h j i', q, k)
            return torch.einsum('b h i j, b h j d -> b h i d', s.softmax(dim=-1), v)""",
}


def _context(tmp_path, body):
    return implement_context(write_task(tmp_path, "attention.py", TASK.replace("{body}", body)))


@pytest.mark.parametrize("spelling", sorted(ATTENTION))
def test_attention_spellings_become_sdpa_and_compute_the_reference(spelling, tmp_path):
    body, form = ATTENTION[spelling]
    task, prepared, ctx = _context(tmp_path, body)
    sdpa = strategies()["pytorch.sdpa"]
    assert sdpa.applies(ctx.spec) is not None
    candidate = sdpa.generate(ctx)
    forward = candidate.code.split("class ModelNew")[1]
    assert "scaled_dot_product_attention" in forward and "softmax" not in forward
    assert f"({form})" in candidate.code
    assert ("is_causal = True" in forward) == (form == "causal")
    assert ("attn_mask" in forward) == (form == "masked")
    if form == "masked":  # replayed on zeros over the batch dims: SDPA broadcasts the mask
        assert "new_zeros((1, 1, 23, 23))" in forward
    model = candidate_module(task, prepared, candidate.code)
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("spelling", sorted(NOT_ATTENTION))
def test_what_sdpa_does_not_compute_is_left_alone(spelling, tmp_path):
    task, prepared, ctx = _context(tmp_path, NOT_ATTENTION[spelling])
    assert attention_matches(ctx.spec.graph) == []
    assert strategies()["pytorch.sdpa"].applies(ctx.spec) is None
    assert strategies()["pytorch.sdpa"].generate(ctx) is None


def test_hand_written_attention_is_one_region_planned_for_sdpa(tmp_path):
    body, _ = ATTENTION["nanogpt_buffer_compare"]
    task, prepared, ctx = _context(tmp_path, body)
    regions = [r for r in plan_regions(ctx.spec, partition(ctx.spec), "no lowering") if r.kind == "attention"]
    assert len(regions) == 1
    assert {"matmul", "masked_fill", "softmax", "drop", "matmul_1"} <= set(regions[0].nodes)
    assert regions[0].choices[0].strategy == "pytorch.sdpa"


def test_sdpa_compiled_is_offered_only_with_ops_around_the_attention(tmp_path):
    alone, _ = ATTENTION["nanogpt_buffer_compare"]
    task, prepared, ctx = _context(tmp_path, alone)
    assert strategies()["pytorch.sdpa_compiled"].applies(ctx.spec) is None  # its mask is a constant
    around = "q = torch.nn.functional.layer_norm(q, (16,))\n            " + alone
    task, prepared, ctx = _context(tmp_path, around)
    strategy = strategies()["pytorch.sdpa_compiled"]
    assert strategy.applies(ctx.spec) is not None
    model = candidate_module(task, prepared, strategy.generate(ctx).code)
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-5, atol=1e-5)


@pytest.mark.gpu
@pytest.mark.parametrize("spelling", sorted(ATTENTION))
def test_sdpa_matches_the_reference_on_gpu(spelling, tmp_path):
    """SDPA as the GPU runs it (the memory-efficient kernel in float32, its mask padded to an odd
    length), on queries, keys and values that are transposed views, against the reference's ops."""
    body, _ = ATTENTION[spelling]
    task, prepared, ctx = _context(tmp_path, body)
    candidate = strategies()["pytorch.sdpa"].generate(ctx)
    model = candidate_module(task, prepared, candidate.code).cuda()
    reference = prepared.model.cuda()
    inputs = [torch.randn(2, 23, 3, 16, device="cuda").transpose(1, 2) for _ in range(3)]
    with torch.no_grad():
        torch.testing.assert_close(model(*inputs), reference(*inputs), rtol=1e-4, atol=1e-4)


@pytest.mark.gpu
def test_a_causal_mask_is_found_with_the_module_on_the_gpu(tmp_path):
    """A worker on a GPU prepares the reference there: the mask is evaluated beside its buffers
    (it once made its zeros on the CPU, failed, and fell back to a per-call mask)."""
    from hiera_core.spaces.strategy import ImplementContext
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task

    body, _ = ATTENTION["nanogpt_buffer_compare"]
    task = load_task(str(write_task(tmp_path, "attention.py", TASK.replace("{body}", body))))
    prepared = prepare(task, "cuda", measure=False)
    ctx = ImplementContext(prepared.spec, task.class_name, prepared.model, prepared.inputs, prepared.graph, "cuda")
    assert "(causal)" in strategies()["pytorch.sdpa"].generate(ctx).code


MULTIHEAD = """
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = nn.MultiheadAttention(32, 4)
            self.norm = nn.LayerNorm(32)

        def forward(self, x):
            {body}

    def get_inputs():
        return [torch.randn(19, 2, 32)]

    def get_init_inputs():
        return []
"""


def test_multihead_attention_whose_weights_nothing_reads_skips_them(tmp_path):
    body = """out, _ = self.attn(x, x, x)
            return self.norm(out + x)"""
    task, prepared, ctx = implement_context(write_task(tmp_path, "mha.py", MULTIHEAD.replace("{body}", body)))
    candidate = strategies()["pytorch.sdpa"].generate(ctx)
    assert "need_weights = False" in candidate.code.split("class ModelNew")[1]
    model = candidate_module(task, prepared, candidate.code)
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-5, atol=1e-5)


def test_a_multihead_attention_region_holds_its_work_and_its_time(tmp_path):
    """The module's region: its projections and products counted (not just the elements it reads),
    the profile's matmuls and softmax inside it measured as its time, and SDPA its first choice."""
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task

    body = """out, _ = self.attn(x, x, x)
            return self.norm(out + x)"""
    task = load_task(str(write_task(tmp_path, "mha.py", MULTIHEAD.replace("{body}", body))))
    spec = prepare(task, "cpu").spec
    spec.device = "cuda"
    (region,) = [r for r in plan_regions(spec, partition(spec), "no lowering") if r.kind == "attention"]
    tokens, batch, width = 19 * 2, 2, 32
    module = 2 * 2 * (tokens + tokens) * width * width + 4 * tokens * (tokens // batch) * width
    assert module <= region.flops < 1.05 * module  # and the residual add the region fuses
    # Every measured op but the norm's is the region's: the module's matmuls, softmax and reductions
    # run inside it. (Compared with the profile itself: a share's size varies with the machine's load.)
    total = sum(op.share for op in spec.ops)
    assert {"matmul", "softmax"} <= {op.kind for op in spec.ops}
    assert region.share_source == "measured"
    assert region.share == pytest.approx(1 - sum(op.share for op in spec.ops if op.kind == "norm") / total)
    assert region.choices[0].strategy == "pytorch.sdpa"


@pytest.mark.gpu
@pytest.mark.parametrize("module", ["decoder", "multihead"])
def test_specialised_and_module_attention_match_the_reference_on_gpu(module, tmp_path):
    """The shape-specialised trace's causal SDPA (a mask built from a length) and the multi-head
    module without its weights, prepared on the GPU as a worker does, against the reference there."""
    from hiera_core.spaces.strategy import ImplementContext
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task

    source = SIZES_IN_PYTHON if module == "decoder" else MULTIHEAD.replace("{body}", """out, _ = self.attn(x, x, x)
            return self.norm(out + x)""")
    task = load_task(str(write_task(tmp_path, "attention.py", source)))
    prepared = prepare(task, "cuda", measure=False)
    ctx = ImplementContext(prepared.spec, task.class_name, prepared.model, prepared.inputs, prepared.graph, "cuda")
    candidate = strategies()["pytorch.sdpa"].generate(ctx)
    model = candidate_module(task, prepared, candidate.code).cuda()
    with torch.no_grad():
        torch.testing.assert_close(model(*prepared.inputs), prepared.model(*prepared.inputs), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("body", ["""out, weights = self.attn(x, x, x)
            return out * weights.mean()""", "return self.attn(x, x, x, need_weights=False)[0]"],
                         ids=["weights_read", "already_without_weights"])
def test_multihead_attention_that_needs_its_weights_is_left_alone(body, tmp_path):
    _, _, ctx = implement_context(write_task(tmp_path, "mha.py", MULTIHEAD.replace("{body}", body)))
    assert strategies()["pytorch.sdpa"].applies(ctx.spec) is None

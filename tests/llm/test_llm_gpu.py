"""On a GPU: a scripted model answering with custom CUDA, through `hiera optimize --device cuda`.

The model plans custom CUDA, then writes a kernel that does not compile (caught by NVRTC before
any worker runs), then one that leaves half the output unwritten (caught by verification), then
a correct fused kernel, which must verify and beat eager's three kernels.

With two chains, one is asked for a region of the plan; its kernel must verify, and the next
request of a chain whose kernel verified must carry that kernel's Nsight Compute figures.
"""

import json
import os
import re

import pytest
from helpers.chat_server import Answer, ChatServer, plan_answer, python_answer
from helpers.engine import TINY_TASK, hiera

from hiera_core.profile.ncu import NOT_FOUND, find_ncu

GPU_TASK = TINY_TASK.replace("torch.randn(64, 128)", "torch.randn(8192, 4096)")

FUSED = '''
import torch
import torch.nn as nn

SRC = r"""
extern "C" __global__ void relu_scale_add(const float* x, float* y, float scale, long long n) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) {
        y[i] = fmaxf(x[i], 0.0f) * scale + 1.0f;
    }
}
"""


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        device = x.device.index
        blocks = min((n + 255) // 256, torch.cuda.get_device_properties(device).multi_processor_count * 8)
        _hiera_launch(_hiera_kernel(SRC, "relu_scale_add", device), device, blocks, 256, 0, x, y,
                      float(self.scale), n)
        return y
'''
NO_SEMICOLON = FUSED.replace("* scale + 1.0f;", "* scale + 1.0f")
HALF_WRITTEN = FUSED.replace("i < n; i += stride", "i < n / 2; i += n").replace(
    "blocks = min((n + 255) // 256, torch.cuda.get_device_properties(device).multi_processor_count * 8)",
    "blocks = (n // 2 + 255) // 256")


@pytest.mark.gpu
@pytest.mark.slow
def test_custom_cuda_answers_on_the_gpu(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'gpu'\n\n[tool.hiera]\nconcurrency = 1\nreflection = false\n")
    (tmp_path / "fused.py").write_text(GPU_TASK)
    script = [Answer(plan_answer("custom_cuda", "one fused elementwise kernel")), Answer(python_answer(NO_SEMICOLON)),
              Answer(python_answer(HALF_WRITTEN)), Answer(python_answer(FUSED))]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HIERA_", "OPENAI_"))}
    with ChatServer(script) as server:
        run = hiera("optimize", "fused.py", "--device", "cuda", "--budget", "1", "--samples", "3",
                    "--model", "scripted", "--base-url", server.url, "--json", cwd=tmp_path, env=env)
    assert run.returncode in (0, 1), run.stderr
    result = json.loads(run.stdout)
    llm = result["llm"]
    print(json.dumps({k: llm[k] for k in ("samples", "verified", "valid_rate", "samples_to_first_valid", "tokens",
                                           "best_speedup_over_time", "exchanges")}, indent=1))
    assert llm["plan_choice"]["space"] == "custom_cuda" and llm["plan_choice"]["source"] == "model"
    samples = [e for e in llm["exchanges"] if e["sample"]]
    assert [e["status"] for e in samples] == ["rejected", "rejected", "verified"], samples
    assert samples[0]["reason"].startswith("compile: your module:")
    assert "NVRTC rejected the kernels" in server.requests[2].last_user
    # Unwritten outputs read the allocator's NaN poison, or whatever was there before.
    feedback = server.requests[3].last_user
    assert any(f"It was rejected: check '{check}' failed" in feedback for check in ("nan", "values", "uninitialized-output"))
    fused = next(c for c in result["candidates"] if c["name"] == "llm.s03")
    assert fused["status"] == "verified" and fused["speedup"] > 1.3, fused


REGION_PROMPT = "Make one region of `Model` faster."
PLAN_PROMPT = "Choose where to search for a faster implementation"


def with_block(threads: int) -> str:
    """FUSED launching `threads` per block: the same kernel as another answer (no duplicate)."""
    return FUSED.replace("blocks = min((n + 255) // 256,", f"blocks = min((n + {threads - 1}) // {threads},") \
        .replace(", blocks, 256, 0,", f", blocks, {threads}, 0,")


def region_then_whole(body) -> Answer:
    """Plan custom CUDA; the region chain gets the fused kernel at 256 threads a block, the whole-module
    chain at 128, every refinement at 512 then 1024 (each a new answer)."""
    messages = body["messages"]
    if PLAN_PROMPT in messages[-1]["content"]:
        return Answer(plan_answer("custom_cuda", "one fused elementwise kernel"))
    if len(messages) > 2:  # a refinement: the chain's earlier exchange precedes it
        return Answer(python_answer(with_block(512 if len(messages) <= 4 else 1024)))
    return Answer(python_answer(with_block(256 if messages[1]["content"].startswith(REGION_PROMPT) else 128)))


@pytest.mark.gpu
@pytest.mark.slow
def test_a_region_kernel_verifies_and_the_next_prompt_carries_its_ncu_figures(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'gpu'\n\n[tool.hiera]\nconcurrency = 2\nreflection = false\n")
    (tmp_path / "fused.py").write_text(GPU_TASK)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HIERA_", "OPENAI_"))}
    with ChatServer([region_then_whole] * 8) as server:
        run = hiera("optimize", "fused.py", "--device", "cuda", "--budget", "2", "--samples", "4",
                    "--model", "scripted", "--base-url", server.url, "--json", cwd=tmp_path, env=env)
    assert run.returncode in (0, 1), run.stderr
    llm = json.loads(run.stdout)["llm"]
    print(json.dumps(llm["exchanges"], indent=1))
    region_prompts = [r.body["messages"][1]["content"] for r in server.requests
                      if r.body["messages"][1]["content"].startswith(REGION_PROMPT)]
    assert region_prompts and "Region 1 of 1" in region_prompts[0], [r.last_user[:200] for r in server.requests]
    region_samples = [e for e in llm["exchanges"] if e["sample"] and e["region"] is not None]
    assert region_samples and region_samples[0]["status"] == "verified", llm["exchanges"]
    refinements = [r.last_user for r in server.requests if len(r.body["messages"]) > 2]
    assert refinements, "no chain was refined"
    if find_ncu() is None:
        assert any(NOT_FOUND in text for text in refinements)
        return
    figures = [text for text in refinements if "Nsight Compute, one call (top" in text]
    assert figures, [text[-1500:] for text in refinements]
    print(figures[0][figures[0].index("Nsight Compute"):][:1200])
    assert "relu_scale_add" in figures[0] and re.search(r"SM \d+% / memory \d+% of peak", figures[0])

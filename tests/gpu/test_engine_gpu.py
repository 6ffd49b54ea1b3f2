"""The engine on a CUDA GPU (run on the H200: `pytest -m gpu`)."""

import json

import pytest
from helpers.engine import SIMPLE_TASK, copy_example, hiera, json_files_parse, workspace, write_task

from hiera_core.spaces.pytorch_ops import replays_a_graph

pytestmark = pytest.mark.gpu


def test_launch_bound_module_gets_a_proposal_that_replays_a_cuda_graph(tmp_path):
    folder = workspace(tmp_path)
    copy_example(folder, "launch_bound.py")
    run = hiera("optimize", "launch_bound.py", "--device", "cuda", "--budget", "2", "--json", cwd=folder)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["status"] == "proposal" and result["speedup"] > 1.03
    assert replays_a_graph(result["strategy"])  # the eager graph, or a candidate's kernels graphed
    assert result["device_name"].startswith("NVIDIA")


def test_profile_on_gpu_names_kernels_and_roofline(tmp_path):
    folder = workspace(tmp_path)
    copy_example(folder, "softmax.py")
    run = hiera("profile", "softmax.py", "--device", "cuda", "--json", cwd=folder)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    profile, timing = report["profile"], report["timing"]
    assert profile["kernels"] and 0 < profile["roofline_pct"] <= 100
    assert timing["iterations"] >= 30 and timing["kernel_sum_ms"] > 0
    assert "softmax" in profile["kernels"][0]["name"].lower()


def test_library_candidates_restore_flags_and_verify_on_gpu(tmp_path):
    folder = workspace(tmp_path)
    copy_example(folder, "conv2d_relu_bias.py")
    run = hiera("optimize", "conv2d_relu_bias.py", "--device", "cuda", "--budget", "2", "--json", cwd=folder)
    assert run.returncode in (0, 1), run.stderr
    result = json.loads(run.stdout)
    spaces = {c["space"] for c in result["candidates"]}
    assert "cuda_libs" in spaces
    assert all(c["status"] == "verified" for c in result["candidates"]), [
        (c["name"], c["status"], c["reason"]) for c in result["candidates"]]


def test_gpu_out_of_memory_is_one_clear_error(tmp_path):
    # a size that depends on a value: the meta-device estimate cannot see it, the real run allocates
    folder = workspace(tmp_path)
    write_task(folder, "oom.py", SIMPLE_TASK.replace("return torch.relu(x) * self.scale + 1.0",
                                                     "return x + torch.empty(2**40 + int(x[0, 0].item() * 0), device=x.device).sum()"))
    run = hiera("optimize", "oom.py", "--device", "cuda", cwd=folder)
    assert run.returncode == 2
    assert "ran out of memory" in run.stderr and "oom.py:11" in run.stderr
    json_files_parse(folder / ".hiera")


def test_a_gemm_whose_outputs_are_only_summed_becomes_a_verified_matrix_vector_product(tmp_path):
    """The exact rewrite beats the GEMM's own roofline bound; the verifier holds it to the bytes it
    must move instead, so it is verified, timed and proposed."""
    folder = workspace(tmp_path)
    write_task(folder, "gemm_sum.py", """
        import torch
        import torch.nn as nn


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.weight = nn.Parameter(torch.randn(256, 512) / 23)

            def forward(self, x):
                return (torch.matmul(x, self.weight.t()) / 2).sum(dim=1, keepdim=True) * 1.5


        def get_inputs():
            return [torch.randn(4096, 512)]


        def get_init_inputs():
            return []
    """)
    run = hiera("optimize", "gemm_sum.py", "--device", "cuda", "--budget", "1", "--json", cwd=folder)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["status"] == "proposal" and result["strategy"].startswith("sum_through_linear"), result
    assert result["speedup"] > 1.5

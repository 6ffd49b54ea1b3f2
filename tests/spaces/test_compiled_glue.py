"""Custom kernels with compiled glue: a custom-CUDA candidate whose forward leaves PyTorch ops
between its kernels gets those ops compiled by inductor while its kernels run as written (the
composition the profile's refinement tries when inductor's kernels took less GPU time)."""

from __future__ import annotations

import sys
import types

import pytest
from helpers.cuda_tasks import candidate_for, emulated_stencils, extra_task, task_context

from hiera_core.spaces.compose import compiled_glue
from hiera_core.spaces.pytorch_ops import graphed
from hiera_core.verify.verdicts import static_verification

COMPOSED = "\n_HieraKernels = ModelNew\n"


def _composed(name: str, tmp_path):
    task = extra_task(name, tmp_path)
    key, candidate = candidate_for(task_context(task))
    assert key == "custom_cuda.stencil"
    return task, candidate, compiled_glue(candidate, dynamic=False)


def test_the_ops_between_kernels_are_compiled_and_the_kernels_run_as_written(tmp_path, monkeypatch):
    """On the CPU, with the stencil kernel emulated by the convolution it computes: the composed
    module matches the reference, dynamo compiled the roll and the concatenation around the kernel,
    and the kernel's entry point was called outside the trace (as cuda.core's launch must be)."""
    import torch
    import torch._dynamo

    # into a folder of this test's own (and without inductor's global precompiled headers: conftest)
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))
    task, candidate, composed = _composed("stencil_between_glue", tmp_path)
    assert composed.space == "custom_cuda" and composed.strategy == "stencil+compiled_glue"
    assert composed.cuda_sources == candidate.cuda_sources
    kernels, wrapper = composed.code.split(COMPOSED)
    module = types.ModuleType("hiera_composed_proposal")  # dynamo reads the globals' module, as the runner loads it
    monkeypatch.setitem(sys.modules, module.__name__, module)
    namespace = module.__dict__
    exec(compile(task.path.read_text() + "\n\n" + kernels, "kernels", "exec"), namespace)
    traced_calls = []

    def watched(name, emulation):
        def entry_point(*args):
            traced_calls.append((name, torch.compiler.is_compiling()))
            return emulation(*args)
        return entry_point

    namespace.update({name: watched(name, f) for name, f in emulated_stencils().items()})
    exec(compile(COMPOSED + wrapper, "composed", "exec"), namespace)
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    model = namespace["ModelNew"]().eval()
    with torch.no_grad():
        torch.testing.assert_close(model(*task.inputs), namespace["Model"]()(*task.inputs), rtol=1e-5, atol=1e-5)
    assert traced_calls == [("_hiera_stencil_constant", False)]
    assert torch._dynamo.utils.counters["stats"]["unique_graphs"] >= 1


def test_the_composition_graphed_passes_the_custom_space_checks(tmp_path):
    _, _, composed = _composed("stencil_between_glue", tmp_path)
    code = graphed(composed, "host-bound").code
    assert static_verification(code, "custom_cuda", "Model", 1).passed
    assert "torch.compiler.disable(_hiera_stencil_constant)" in code


@pytest.mark.parametrize("name", ["heat2d_two_steps_slices", "stencil2d_depthwise"])
def test_no_composition_when_the_forward_is_kernels_only(name, tmp_path):
    """Nothing between the kernels for inductor to compile: no candidate (it would only add a compile)."""
    _, _, composed = _composed(name, tmp_path)
    assert composed is None

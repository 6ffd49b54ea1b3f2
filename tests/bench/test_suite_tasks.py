"""Every task of benchmarks/suite: KernelBench format, float32, deterministic, traceable by FX.

(How fast each forward runs is a benchmark figure, not asserted here: see docs/bench.md.)
"""

import importlib.util

import pytest
import torch
import torch.fx
from bench_helpers import REPO

TASKS = sorted((REPO / "benchmarks" / "suite").glob("level*/*.py"))


@pytest.mark.parametrize("path", TASKS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_suite_task(path):
    spec = importlib.util.spec_from_file_location(f"suite_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.__doc__ and len(module.__doc__.strip()) > 40, "say what the task computes and why"

    def build():
        torch.manual_seed(0)
        model = module.Model(*module.get_init_inputs()).eval()
        torch.manual_seed(0)
        return model, module.get_inputs()

    model, inputs = build()
    assert inputs and all(isinstance(x, torch.Tensor) and x.dtype == torch.float32 for x in inputs)
    with torch.no_grad():
        first = model(*inputs)
        again_model, again_inputs = build()
        second = again_model(*again_inputs)
    assert isinstance(first, torch.Tensor) and first.dtype == torch.float32 and first.isfinite().all()
    assert torch.equal(first, second), "the same seed must give the same output"
    traced = torch.fx.symbolic_trace(model)
    with torch.no_grad():
        assert torch.equal(traced(*inputs), first)

"""CPU: every custom-CUDA proposal's forward runs with its kernels stood in for (compile, launch,
the CUDA check), so its host side is checked where there is no GPU: the generated forward's Python
runs on the task's inputs (and a non-contiguous copy of them), each launch passes exactly the
arguments its kernel entry declares, of the kinds it declares (pointers, 64-bit integers, floats),
and the outputs have the reference's shapes and dtypes. The examples, the template tasks and every
suite and proxy task that gets a custom-CUDA candidate. What the kernels compute is the GPU tests'
part (test_templates_gpu, the suite and proxy benches)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.cuda_tasks import (
    EXTRA_TASKS,
    TASKS,
    build_proposal,
    candidate_for,
    example_task,
    extra_task,
    load_task,
    task_context,
)

torch = pytest.importorskip("torch")
pytest.importorskip("cuda.core")

ENTRY = re.compile(r'extern "C" __global__ void (?:__launch_bounds__\([^)]*\) )?(\w+)\(([^)]*)\)')


def entry_parameters(sources: list[str]) -> dict[str, list[str]]:
    """Each kernel entry point's parameter declarations, by name."""
    return {name: [p.strip() for p in declaration.split(",")] for source in sources
            for name, declaration in ENTRY.findall(source)}


def kind_of(declaration: str) -> str:
    return "pointer" if "*" in declaration else "float" if declaration.startswith("float") else "integer"


def kind_of_argument(value, declared: str) -> str:
    # a pointer is a tensor, or an address as an int: a cached launch plan's data_ptr(), 0 for no bias
    if isinstance(value, torch.Tensor) or (declared == "pointer" and isinstance(value, int)):
        return "pointer"
    return "float" if isinstance(value, float) else "integer" if isinstance(value, int) else type(value).__name__


def noncontiguous(t):
    wide = torch.empty(t.shape[:-1] + (2 * t.shape[-1],), dtype=t.dtype)
    view = wide[..., ::2]
    view.copy_(t)
    return view


def flat(value) -> list:
    return list(value) if isinstance(value, (tuple, list)) else [value]


BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def dry_run(task, must_have_candidate: bool = True) -> None:
    _, candidate = candidate_for(task_context(task))
    if candidate is None and not must_have_candidate:
        return
    assert candidate is not None, task.path.stem
    namespace = build_proposal(task, candidate.code)
    launches = []
    namespace["_hiera_kernel"] = lambda source, name, device: name
    namespace["_hiera_launch"] = lambda kernel, device, grid, block, shared, *args: launches.append((kernel, args))
    namespace["_hiera_check"] = lambda *tensors, masks=False: None
    namespace["_hiera_sms"] = lambda device: 132
    parameters = entry_parameters(candidate.cuda_sources)
    torch.manual_seed(0)
    reference = namespace[task.cls.__name__](*task.init).eval()
    proposal = namespace["ModelNew"](*task.init).eval()
    proposal.load_state_dict(reference.state_dict())
    for inputs in (list(task.inputs), [noncontiguous(t) if t.dim() else t for t in task.inputs]):
        launches.clear()
        with torch.no_grad():
            want, got = flat(reference(*inputs)), flat(proposal(*inputs))
        assert [(tuple(g.shape), g.dtype) for g in got] == [(tuple(w.shape), w.dtype) for w in want]
        assert launches, "no kernel launched"
        for kernel, arguments in launches:
            declared = [kind_of(p) for p in parameters[kernel]]
            assert len(arguments) == len(declared), (kernel, parameters[kernel])
            assert [kind_of_argument(a, d) for a, d in zip(arguments, declared)] == declared, (kernel, parameters[kernel])


@pytest.mark.parametrize("name", sorted(EXTRA_TASKS))
def test_template_task_forward_runs_its_launches_as_its_kernels_declare(name, tmp_path):
    dry_run(extra_task(name, tmp_path))


@pytest.mark.parametrize("name", sorted(name for name in TASKS if name not in ("small_mlp",)))
def test_example_forward_runs_its_launches_as_its_kernels_declare(name):
    dry_run(example_task(name))


@pytest.mark.parametrize("path", sorted(str(p.relative_to(BENCHMARKS)) for p in BENCHMARKS.glob("*/level*/*.py")))
def test_suite_and_proxy_task_forward_runs_its_launches_as_its_kernels_declare(path):
    dry_run(load_task(BENCHMARKS / path), must_have_candidate=False)

"""The verifier's parts on their own: static checks (and no false alarms on HIERA's own candidates),
fresh inputs at new addresses for every timed call, poisoned allocations, mixed-sign input sets,
the timing checks (side streams, roofline) and the compute-sanitizer plumbing (with a stand-in)."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
from helpers.engine import write_task

import hiera_core.spaces.custom_cuda  # noqa: F401  (registers the custom-CUDA strategies)
from hiera_core.profile.harness import InputRotation
from hiera_core.profile.timing import time_module
from hiera_core.spaces import strategies
from hiera_core.spaces.strategy import ImplementContext
from hiera_core.spec.contract import prepare
from hiera_core.task.load import load_task
from hiera_core.verify.calls import poisoned
from hiera_core.verify.inputs import input_sets
from hiera_core.verify.judge import evaluate
from hiera_core.verify.sanitizer import sanitize
from hiera_core.verify.static_checks import check_candidate
from hiera_core.verify.verdicts import roofline_check, streams_check
from hiera_core.worker.requests import EvaluateRequest
from hiera_core.worker.runner import Poison

ADVERSARIAL_TASKS = Path(__file__).resolve().parents[1] / "adversarial" / "tasks"


def problems(source: str, space: str = "pytorch") -> list[str]:
    return [p.check for p in check_candidate(textwrap.dedent(source), space, "Model")]


@pytest.mark.parametrize("source, expected", [
    ("import time as t\nt.perf_counter = lambda: 0.0\n", "timer-patching"),
    ("from torch import cuda\ncuda.Event.elapsed_time = lambda self, end: 0.0\n", "timer-patching"),
    ("import torch\nsetattr(torch.cuda, 'synchronize', lambda: None)\n", "timer-patching"),
    ("from unittest import mock\nimport time\nmock.patch.object(time, 'perf_counter').start()\n", "timer-patching"),
    ("from unittest.mock import patch\npatch('torch.cuda.Event.record').start()\n", "timer-patching"),
    ("import torch\ntorch.allclose = lambda *a, **k: True\n", "monkey-patching"),
    ("import torch\ntorch.Tensor.__dict__['double'] = None\n", "monkey-patching"),
    ("__builtins__['float'] = int\n", "monkey-patching"),
    ("import sys\nref = sys.modules['hiera_core.verify.verdicts']\n", "introspection"),
    ("import sys\nframe = sys._getframe(1).f_back\n", "introspection"),
    ("def f():\n    raise ValueError\ntry:\n    f()\nexcept ValueError as e:\n    tb = e.__traceback__.tb_frame\n",
     "try-except"),
    ("import hiera_core.verify.verdicts\n", "introspection"),
    ("exec('x = 1')\n", "dynamic-code"),
    ("threading = __import__('threading')\n", "dynamic-code"),
    ("import importlib\n", "dynamic-code"),
    ("from concurrent.futures import ThreadPoolExecutor\n", "threads"),
    ("import os\nos.system('true')\n", "threads"),
    ("import torch.multiprocessing as mp\n", "threads"),
    ("import contextlib\nwith contextlib.suppress(Exception):\n    pass\n", "try-except"),
    ("from torch.utils._python_dispatch import TorchDispatchMode\nclass Spy(TorchDispatchMode):\n    pass\n",
     "op-interception"),
    ("import torch\nlib = torch.library.Library('aten', 'IMPL')\n", "op-interception"),
    ("from torch import Tensor\nclass Lazy(Tensor):\n    pass\n", "tensor-subclass"),
    ("import torch\ny = torch.randn(3).as_subclass(torch.Tensor)\n", "tensor-subclass"),
    ("SOURCE = 'stream attribute accessPolicyWindow'\n", "l2-persistence"),
    # a guarded module's attribute by a name: computed, refused; constant, checked as the call it reaches
    ("import builtins\ngetattr(builtins, 'ex' + 'ec')('x = 1')\n", "dynamic-code"),
    ("import os\ngetattr(os, 'fork')()\n", "threads"),
    ("import os as o\nvars(o)['fo' + 'rk']()\n", "dynamic-code"),
    ("import os\nos.__dict__['system']('true')\n", "threads"),
    ("import ctypes\nCALLBACK = ctypes.CFUNCTYPE(None)\n", "dynamic-code"),
    ("import ctypes\nctypes.pythonapi.PyRun_SimpleString(b'x = 1')\n", "dynamic-code"),
    ("from cuda.bindings import driver\nerr, context = driver.cuCtxCreate(0, 0)\n", "threads"),
    ("from cuda.core import Device\ncontext = Device(0).create_context()\n", "threads"),
    ("import cuda.bindings.driver as d\nf = getattr(d, 'cuCtx' + 'Create')\n", "dynamic-code"),
])
def test_static_checks_see_through_aliases_and_indirection(source, expected):
    assert expected in problems(source), problems(source)


def test_fallback_to_the_reference_is_forbidden_in_the_custom_space_only():
    calls_super = "class ModelNew(Model):\n    def forward(self, x):\n        return super().forward(x)\n"
    inherits = "class ModelNew(Model):\n    '''fused kernel'''\n"
    builds = "class ModelNew(Model):\n    def forward(self, x):\n        return Model()(x)\n"
    for source in (calls_super, inherits, builds):
        assert problems(source, "custom_cuda") == ["reference-fallback"], source
        assert problems(source, "pytorch") == [], source


def test_legitimate_settings_and_own_state_are_not_flagged():
    assert problems("""
        import ctypes
        import os
        import torch

        os.environ["TORCHINDUCTOR_CACHE_DIR"] = "/tmp/cache"
        torch.backends.cudnn.benchmark = True
        ACTIVATION = getattr(torch.nn.functional, "gel" + "u")
        SCALE = ctypes.c_float(0.5)
        torch._inductor.config.coordinate_descent_tuning = True


        class ModelNew(Model):
            def forward(self, x):
                self.calls = 1
                try:
                    return torch.relu(x)
                finally:
                    self.calls = 0
        """) == []


@pytest.mark.parametrize("task, spaces", [("pointwise", {"pytorch", "custom_cuda"}),
                                          ("softmax", {"pytorch", "custom_cuda"}),
                                          ("linear", {"pytorch", "cuda_libs"}), ("row_sum", {"custom_cuda"})])
def test_hiera_own_candidates_pass_the_static_checks(task, spaces):
    loaded = load_task(str(ADVERSARIAL_TASKS / f"{task}.py"))
    prepared = prepare(loaded, "cpu", measure=False)
    prepared.spec.device = "cuda"  # so that the GPU-only strategies generate too
    context = ImplementContext(prepared.spec, loaded.class_name, prepared.model, prepared.inputs, prepared.graph, "cpu")
    generated = [strategy.generate(context) for strategy in strategies().values()]
    generated = [candidate for candidate in generated if candidate is not None]
    assert {candidate.space for candidate in generated} >= spaces
    for candidate in generated:
        found = check_candidate(candidate.code, candidate.space, loaded.class_name)
        assert not found, f"{candidate.name}: {found}"


def test_every_timed_call_gets_the_inputs_at_a_new_address():
    base = torch.randn(33, 64)
    transposed = base.t()
    rotation = InputRotation([transposed, 3])
    seen = set()
    for _ in range(50):
        fresh, scalar = rotation.next()
        assert torch.equal(fresh, transposed) and fresh.stride() == transposed.stride() and scalar == 3
        assert fresh.data_ptr() not in seen and fresh.data_ptr() % 16 == 0
        seen.add(fresh.data_ptr())
        fresh.zero_()  # a mutating call: the next call still gets the original values


def test_time_module_feeds_new_addresses_and_hands_back_the_last_output():
    x = torch.randn(16, 32)
    pointers, last = [], []
    timing = time_module(lambda t: (pointers.append(t.data_ptr()), t * 2)[1], [x], "cpu", profile=False,
                         on_last_output=last.append)
    assert timing.iterations >= 5 and len(pointers) == len(set(pointers))
    assert torch.equal(last[0], x * 2)


def test_cpu_allocations_made_during_a_call_hold_the_poison():
    poison = Poison("cpu", 4096)
    if poison.mallopt is None:
        pytest.skip("not glibc: no M_PERTURB")
    with poison:
        unwritten = torch.empty(32, 32)
        written = torch.zeros(32, 32)
    assert poisoned(unwritten, poison.byte) == 32 * 32 and poisoned(written, poison.byte) == 0


LOG_TASK = """
    import torch
    import torch.nn as nn


    class Model(nn.Module):
        def forward(self, x):
            return torch.log(x)


    def get_inputs():
        return [torch.rand(16, 32) + 0.1]


    def get_init_inputs():
        return []
"""


def test_mixed_sign_inputs_unless_the_reference_cannot_take_them(tmp_path):
    relu = load_task(str(ADVERSARIAL_TASKS / "relu_rand.py"))
    assert any(not s.keeps_sign and bool((s.inputs[0] < 0).any()) for s in input_sets(relu, "cpu"))
    task = load_task(str(write_task(tmp_path, "log.py", LOG_TASK)))
    candidate = write_task(tmp_path, "candidate.py", """
        import torch
        import torch.nn as nn


        class ModelNew(nn.Module):
            def forward(self, x):
                return torch.log(x)
    """)
    spec = prepare(task, "cpu", measure=False).spec
    verification = evaluate(task, spec, str(candidate), "pytorch", "cpu", timed=False).verification
    assert verification.passed, verification.summary()
    assert not any("mixed sign" in described for described in verification.sets_checked)  # log's domain kept


def _timing(gpu, host, queue=0.01, fastest=None, unwaited=0.0):
    """A GPU timing: event median, back-to-back host time per call (median and fastest batch), host
    queueing time per call, the device's time busy after the end event."""
    return SimpleNamespace(median_ms=max(gpu, host), gpu_median_ms=gpu, host_median_ms=host, host_queue_ms=queue,
                           host_min_ms=host if fastest is None else fastest, unwaited_ms=unwaited)


def test_device_time_far_beyond_events_and_queueing_means_unwaited_streams():
    assert streams_check(_timing(0.005, 0.40), "set").passed is False  # the work ran on a side stream
    assert streams_check(_timing(0.30, 0.28), "set").passed  # GPU-bound: back to back, as fast as the events
    assert streams_check(_timing(0.004, 0.20, queue=0.19), "set").passed  # host-bound: as slow as its queueing
    assert streams_check(_timing(0.05, 0.30, queue=0.29), "set").passed  # synchronises inside the call
    # Another process on the device or host slowed most batches, not the fastest: not a side stream.
    assert streams_check(_timing(0.05, 0.40, fastest=0.06), "set").passed
    assert streams_check(_timing(0.005, 0.40, fastest=0.35), "set").passed is False  # every batch: side stream
    # Side work that backs up the launch queue, so queueing explains the back-to-back time: the
    # device still runs after the end event of a call made alone.
    side = streams_check(_timing(0.005, 0.40, queue=0.39, unwaited=0.35), "set")
    assert side.passed is False and "after the timed stream's end event" in side.message
    assert streams_check(_timing(0.30, 0.30, unwaited=0.01), "set").passed  # sync noise, not side work


class _TailSide:
    """A side whose solo calls leave `tails[k]` ms of device work after their end event in round k
    (empty calls: 0.01 ms of synchronisation each)."""

    def __init__(self, tails):
        self.rounds, self.steps = iter(tails), []

    def step(self, step, calls, head_start_ms=0.0):
        self.steps.append((step, len(calls)))
        per_call = next(self.rounds) + 0.01 if step == "tail" else 0.01
        return {"tails": [per_call] * len(calls)}, 1.0


def test_work_left_after_the_end_event_is_the_lowest_round_of_solo_calls():
    """Another process's load lengthens some rounds' synchronisations: a round's excess that does not
    recur is not side work. Work on another stream after every call shows in every round."""
    from hiera_core.verify.paired_timing import TAIL_CALLS, TAIL_ROUNDS, unwaited_ms

    def calls(count):
        return [(0, 0)] * count

    loaded = _TailSide([0.0225, 0.001, 0.004])
    assert unwaited_ms(loaded, calls, 0.0) == pytest.approx(0.001)
    assert loaded.steps == [("tail", TAIL_CALLS), ("noop_tail", TAIL_CALLS)] * TAIL_ROUNDS
    assert unwaited_ms(_TailSide([0.35, 0.34, 0.36]), calls, 0.0) == pytest.approx(0.34)


def test_faster_than_the_roofline_bound_is_rejected_where_the_bound_applies():
    spec = SimpleNamespace(roofline=SimpleNamespace(bound_ms=0.03, device="h200", device_name="NVIDIA H200"))
    baseline = _timing(0.2, 0.2)
    assert roofline_check(spec, _timing(0.01, 0.01), baseline, "h200", "set").passed is False
    assert roofline_check(spec, _timing(0.05, 0.05), baseline, "h200", "set").passed
    # Host-bound, so its time is not below the bound, but its GPU work is: the GPU time is judged.
    assert roofline_check(spec, _timing(0.01, 0.08, queue=0.08), baseline, "h200", "set").passed is False
    assert roofline_check(spec, _timing(0.01, 0.01), baseline, "h100", "set") is None  # bound for another GPU
    assert roofline_check(spec, _timing(0.01, 0.01), _timing(0.02, 0.02), "h200", "set") is None


def test_an_exact_rewrite_is_held_to_the_bytes_it_must_move_not_the_references_flops():
    """A GEMM whose outputs are only summed, rewritten as a matrix-vector product: faster than the
    GEMM's FLOP bound (16 us) is real; faster than reading x and writing the sums once (2 us) is not."""
    tensors = [SimpleNamespace(numel=4096 * 512, dtype="float32"), SimpleNamespace(numel=4096, dtype="float32")]
    spec = SimpleNamespace(inputs=tensors[:1], outputs=tensors[1:],
                           roofline=SimpleNamespace(bound_ms=0.016, peak_bw=4.3e12, device="h200", device_name="NVIDIA H200"))
    baseline = _timing(0.048, 0.048)
    assert roofline_check(spec, _timing(0.0098, 0.0098), baseline, "h200", "set").passed is False
    assert roofline_check(spec, _timing(0.0098, 0.0098), baseline, "h200", "set", exact_rewrite=True).passed
    faked = roofline_check(spec, _timing(0.001, 0.001), baseline, "h200", "set", exact_rewrite=True)
    assert faked.passed is False and "reading its inputs and writing its outputs" in faked.message


FAKE_SANITIZER = """#!{python}
# Stands in for compute-sanitizer: runs the command after its options, reports one memcheck error
# (a read just past a tensor's end) when the caching allocator is off and padding separates the
# allocations (as HIERA asks for memcheck), none for other tools.
import os, subprocess, sys
args = sys.argv[1:]
if args == ["--help"]:
    print("  --padding arg   Size in bytes for padding buffer to add after each allocation.")
    sys.exit(0)
tool, log = args[args.index("--tool") + 1], args[args.index("--log-file") + 1]
start = 0
while args[start].startswith("--"):
    start += 2
code = subprocess.call(args[start:])
with open(log, "w") as report:
    if (tool == "memcheck" and os.environ.get("PYTORCH_NO_CUDA_MEMORY_CACHING") == "1"
            and "--padding" in args[:start]):
        report.write("========= Invalid __global__ read of size 4 bytes\\n=========     at k+0x10\\n"
                     "========= ERROR SUMMARY: 1 error\\n")
        sys.exit(86)
    report.write("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\\n" if tool == "racecheck"
                 else "========= ERROR SUMMARY: 0 errors\\n")
sys.exit(code)
"""


def test_sanitize_runs_the_verification_under_the_tool_and_reports_its_errors(tmp_path, monkeypatch):
    fake = tmp_path / "bin" / "compute-sanitizer"
    fake.parent.mkdir()
    fake.write_text(FAKE_SANITIZER.format(python=sys.executable))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    reference = ADVERSARIAL_TASKS / "pointwise.py"
    candidate = tmp_path / "candidate.py"
    candidate.write_text(reference.read_text() + "\n\nclass ModelNew(Model):\n    pass\n")
    spec = prepare(load_task(str(reference)), "cpu", measure=False).spec
    request = EvaluateRequest(address=str(reference), device="cpu", spec=spec.to_dict(), candidate_path=str(candidate),
                              candidate_source=candidate.read_text(), first_line=1, space="pytorch", seed=4242)
    memcheck = sanitize("memcheck", request, timeout_s=120, log_path=tmp_path / "memcheck.log")
    assert not memcheck.passed and "Invalid __global__ read of size 4 bytes" in memcheck.message
    assert "run seed 4242: seed 4242" in memcheck.reproducer  # the sets it ran
    racecheck = sanitize("racecheck", request, timeout_s=120, log_path=tmp_path / "racecheck.log")
    assert racecheck.passed, racecheck.message


def test_sanitizer_summaries_of_both_tools_are_read():
    from hiera_core.verify.sanitizer import _sanitizer_errors

    assert _sanitizer_errors("========= ERROR SUMMARY: 3 errors\n") == 3
    assert _sanitizer_errors("========= ERROR SUMMARY: 0 errors\n") == 0
    # racecheck prints its own summary line, not memcheck's
    assert _sanitizer_errors("========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)\n") == 1
    assert _sanitizer_errors("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n") == 0
    assert _sanitizer_errors("the process died before any summary\n") is None


ONE_PASS_VARIANCE_TASK = """
    import torch
    import torch.nn as nn


    class Model(nn.Module):
        \"\"\"The variance by E[x^2] - E[x]^2: in float32 it loses most of its digits on data far from zero.\"\"\"

        def forward(self, x):
            mean = x.mean(dim=-1)
            return (x * x).mean(dim=-1) - mean * mean


    def get_inputs():
        return [torch.randn(64, 4096)]


    def get_init_inputs():
        return []
"""


def _variance_candidate(tmp_path, body: str) -> str:
    return str(write_task(tmp_path, "candidate.py", f"""
        import torch
        import torch.nn as nn


        class ModelNew(nn.Module):
            def forward(self, x):
                {body}
    """))


def test_on_a_set_the_reference_computes_badly_an_accurate_candidate_is_judged_against_float64(tmp_path):
    """On the offset set (values near 100) the reference's own float32 variance is off by far more than
    the strict tolerance; a two-pass variance, right to float32's precision, differs from it as much.
    It passes, and the message of a candidate still wrong says how much was allowed for."""
    task = load_task(str(write_task(tmp_path, "variance.py", ONE_PASS_VARIANCE_TASK)))
    spec = prepare(task, "cpu", measure=False).spec
    accurate = _variance_candidate(tmp_path, "return torch.var(x, dim=-1, unbiased=False)")
    verification = evaluate(task, spec, accurate, "pytorch", "cpu", timed=False).verification
    assert verification.passed, verification.summary()
    assert any("offset" in described for described in verification.sets_checked)
    # Wrong by 1% everywhere: the well-conditioned sets allow no such error, whatever the offset set allows.
    wrong = _variance_candidate(tmp_path, "return 1.01 * torch.var(x, dim=-1, unbiased=False)")
    verification = evaluate(task, spec, wrong, "pytorch", "cpu", timed=False).verification
    assert not verification.passed and verification.failure().name == "values", verification.summary()


def test_lean_the_float64_result_is_computed_on_the_host_and_judges_as_it_does_on_the_device(tmp_path, monkeypatch):
    """A task too large for the device (as if two calls filled it): the float64 result, twice the
    call's bytes, is computed in host memory; the accurate variance still passes, the wrong one fails."""
    import hiera_core.verify.judge as judge_module
    from hiera_core.spec.memory import tensor_bytes
    from hiera_core.verify.footprint import Footprint

    monkeypatch.setattr(judge_module, "footprint_of", lambda inputs, outputs, device: Footprint(
        tensor_bytes(inputs) + tensor_bytes(outputs), 2 * (tensor_bytes(inputs) + tensor_bytes(outputs))))
    task = load_task(str(write_task(tmp_path, "variance.py", ONE_PASS_VARIANCE_TASK)))
    spec = prepare(task, "cpu", measure=False).spec
    for body, passes in (("return torch.var(x, dim=-1, unbiased=False)", True),
                         ("return 1.01 * torch.var(x, dim=-1, unbiased=False)", False)):
        verification = evaluate(task, spec, _variance_candidate(tmp_path, body), "pytorch", "cpu", timed=False).verification
        assert any(check.name == "memory" for check in verification.checks)
        assert verification.passed == passes, verification.summary()


def test_on_an_ill_conditioned_set_a_candidate_off_the_reference_but_near_float64_passes():
    """The reference's float32 result is 0.5 off float64 on one element; a candidate 1.2 off on the
    other side of float64 is 1.7 from the reference (more than 3x the reference's own error) but
    within that allowance of float64: it passes. One 2.0 off float64 on another element does not."""
    from hiera_core.spec.model import Tolerance
    from hiera_core.verify.calls import CheckedCalls

    exact = torch.linspace(-3.0, 3.0, 1000, dtype=torch.float64)
    ref = exact.float().clone()
    ref[0] += 0.5
    calls = SimpleNamespace(float64_outputs=lambda model, inputs: [exact])
    tolerance = Tolerance(rtol=1e-5, atol_rel=1e-5, atol=1e-5, note="")
    near = exact.float().clone()
    near[0] -= 1.2
    assert CheckedCalls.compare_output(calls, near, ref, tolerance, object(), [], 0).ok
    wrong = exact.float().clone()
    wrong[3] += 2.0
    comparison = CheckedCalls.compare_output(calls, wrong, ref, tolerance, object(), [], 0)
    assert not comparison.ok and "reference's own float32 error" in comparison.message

"""results.json, results.csv and report.html from the same records agree; resuming is guarded."""

import json

import pytest
from helpers.bench import assert_outputs_agree, record

from hiera_core.bench.measures import summarise
from hiera_core.bench.record import TaskRecord
from hiera_core.bench.results import BenchResults, check_resumable, load, render_csv, save
from hiera_core.errors import HieraError

ENVIRONMENT = {"device": "cuda", "gpu_name": "NVIDIA H200", "driver": "580.159.04", "sm_clock_mhz": 1980,
               "torch": "2.11.0+cu130", "cuda": "13.0", "hiera_version": "0.1.0", "model": None, "endpoint": None}
SETTINGS = {"device": "cuda", "budget": 4, "timeout_s": 600.0, "model": None, "endpoint": None, "samples": None}
# LLMRecord.summary's fields that the bench reads: 4 model samples, one lost to the endpoint
MODEL_SUMMARY = {"samples": 4, "judged": 3, "verified": 2, "transport_failures": 1, "valid_rate": 2 / 3,
                 "samples_to_first_valid": 2, "cost": None,
                 "cost_to_first_valid": {"calls": 3, "tokens": 5200, "cost": None, "seconds": 40.0, "sample": 2},
                 "cost_to_best": {"calls": 5, "tokens": 9100, "cost": None, "seconds": 80.0, "sample": 4}}
ROOFLINE = dict(peak_flops=67e12, peak_bw=4.3e12, roofline_device="NVIDIA H200")
# What the matmul task's loop measured and its plan (task_run.candidate_summary, region_summary)
CANDIDATES = [
    {"name": "cuda_libs.tf32", "space": "cuda_libs", "status": "verified", "ms": 0.19, "gpu_ms": 0.188,
     "bound": "gpu", "speedup": 1.05, "paired_eager_ms": 0.2, "failed": None},
    {"name": "custom_cuda.tiled_gemm", "space": "custom_cuda", "status": "rejected", "ms": None, "gpu_ms": None,
     "bound": None, "speedup": None, "paired_eager_ms": None, "failed": "outputs: set 1: max error 0.5 <beyond>"},
]
REGIONS = [{"index": 0, "kind": "matmul", "anchor": "matmul", "workload_class": "compute-bound", "bound_ms": 0.107,
            "share": 1.0, "share_source": "measured", "choices": ["cuda_libs: cuBLAS GEMM", "pytorch: left to PyTorch"]}]


def _records() -> list[TaskRecord]:
    return [
        record("level1/1_Matmul.py", 1, eager=0.2, compile_=0.21, hiera_ms=0.19, space="cuda_libs", samples=3,
               candidates=CANDIDATES, regions=REGIONS,
               samples_to_first_valid=1, best_speedup_by_sample=[1.04, 1.04, 1.05], flops=7.2e9, intensity=300.0,
               roofline_bound_ms=0.107, roofline_pct=56.3, roofline_pct_eager=53.5, environment=ENVIRONMENT,
               **ROOFLINE),
        record("level1/2_Relu.py", 1, outcome="no_improvement", eager=0.03, compile_=0.031, hiera_ms=0.03,
               samples=2, best_speedup_by_sample=[None, 0.98], flops=0.0, intensity=0.0, roofline_bound_ms=0.03,
               roofline_pct=100.0, roofline_pct_eager=100.0, environment=ENVIRONMENT, **ROOFLINE),
        record("level2/1_Gemm_<&>_Gelu.py", 2, correct=False, eager=1.0, compile_=0.5, samples=1,
               best_speedup_by_sample=[3.0], check="trial 0: values differ", environment=ENVIRONMENT),
        record("level2/2_Broken.py", 2, outcome="error", correct=False, environment=ENVIRONMENT,
               error={"stage": "optimize", "kind": "import", "message": "importing the file raised ImportError"}),
        record("level3/1_Mlp.py", 3, eager=2.0, compile_=None, hiera_ms=0.5, compile_error="BackendCompilerFailed",
               samples=4, samples_to_first_valid=2, best_speedup_by_sample=[None, 1.5, 4.0, 4.0], flops=4e9,
               intensity=50.0, roofline_bound_ms=0.06, roofline_pct=12.0, roofline_pct_eager=3.0,
               environment={**ENVIRONMENT, "sm_clock_mhz": 1755}, **ROOFLINE),
    ]


def test_the_three_outputs_agree(tmp_path):
    results = BenchResults(settings=SETTINGS, environment=ENVIRONMENT, command=["hiera", "bench", "suite"],
                           tasks=_records())
    save(tmp_path, results)
    data = assert_outputs_agree(tmp_path)
    assert data["format"] == "hiera-bench/1" and data["summary"] == json.loads(json.dumps(summarise(_records())))
    assert data["summary"]["overall"]["validity"] == 0.6
    html = (tmp_path / "report.html").read_text()
    assert "level2/1_Gemm_&lt;&amp;&gt;_Gelu.py" in html and "<&>" not in html
    assert "NVIDIA H200" in html and "offline expert mode" in html
    # each candidate and plan region in a table of its own (their figures checked above with the rest)
    assert 'data-key="candidates.1.name" data-value="&quot;custom_cuda.tiled_gemm&quot;"' in html
    assert "set 1: max error 0.5 &lt;beyond&gt;" in html and "cuda_libs: cuBLAS GEMM; pytorch: left to PyTorch" in html
    assert not (set(p.name for p in tmp_path.iterdir()) - {"results.json", "results.csv", "report.html"})


def test_model_samples_appear_apart_in_all_three_outputs(tmp_path):
    with_model = _records()
    with_model[0].record_model_samples(MODEL_SUMMARY)
    results = BenchResults(settings={**SETTINGS, "model": "scripted", "endpoint": "http://127.0.0.1:1/v1"},
                           environment=ENVIRONMENT, command=[], tasks=with_model)
    save(tmp_path, results)
    data = assert_outputs_agree(tmp_path)  # the model table's cells included
    task = data["tasks"][0]
    assert (task["samples"], task["model_samples"], task["model_first_valid_sample"]) == (3, 4, 2)
    assert (task["model_valid_rate"], task["model_transport_failures"], task["model_tokens_to_best"]) == (2 / 3, 1, 9100)
    assert data["summary"]["overall"]["model"]["tasks"] == 1 and "model" not in data["summary"]["levels"]["level2"]
    html = (tmp_path / "report.html").read_text()
    assert "<h2>Model samples</h2>" in html and 'data-key="summary.level1.model.valid_rate"' in html


def test_records_survive_a_round_trip(tmp_path):
    results = BenchResults(settings=SETTINGS, environment=ENVIRONMENT, command=[], tasks=_records())
    save(tmp_path, results)
    loaded = load(tmp_path)
    assert loaded.tasks == results.tasks and loaded.settings == SETTINGS and loaded.created == results.created
    assert loaded.finished_ids() == {r.id for r in _records()}


def test_csv_has_one_row_per_task_with_environment_columns():
    text = render_csv(BenchResults(settings=SETTINGS, environment=ENVIRONMENT, command=[], tasks=_records()))
    header, *rows = text.splitlines()
    assert len(rows) == 5 and "env_sm_clock_mhz" in header.split(",") and "error_kind" in header.split(",")


def test_reports_with_no_usable_data_still_render(tmp_path):
    failed = record("level1/1_Broken.py", 1, outcome="error", correct=False,
                    error={"stage": "timing", "kind": "timeout", "message": "timing did not finish"})
    save(tmp_path, BenchResults(settings=SETTINGS, environment={}, command=[], tasks=[failed]))
    assert_outputs_agree(tmp_path)
    save(tmp_path, BenchResults(settings=SETTINGS, environment={}, command=[], tasks=[]))
    assert json.loads((tmp_path / "results.json").read_text())["summary"]["overall"]["validity"] is None


def test_resume_refuses_other_settings_and_foreign_files(tmp_path):
    previous = BenchResults(settings=SETTINGS, environment={}, command=[])
    check_resumable(previous, dict(SETTINGS, timeout_s=60.0), tmp_path)  # the timeout does not change results
    with pytest.raises(HieraError, match="budget 4 -> 8"):
        check_resumable(previous, dict(SETTINGS, budget=8), tmp_path)
    (tmp_path / "results.json").write_text('{"something": "else"}')
    with pytest.raises(HieraError, match="not a hiera bench results file"):
        load(tmp_path)
    assert load(tmp_path / "empty") is None

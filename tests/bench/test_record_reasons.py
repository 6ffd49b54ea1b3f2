"""A bench record says why the reference was kept, as the run said it, and whether each candidate's
speedup exceeded the measured spread: a task whose candidate measured 1.17x in the loop and was not
proposed must show why (H100, session 34: two level-1 tasks read only "no verified candidate beat it")."""

from hiera_core.bench.record import TaskRecord
from hiera_core.bench.task_run import _record_optimize, _record_timing
from hiera_core.loop.run_result import NO_IMPROVEMENT, CandidateOutcome, OptimizeResult
from hiera_core.profile.stats import Timing
from hiera_core.worker.requests import BenchTimeResult


def _timing(ms):
    return Timing(device="cuda", median_ms=ms, mean_ms=ms, min_ms=ms, stdev_ms=0.0, iqr_ms=0.0, iterations=30,
                  host_median_ms=ms, method="test")


def test_a_kept_reference_records_the_runs_reason_and_each_candidates_significance(tmp_path):
    within = CandidateOutcome(name="custom_cuda.pooling", space="custom_cuda", status="verified", speedup=1.14,
                              ms=0.027, baseline_ms=0.031, significant=False,
                              timing_verdict="the reference's timing is too noisy to tell")
    result = OptimizeResult(status=NO_IMPROVEMENT, candidates=[within], message=(
        "no improvement found: no verified candidate is faster beyond the measured spread "
        "(custom_cuda.pooling: 1.14x, the reference's timing is too noisy to tell)"))
    record = TaskRecord(id="level1/12_Pool.py", level=1, path="12_Pool.py", outcome="")
    _record_optimize(record, result, tmp_path)
    _record_timing(record, BenchTimeResult(eager=_timing(0.031), compile={}, compile_errors={}, proposals=[],
                                                   environment={}), {})

    assert record.check == ("reference kept: no verified candidate is faster beyond the measured spread "
                            "(custom_cuda.pooling: 1.14x, the reference's timing is too noisy to tell)")
    assert record.correct and record.hiera_ms == record.eager_ms == 0.031
    (summary,) = record.candidates
    assert summary["significant"] is False and summary["timing_verdict"] == "the reference's timing is too noisy to tell"

"""The records one version of HIERA writes and another reads: the store's index entry of a module and
the commands' results the language server reads. Each survives JSON; unlike the worker's records,
an entry or result of an older version (fields missing) or a newer one (fields unknown) reads, with
defaults for what is missing, and a malformed one reads as the empty record."""

from __future__ import annotations

import json
from dataclasses import MISSING, fields, is_dataclass

import pytest

from hiera_core.index_entry import (
    IndexEntry,
    LastRun,
    ProfiledKernel,
    ProfileEntry,
    ProposalEntry,
    SpecEntry,
    VerificationFailure,
)
from hiera_core.loop.run_result import (
    CandidateOutcome,
    CheckResult,
    OptimizeResult,
    OutcomeCacheSummary,
    VerifyResult,
    command_result,
)
from hiera_core.store import Store


def profile() -> ProfileEntry:
    return ProfileEntry(device="cuda", device_name="NVIDIA H200", latency_ms=0.61, spread_ms=0.004, method="events",
                        bound="host", gpu_ms=0.2, host_ms=0.61,
                        kernels=[ProfiledKernel("void scale(float*)", 0.1, 0.5, registers=32, spills=8,
                                                shared_bytes=1024, occupancy=0.75)],
                        kernel_sum_ms=0.2, flops=1.2e8, bytes=1.3e8, intensity=0.9, roofline_bound_ms=0.031,
                        roofline_device="NVIDIA H200", roofline_pct=5.1, workload_class="memory-bound",
                        date="2026-11-29T10:00:00+0000")


def candidate() -> CandidateOutcome:
    return CandidateOutcome(name="custom_cuda.fused", space="custom_cuda", strategy="fused", status="rejected",
                            reason="values: 3 values differ", speedup=2.5, ms=0.4, baseline_ms=1.0,
                            verification="failed", failed_check={"check": "values", "message": "differ"},
                            baseline_timing={"median_ms": 1.0}, timing={"median_ms": 0.4}, significant=True,
                            timing_verdict="faster", cache={"key": "ab12", "used": False})


# Every field off its default, nested records' too, so a field the JSON loses is seen.
EXAMPLES = [
    IndexEntry(file="/w/m.py", class_name="Model", spec=SpecEntry("r1", "/w/.hiera/runs/r1/spec.json"),
               profile=profile(),
               proposal=ProposalEntry(run="r2", path="/w/.hiera/runs/r2/proposal.py", target="/w/m_hiera.py",
                                      speedup=2.3, space="custom_cuda", strategy="fused", verification="passed: 9",
                                      device_name="NVIDIA H200", date="2026-11-29T11:00:00+0000"),
               verification_failures=[VerificationFailure("tiled", "no_mutation", "input 0 was modified", "seed 3")],
               last_run=LastRun(id="r2", kind="optimize", status="failed", date="2026-11-29T11:00:00+0000",
                                error={"kind": "timeout", "message": "the forward hangs"}),
               updated=1764700000.5),
    OptimizeResult(status="proposal", message="proposal: fused is 2.30x faster", run="r2", address="m.py::Model",
                   proposal_path="/r2/proposal.py", target_path="/w/m_hiera.py", written=True,
                   previous_saved_to="/r2/previous_proposal.py", speedup=2.3, loop_speedup=2.5, space="custom_cuda",
                   strategy="fused", verification="passed: 9 checks", reason="fuses the chain", baseline_ms=1.0,
                   best_ms=0.43, device="cuda", device_name="NVIDIA H200", roofline_bound_ms=0.031, roofline_pct=7.2,
                   workload_class="memory-bound", plan="memory-bound: fuse", regions=[{"index": 0}],
                   candidates=[candidate()], diff="--- a/m.py\n+++ b/m_hiera.py\n", mode="offline expert mode",
                   confirmation={"held": True, "speedup": 2.3}, worker_seconds={"prepare": {"total": 3.5}},
                   spec_cache={"key": "cd34", "used": True, "note": "spec from cache"},
                   outcome_cache=OutcomeCacheSummary(used=["custom_cuda.fused"], evaluated=["pytorch.compile"],
                                                     note="1 of 2 candidate outcomes from cache"),
                   llm={"model": "m", "tokens": {"total": 1200}}),
    VerifyResult(passed=True, checks=[CheckResult("values", True, "3 values differ", "run seed 7: set 1", 0.5,
                                                  {"seed": 7, "distribution": "offset"}, "/r/c.repro.py")],
                 input_sets=5, max_abs_error=0.5, max_rel_error=3.0, sets_checked=["run seed 7: set 1"]),
]


def through_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


def assert_every_field_off_its_default(record) -> None:
    for item in fields(record):
        value = getattr(record, item.name)
        default = item.default if item.default is not MISSING else item.default_factory()
        assert value != default, (type(record).__name__, item.name)
        for nested in value if isinstance(value, list) else [value]:
            if is_dataclass(nested):
                assert_every_field_off_its_default(nested)


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda record: type(record).__name__)
def test_a_record_round_trips_through_json_with_every_field_off_its_default(record):
    assert_every_field_off_its_default(record)
    assert type(record).from_dict(through_json(record.to_dict())) == record


def test_the_module_class_is_stored_as_class():
    assert IndexEntry(class_name="Model").to_dict()["class"] == "Model"


def test_an_older_versions_index_entry_reads_with_defaults_for_what_it_lacks():
    entry = IndexEntry.from_dict({"file": "m.py", "class": "Model", "profile": {"latency_ms": 2.5},
                                  "last_run": {"id": "r1", "status": "no_improvement"}})
    assert entry == IndexEntry(file="m.py", class_name="Model", profile=ProfileEntry(latency_ms=2.5),
                               last_run=LastRun(id="r1", status="no_improvement"))


def test_a_newer_versions_index_entry_reads_what_this_one_knows_and_an_update_keeps_the_rest(tmp_path):
    store = Store(tmp_path)
    newer = {**EXAMPLES[0].to_dict(), "energy": {"joules": 3.0}}
    newer["profile"] = {**newer["profile"], "power_w": 450.0}
    store.index_path("task").parent.mkdir(parents=True)
    store.index_path("task").write_text(json.dumps(newer))
    assert store.read_index("task") == EXAMPLES[0]
    store.update_index("task", spec=SpecEntry("r3", "/r3/spec.json"))
    stored = json.loads(store.index_path("task").read_text())
    assert stored["energy"] == {"joules": 3.0} and stored["spec"] == {"run": "r3", "path": "/r3/spec.json"}
    assert stored["profile"] == newer["profile"]  # a part the update did not set stays as it was, unknown keys too
    assert store.read_index("task") == IndexEntry(**{**vars(EXAMPLES[0]), "spec": SpecEntry("r3", "/r3/spec.json"),
                                                     "updated": stored["updated"]})


def test_an_update_writes_only_the_parts_it_sets_under_the_keys_older_versions_read(tmp_path):
    store = Store(tmp_path)
    store.update_index("task", file="/w/m.py", class_name="Model", profile=profile())
    stored = json.loads(store.index_path("task").read_text())
    assert set(stored) == {"file", "class", "profile", "updated"}
    assert stored["profile"]["kernels"][0] == {"name": "void scale(float*)", "ms": 0.1, "share": 0.5, "registers": 32,
                                               "spills": 8, "shared_bytes": 1024, "occupancy": 0.75}
    store.update_index("task", last_run=LastRun(id="r1", kind="profile", status="done"))
    assert set(json.loads(store.index_path("task").read_text())) == {"file", "class", "profile", "updated", "last_run"}
    assert store.read_index("task").profile == profile()


@pytest.mark.parametrize("text", ["", "{not json", "[1, 2]", "null", '"an entry"'])
def test_a_malformed_index_file_reads_as_the_empty_entry(tmp_path, text):
    store = Store(tmp_path)
    store.index_path("task").parent.mkdir(parents=True)
    store.index_path("task").write_text(text)
    assert store.read_index("task") == IndexEntry() and store.index_entries() == [IndexEntry()]
    store.update_index("task", file="m.py")  # and the next update replaces it
    assert store.read_index("task").file == "m.py"


def test_values_of_the_wrong_type_read_as_defaults_and_entries_of_the_wrong_type_are_left_out():
    entry = IndexEntry.from_dict({"file": 3, "class": None, "spec": "r1", "updated": True, "last_run": [],
                                  "profile": {"latency_ms": "2.5 ms", "spread_ms": True, "date": 20261129,
                                              "kernels": ["gemm", {"name": "gemm", "ms": "fast", "share": 0.5}]},
                                  "verification_failures": {"candidate": "c"}})
    assert entry == IndexEntry(profile=ProfileEntry(kernels=[ProfiledKernel("gemm", share=0.5)]))


def test_results_of_other_versions_read_as_their_commands_records():
    # What an older `hiera optimize --events` sent: no confirmation, caches or mode; a newer field.
    older = command_result("optimize", {
        "status": "no_improvement", "run": "r", "proposal_path": None, "baseline_ms": 2.5, "energy_j": 3.0,
        "message": "no improvement found: no candidate passed verification",
        "candidates": [{"name": "fused", "status": "rejected", "reason": "output mismatch", "joules": 1.0}]})
    assert older == OptimizeResult(status="no_improvement", run="r", baseline_ms=2.5,
                                   message="no improvement found: no candidate passed verification",
                                   candidates=[CandidateOutcome(name="fused", status="rejected",
                                                                reason="output mismatch")])
    assert command_result("verify", {"checks": [{"name": "outputs", "passed": True}], "input_sets": 5}) == \
        VerifyResult(checks=[CheckResult("outputs", True)], input_sets=5)
    assert command_result("profile", {"latency_ms": 2.5, "kernels": "none"}) == ProfileEntry(latency_ms=2.5)
    assert command_result("spec", {"class_name": "Model"}) == {"class_name": "Model"}  # the Spec's own dict

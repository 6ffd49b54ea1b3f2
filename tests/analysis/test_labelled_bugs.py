"""The labelled bug corpus (tests/data/cuda_bugs): recall on realistic one-bug kernels, silence on clean ones.

`cases.toml` names each file, what is wrong with it, the rules expected (by rule NAME, so a rule
that gets a new code still matches) at which 1-based line, and the `arch` to check it for. A
bug counts as found when a finding of the expected rule starts within LINE_SLACK lines of the
labelled line. A name that no rule has yet counts as missed, and the miss says so.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import tomllib
from pathlib import Path

import pytest

from hiera_core.analysis import RULES, CheckConfig, analyze_file, severity_rank

CORPUS = Path(__file__).parents[1] / "data" / "cuda_bugs"
CASES = tomllib.loads((CORPUS / "cases.toml").read_text())["case"]
BUG_CASES = [case for case in CASES if case["expect"]]
CLEAN_CASES = [case for case in CASES if not case["expect"]]
CODE_OF_NAME = {rule.name: code for code, rule in RULES.items()}
LINE_SLACK = 2
RECALL_GOAL = 0.9


def config_for(case: dict) -> CheckConfig:
    """The default configuration, for the case's target architecture when it names one."""
    arch = case.get("arch")
    if arch and "arch" in {field.name for field in dataclasses.fields(CheckConfig)}:
        return CheckConfig(arch=arch)
    return CheckConfig()


def missed_bugs(case: dict) -> list[str]:
    """One line per expected finding of `case` that the checker does not report."""
    findings = analyze_file(str(CORPUS / case["file"]), config=config_for(case))
    missed = []
    for expected in case["expect"]:
        name, line = expected["rule"], expected["line"]
        code = CODE_OF_NAME.get(name)
        where = f"{case['file']}:{line} {name}"
        if code is None:
            missed.append(f"{where}: no rule is named {name!r} yet ({case['kind']})")
        elif not any(item.code == code and abs(item.start_line + 1 - line) <= LINE_SLACK for item in findings):
            seen = ", ".join(f"{item.code}@{item.start_line + 1}" for item in findings) or "no findings"
            missed.append(f"{where} ({code}): not reported ({case['kind']}; got {seen})")
    return missed


def test_the_manifest_lists_every_file_and_enough_cases():
    listed = {case["file"] for case in CASES}
    on_disk = {str(path.relative_to(CORPUS)) for path in CORPUS.rglob("*.cu*")}
    assert listed == on_disk
    assert len(BUG_CASES) >= 30 and len(CLEAN_CASES) >= 15
    for case in BUG_CASES:
        lines = (CORPUS / case["file"]).read_text().count("\n") + 1
        assert all(1 <= expected["line"] <= lines for expected in case["expect"]), case["file"]
    kinds = [expected["rule"] for case in BUG_CASES for expected in case["expect"]]
    assert all(kinds.count(name) >= 2 for name in kinds)


def test_a_rule_name_that_no_rule_has_is_reported_as_missed():
    case = {"file": BUG_CASES[0]["file"], "kind": "a made-up rule",
            "expect": [{"rule": "no-such-rule-name", "line": 1}]}
    message = f"{case['file']}:1 no-such-rule-name: no rule is named 'no-such-rule-name' yet (a made-up rule)"
    assert missed_bugs(case) == [message]


def test_recall_on_the_labelled_bugs():
    missed = [line for case in BUG_CASES for line in missed_bugs(case)]
    expected = sum(len(case["expect"]) for case in BUG_CASES)
    recall = (expected - len(missed)) / expected
    report = f"recall {recall:.0%} ({expected - len(missed)} of {expected}); missed:\n" + "\n".join(missed)
    print(report)
    assert recall >= RECALL_GOAL, report


@pytest.mark.parametrize("case", CLEAN_CASES, ids=lambda case: case["file"])
def test_clean_kernels_have_no_warnings_or_errors(case):
    findings = analyze_file(str(CORPUS / case["file"]), config=config_for(case))
    loud = [(item.code, item.start_line + 1, item.message) for item in findings
            if severity_rank(item.severity) >= severity_rank("warning")]
    assert loud == []


def test_the_real_code_corpus_and_its_judgements_are_usable():
    """benchmarks/check_corpus backs the precision figures of docs/check-precision.md."""
    root = Path(__file__).parents[2] / "benchmarks"
    spec = importlib.util.spec_from_file_location("check_precision", root / "check_precision.py")
    check_precision = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check_precision)
    files = check_precision.corpus_files(check_precision.CORPUS)
    projects = {path.relative_to(check_precision.CORPUS).parts[0] for path in files}
    assert len(files) >= 300 and len(projects) >= 3
    judgements = check_precision.load_judgements(check_precision.CORPUS / "judgements.json")
    assert judgements and all(key.split(":")[0].split("/")[0] in projects for key in judgements)

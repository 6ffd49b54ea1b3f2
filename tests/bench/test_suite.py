"""Loading suites: KernelBench layout, level filters, per-level limits, files by name, bad input."""

import filecmp
from pathlib import Path

import pytest
from helpers.bench import REPO

from hiera_core.bench.suite import discover, parse_levels
from hiera_core.errors import HieraError

SUITE = REPO / "benchmarks" / "suite"


def _touch(folder: Path, *names: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_text("# task\n")


@pytest.fixture
def kernelbench(tmp_path):
    root = tmp_path / "KernelBench"
    _touch(root / "level1", "10_Conv.py", "2_Relu.py", "1_Matmul.py", "__init__.py", "2_Relu_hiera.py", "notes.txt")
    _touch(root / "level2", "1_Gemm_Relu.py")
    _touch(root / "level4", "1_Hf_Model.py")
    _touch(root / "changelog")
    return root


def test_kernelbench_layout_in_number_order_with_default_levels(kernelbench):
    tasks = discover([str(kernelbench)])
    assert [t.id for t in tasks] == ["level1/1_Matmul.py", "level1/2_Relu.py", "level1/10_Conv.py",
                                     "level2/1_Gemm_Relu.py"]
    assert [t.level for t in tasks] == [1, 1, 1, 2]
    assert all(Path(t.path).is_absolute() and Path(t.path).exists() for t in tasks)


def test_levels_and_limit_per_level(kernelbench):
    assert [t.id for t in discover([str(kernelbench)], levels=(4,))] == ["level4/1_Hf_Model.py"]
    limited = discover([str(kernelbench)], levels=(1, 2, 4), limit=2)
    assert [t.id for t in limited] == ["level1/1_Matmul.py", "level1/2_Relu.py", "level2/1_Gemm_Relu.py",
                                       "level4/1_Hf_Model.py"]


def test_a_level_folder_and_files_named_one_by_one(kernelbench, tmp_path, monkeypatch):
    assert [t.id for t in discover([str(kernelbench / "level2")])] == ["level2/1_Gemm_Relu.py"]
    assert discover([str(kernelbench / "level2")], levels=(1,)) == []
    loose = tmp_path / "mine.py"
    loose.write_text("# task\n")
    monkeypatch.chdir(tmp_path)
    tasks = discover(["mine.py", str(kernelbench / "level4" / "1_Hf_Model.py")], levels=(1,))
    assert [(t.id, t.level) for t in tasks] == [("mine.py", None), ("level4/1_Hf_Model.py", 4)]
    # The same file twice (from its folder and by name) runs once.
    assert len(discover([str(kernelbench / "level2"), str(kernelbench / "level2" / "1_Gemm_Relu.py")])) == 1


def test_bad_suites_are_usage_errors(tmp_path, kernelbench):
    _touch(tmp_path / "flat", "a.py")
    with pytest.raises(HieraError, match="not a suite in KernelBench's layout") as error:
        discover([str(tmp_path / "flat")])
    assert error.value.kind == "usage"
    with pytest.raises(HieraError, match="no such file or folder"):
        discover([str(tmp_path / "missing")])
    with pytest.raises(HieraError, match="not a Python task file"):
        discover([str(kernelbench / "level1" / "notes.txt")])
    other = tmp_path / "other" / "level1"
    _touch(other, "1_Matmul.py")
    with pytest.raises(HieraError, match="share the id level1/1_Matmul.py"):
        discover([str(kernelbench), str(other.parent)])


def test_parse_levels():
    assert parse_levels("1, 3,1") == (1, 3)
    for bad in ("", "x", "1,-2"):
        with pytest.raises(ValueError):
            parse_levels(bad)


def test_our_suite_has_at_least_30_tasks_over_three_levels_distinct_from_examples():
    tasks = discover([str(SUITE)])
    assert len(tasks) >= 30
    per_level = {level: sum(t.level == level for t in tasks) for level in (1, 2, 3)}
    assert all(count >= 8 for count in per_level.values()), per_level
    examples = list((REPO / "examples").glob("*.py"))
    for task in tasks:
        assert not any(filecmp.cmp(task.path, example, shallow=False) for example in examples), task.id

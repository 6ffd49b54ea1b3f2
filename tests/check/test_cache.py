"""The results cache of `hiera-lsp --check`: a hit gives the same output without analysing, and a
change of the file, of a file beside it, of the configuration or of the arch analyses again."""

import subprocess
import sys

import pytest
from helpers.check import run_check

from hiera_lsp.check import workers

ERROR = "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\nvoid run(float* x) { k<<<1, 2000>>>(x); }\n"
CLEAN = "__global__ void k(float* __restrict__ x) { x[threadIdx.x] = 0.0f; }\n"


def run(args, capsys):
    return run_check(args, capsys)


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()  # the workspace root, where .hiera/check-cache goes
    return tmp_path


@pytest.fixture
def analysis_fails(monkeypatch):
    """From now on, analysing any file is an internal error: output without one came from the cache."""
    def fail():
        def broken(path, text=None, config=None):
            raise RuntimeError("analysed")

        monkeypatch.setattr(workers, "analyze_file", broken)
    return fail


def test_a_second_run_is_served_from_the_cache_with_identical_output(workdir, capsys, analysis_fails):
    (workdir / "a.cu").write_text(ERROR)
    (workdir / "b.cu").write_text("// é\n" + ERROR)  # character columns need the source: kept too
    first = run(["a.cu", "b.cu"], capsys)
    assert first[0] == 1 and "b.cu:3:29: HC105" in first[1]
    analysis_fails()
    assert run(["a.cu", "b.cu"], capsys) == first
    assert run(["a.cu", "b.cu", "--format", "sarif"], capsys)[0] == 1


def test_the_cache_lives_in_the_workspace_and_git_ignores_it(workdir, capsys):
    (workdir / "a.cu").write_text(ERROR)
    run(["a.cu"], capsys)
    cache = workdir / ".hiera" / "check-cache"
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    assert len(list(cache.glob("*.json"))) == 1


def test_a_changed_file_is_analysed_again(workdir, capsys):
    (workdir / "a.cu").write_text(ERROR)
    assert run(["a.cu"], capsys)[0] == 1
    (workdir / "a.cu").write_text(CLEAN)
    assert run(["a.cu"], capsys) == (0, "1 file checked: 0 errors, 0 warnings, 0 infos\n", "")


@pytest.mark.parametrize("change", [["--select", "HC1"], ["--ignore", "HC106"], ["--arch", "sm_52"],
                                    ["--fail-on", None]], ids=["select", "ignore", "arch", "pyproject"])
def test_a_changed_configuration_is_analysed_again(workdir, capsys, analysis_fails, change):
    (workdir / "a.cu").write_text(ERROR)
    run(["a.cu"], capsys)
    analysis_fails()
    if change[1] is None:  # a pyproject.toml setting instead of a flag
        (workdir / "pyproject.toml").write_text('[tool.hiera.check]\nseverity = { HC105 = "warning" }\n')
        change = []
    code, _, err = run(["a.cu", *change], capsys)
    assert code == 2 and err == "a.cu: internal error: RuntimeError: analysed\n"


def test_a_changed_file_beside_a_cuda_file_invalidates_it(workdir, capsys, analysis_fails):
    # a rule may read a header or the .cpp binding file next to the kernel
    (workdir / "a.cu").write_text(ERROR)
    (workdir / "binding.cpp").write_text("// binding\n")
    run(["a.cu"], capsys)
    analysis_fails()
    assert run(["a.cu"], capsys)[0] == 1  # unchanged: cached
    (workdir / "binding.cpp").write_text("// binding, with a check\n")
    assert run(["a.cu"], capsys)[2] == "a.cu: internal error: RuntimeError: analysed\n"


def test_no_cache_neither_reads_nor_writes(workdir, capsys, analysis_fails):
    (workdir / "a.cu").write_text(ERROR)
    run(["a.cu", "--no-cache"], capsys)
    assert not (workdir / ".hiera").exists()
    run(["a.cu"], capsys)
    analysis_fails()
    assert run(["a.cu", "--no-cache"], capsys)[0] == 2


def test_cache_dir_option(workdir, capsys):
    (workdir / "a.cu").write_text(ERROR)
    run(["a.cu", "--cache-dir", "elsewhere"], capsys)
    assert len(list((workdir / "elsewhere").glob("*.json"))) == 1
    assert not (workdir / ".hiera").exists()


def test_a_damaged_cache_entry_is_analysed_again(workdir, capsys):
    (workdir / "a.cu").write_text(ERROR)
    first = run(["a.cu"], capsys)
    [entry] = (workdir / ".hiera" / "check-cache").glob("*.json")
    entry.write_text("{not json")
    assert run(["a.cu"], capsys) == first


def test_an_unwritable_cache_does_not_fail_the_check(workdir, capsys):
    (workdir / "a.cu").write_text(ERROR)
    (workdir / "cache-file").write_text("a file where the cache folder would go")
    assert run(["a.cu", "--cache-dir", "cache-file/sub"], capsys)[0] == 1


def test_time_limit_findings_are_not_cached(workdir, capsys, monkeypatch):
    (workdir / "a.cu").write_text(ERROR)
    real = workers.analyze_file

    def hang(path, text=None, config=None):
        import time

        time.sleep(60)  # longer than the limit: only a kill ends it in time

    monkeypatch.setattr(workers, "analyze_file", hang)
    assert "passed the time limit" in run(["a.cu", "--time-limit", "0.3"], capsys)[1]
    monkeypatch.setattr(workers, "analyze_file", real)
    assert "a.cu:2:29: HC105" in run(["a.cu"], capsys)[1]


def test_a_fully_cached_run_never_loads_the_analysers(workdir):
    # what makes a repeated pre-commit run fast: no tree-sitter, no worker processes
    (workdir / "a.cu").write_text(ERROR)
    probe = ("import sys\nfrom hiera_lsp.cli import main\ncode = main(['--check', 'a.cu'])\n"
             "print(code, sorted(m for m in ('tree_sitter', 'multiprocessing') if m in sys.modules))\n")
    runs = [subprocess.run([sys.executable, "-c", probe], cwd=workdir, capture_output=True, text=True,
                           timeout=60, check=False) for _ in range(2)]
    assert runs[0].stdout.splitlines()[-1] == "1 ['multiprocessing', 'tree_sitter']", runs[0].stderr
    assert runs[1].stdout.splitlines()[-1] == "1 []", runs[1].stderr


def test_an_edited_rule_module_invalidates_the_cache(workdir, capsys, analysis_fails):
    """A rule lives in a subpackage (cuda_rules/): editing it must not leave its old findings cached
    (an editable install changes without a new version)."""
    import os

    from hiera_core.analysis.cuda_rules import bounds

    (workdir / "a.cu").write_text(ERROR)
    run(["a.cu"], capsys)
    analysis_fails()
    before = os.stat(bounds.__file__)
    try:
        os.utime(bounds.__file__, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
        code, _, err = run(["a.cu"], capsys)
    finally:
        os.utime(bounds.__file__, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert code == 2 and err == "a.cu: internal error: RuntimeError: analysed\n"

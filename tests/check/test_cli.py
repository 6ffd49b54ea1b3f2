"""`hiera-lsp --check`: paths, formats, exit status, bad input, and a torch-free start."""

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from helpers.check import run_check

from hiera_lsp.check import workers
from hiera_lsp.cli import main as cli_main

SCHEMA = json.loads((Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json").read_text())
CLEAN = "__global__ void k(float* __restrict__ x) { x[threadIdx.x] = 0.0f; }\n"
ERROR = "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\nvoid run(float* x) { k<<<1, 2000>>>(x); }\n"
WARNING = ERROR.replace("2000", "100")
INFO = "__global__ void k(float* a, float* b) { a[threadIdx.x] = b[threadIdx.x]; }\n"  # HC115, when selected


def run(args, capsys):
    return run_check(args, capsys)



def test_clean_file_exits_0(workdir, capsys):
    (workdir / "k.cu").write_text(CLEAN)
    assert run(["k.cu"], capsys) == (0, "1 file checked: 0 errors, 0 warnings, 0 infos\n", "")


def test_text_format_is_path_line_col_code_message(workdir, capsys):
    (workdir / "k.cu").write_text("// é\n" + ERROR)  # the column counts characters, not bytes
    code, out, _ = run(["k.cu"], capsys)
    assert code == 1
    assert out.splitlines()[0] == "k.cu:3:29: HC105 launch of k with 2000 threads per block, above the limit of 1024"
    assert out.splitlines()[1] == "    hint: split the work over more blocks"


@pytest.mark.parametrize("source, fail_on, expected", [
    (WARNING, None, 1), (WARNING, "error", 0), (INFO, None, 0), (INFO, "info", 1), (ERROR, "error", 1),
])
def test_fail_on(workdir, capsys, source, fail_on, expected):
    (workdir / "k.cu").write_text(source)
    assert run(["k.cu", "--select", "HC1"] + (["--fail-on", fail_on] if fail_on else []), capsys)[0] == expected


def test_fail_on_default_comes_from_pyproject(workdir, capsys):
    (workdir / "pyproject.toml").write_text('[tool.hiera.check]\nfail-on = "error"\n')
    (workdir / "k.cu").write_text(WARNING)
    assert run(["k.cu"], capsys)[0] == 0


def test_select_and_ignore(workdir, capsys):
    (workdir / "k.cu").write_text(ERROR)
    assert run(["k.cu", "--ignore", "HC105"], capsys)[0] == 0
    assert run(["k.cu", "--select", "HC2"], capsys)[0] == 0
    assert run(["k.cu", "--select", "HC1,HC2"], capsys)[0] == 1


@pytest.mark.parametrize("args, message", [
    (["--select", "HC9"], "matches no rule"),
    (["--format", "xml"], "invalid choice"),
    (["--fail-on", "fatal"], "invalid choice"),
    (["nothing*.cu"], "no file matches"),
    (["--arch", "sm80"], "arch must name a CUDA architecture"),
    (["--jobs", "0"], "--jobs must be at least 1"),
])
def test_usage_errors_exit_2(workdir, capsys, args, message):
    (workdir / "k.cu").write_text(CLEAN)
    code, _, err = run(["k.cu", *args], capsys)
    assert code == 2 and message in err


def test_bad_pyproject_exits_2(workdir, capsys):
    (workdir / "pyproject.toml").write_text("[tool.hiera.check]\nselect = 3\n")
    (workdir / "k.cu").write_text(CLEAN)
    code, _, err = run(["k.cu"], capsys)
    assert code == 2 and "list of strings" in err


def test_directories_and_globs(workdir, capsys):
    (workdir / "src" / "deep").mkdir(parents=True)
    (workdir / "src" / "a.cu").write_text(ERROR)
    (workdir / "src" / "deep" / "b.cuh").write_text(ERROR)
    (workdir / "src" / "notes.txt").write_text(ERROR)
    (workdir / "src" / ".hidden").mkdir()
    (workdir / "src" / ".hidden" / "c.cu").write_text(ERROR)
    _, out, _ = run(["src"], capsys)
    assert [line.split(":")[0] for line in out.splitlines() if "HC105" in line] == ["src/a.cu", "src/deep/b.cuh"]
    _, out, _ = run(["src/**/*.cuh"], capsys)
    assert [line.split(":")[0] for line in out.splitlines() if "HC105" in line] == ["src/deep/b.cuh"]


def test_default_paths_are_the_git_tracked_sources(workdir, capsys):
    subprocess.run(["git", "init", "-q"], check=True)
    (workdir / "tracked.cu").write_text(ERROR)
    (workdir / "untracked.cu").write_text(ERROR)
    subprocess.run(["git", "add", "tracked.cu"], check=True)
    code, out, _ = run([], capsys)
    assert code == 1 and [line.split(":")[0] for line in out.splitlines() if "HC105" in line] == ["tracked.cu"]


def test_no_paths_outside_git_is_a_usage_error(workdir, capsys, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(workdir.parent))
    code, _, err = run([], capsys)
    assert code == 2 and "not a git repository" in err


def test_bad_inputs_give_per_file_errors_and_the_rest_is_checked(workdir, capsys):
    (workdir / "random.cu").write_bytes(bytes(range(256)) * 8)
    (workdir / "truncated.cu").write_text(ERROR[:70])
    (workdir / "latin1.cu").write_bytes(b"// d\xe9calage\n" + ERROR.encode())
    (workdir / "empty.cu").write_text("")
    (workdir / "x.cu").mkdir()
    (workdir / "loop.cu").symlink_to(workdir / "loop.cu")
    (workdir / "dangling.cuh").symlink_to(workdir / "gone.cuh")
    (workdir / "good.cu").write_text(ERROR)
    names = ["random.cu", "truncated.cu", "latin1.cu", "empty.cu", "x.cu", "loop.cu", "dangling.cuh", "good.cu"]
    code, out, err = run(names, capsys)
    assert code == 1 and err == ""
    assert "Traceback" not in out
    lines = out.splitlines()
    assert any(line.startswith("x.cu:1:1: HC001 cannot read x.cu: Is a directory") for line in lines)
    assert any(line.startswith("loop.cu:1:1: HC001 cannot read loop.cu: Too many levels of symbolic links")
               for line in lines)
    assert any(line.startswith("dangling.cuh:1:1: HC001 cannot read") for line in lines)
    assert any(line.startswith("latin1.cu:1:5: HC002 not valid UTF-8") for line in lines)
    assert any(line.startswith("latin1.cu:3:29: HC105") for line in lines)  # still checked after the bad byte
    assert any(line.startswith("good.cu:2:29: HC105") for line in lines)
    assert lines[-1].startswith("8 files checked")


def test_a_crashing_rule_is_an_internal_error_but_other_files_are_reported(workdir, capsys, monkeypatch):
    (workdir / "a.cu").write_text(ERROR)
    (workdir / "b.cu").write_text(ERROR)
    real = workers.analyze_file

    def flaky(path, text=None, config=None):
        if path == "a.cu":
            raise RuntimeError("boom")
        return real(path, text, config)

    monkeypatch.setattr(workers, "analyze_file", flaky)
    code, out, err = run(["a.cu", "b.cu"], capsys)
    assert code == 2
    assert err == "a.cu: internal error: RuntimeError: boom\n"
    assert out.startswith("b.cu:2:29: HC105")


def test_json_format(workdir, capsys):
    (workdir / "k.cu").write_text(ERROR)
    code, out, _ = run(["k.cu", "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 1 and data["files_checked"] == 1
    [record] = data["findings"]
    assert record["code"] == "HC105" and record["severity"] == "error" and record["path"] == "k.cu"
    assert (record["start_line"], record["start_col_byte"]) == (1, 28)
    assert record["location"] == {"line": 2, "column": 29, "end_line": 2, "end_column": 33}


def test_sarif_format_is_valid_sarif_2_1_0(workdir, capsys):
    (workdir / "k.cu").write_text("// é\n" + ERROR + INFO.replace("void k", "void k2"))
    (workdir / "x.cu").mkdir()
    _, out, _ = run(["k.cu", "x.cu", "--format", "sarif", "--select", "HC0,HC1"], capsys)
    log = json.loads(out)
    jsonschema.validate(log, SCHEMA)
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("HC105", "error"), ("HC115", "note"), ("HC115", "note"), ("HC001", "error")]
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (3, 29)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[results[0]["ruleIndex"]]["id"] == "HC105"


def test_sarif_with_no_findings_is_valid(workdir, capsys):
    (workdir / "k.cu").write_text(CLEAN)
    jsonschema.validate(json.loads(run(["k.cu", "--format", "sarif"], capsys)[1]), SCHEMA)


def test_github_format(workdir, capsys):
    (workdir / "k.cu").write_text(ERROR)
    _, out, _ = run(["k.cu", "--format", "github"], capsys)
    assert out == ("::error file=k.cu,line=2,col=29,endLine=2,endColumn=33,title=HC105 block-size-too-large::"
                   "launch of k with 2000 threads per block, above the limit of 1024%0Ahint: split the work over "
                   "more blocks\n")


def test_the_command_starts_without_torch_or_pygls(tmp_path):
    (tmp_path / "k.cu").write_text(ERROR)
    (tmp_path / "m.py").write_text("import torch\n")
    probe = ("import sys\nfrom hiera_lsp.cli import main\ncode = main(['--check', 'k.cu', 'm.py'])\n"
             "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'pygls', 'lsprotocol', 'numpy'))\n"
             "print(code, heavy)\n")
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.stdout.splitlines()[-1] == "1 []", result.stderr


def test_module_entry_point(tmp_path):
    (tmp_path / "k.cu").write_text(ERROR)
    result = subprocess.run([sys.executable, "-m", "hiera_lsp", "--check", "k.cu"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": ""},
                            check=False)
    assert result.returncode == 1 and result.stdout.startswith("k.cu:2:29: HC105")


MISSING_PARSER = ("import sys\nsys.modules['tree_sitter_cuda'] = None  # as in an interpreter without it\n"
                  "from hiera_lsp.cli import main\nsys.exit(main(['--check', *sys.argv[1:]]))\n")


@pytest.mark.parametrize("format_", ["text", "sarif"])
def test_a_missing_parser_is_one_error_not_a_clean_count(tmp_path, format_):
    (tmp_path / "a.cu").write_text(ERROR)
    (tmp_path / "b.cu").write_text(ERROR)
    result = subprocess.run([sys.executable, "-c", MISSING_PARSER, "a.cu", "b.cu", "--format", format_],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("hiera-lsp --check: cannot analyse a.cu:") and "tree_sitter_cuda" in line
    assert "pip install hiera" in line and "internal error" not in line
    if format_ == "text":
        assert result.stdout == ""  # no "2 files checked: 0 errors" that reads as a pass
        return
    log = json.loads(result.stdout)
    jsonschema.validate(log, SCHEMA)
    [invocation] = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    [notification] = invocation["toolExecutionNotifications"]
    assert notification["level"] == "error" and "tree_sitter_cuda" in notification["message"]["text"]
    assert log["runs"][0]["results"] == []


def test_an_internal_error_is_recorded_in_sarif(workdir, capsys, monkeypatch):
    (workdir / "a.cu").write_text(ERROR)
    monkeypatch.setattr(workers, "analyze_file", lambda *args: (_ for _ in ()).throw(RuntimeError("boom")))
    code, out, _ = run(["a.cu", "--format", "sarif"], capsys)
    [invocation] = json.loads(out)["runs"][0]["invocations"]
    assert code == 2 and invocation["executionSuccessful"] is False
    [notification] = invocation["toolExecutionNotifications"]
    assert notification["message"]["text"] == "internal error: RuntimeError: boom"
    assert notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "a.cu"


def test_a_clean_sarif_run_says_it_succeeded(workdir, capsys):
    (workdir / "k.cu").write_text(CLEAN)
    [invocation] = json.loads(run(["k.cu", "--format", "sarif"], capsys)[1])["runs"][0]["invocations"]
    assert invocation == {"executionSuccessful": True, "toolExecutionNotifications": []}


def test_version_prints_and_exits_0(capsys):
    from hiera_core import __version__

    assert cli_main(["--version"]) == 0
    assert capsys.readouterr().out == f"hiera-lsp {__version__}\n"


@pytest.mark.parametrize("args", [["--verison"], ["--tcp"], ["check", "k.cu"]])
def test_an_unknown_argument_is_a_usage_error_not_a_silent_server(args):
    # stdin stays open: a server started by mistake would wait on it until the timeout
    result = subprocess.run([sys.executable, "-m", "hiera_lsp", *args], stdin=subprocess.PIPE,
                            capture_output=True, text=True, timeout=30, check=False)
    assert result.returncode == 2
    assert result.stderr.startswith(f"hiera-lsp: unknown argument {args[0]!r}\nusage: hiera-lsp")

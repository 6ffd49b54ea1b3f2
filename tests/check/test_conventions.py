"""`hiera-lsp --check` conventions a linter user expects: --version, --statistics, suppression comments
(same line, line before, whole file), parallel runs that agree with serial ones, and an import set
that the slim pre-commit environment (hiera + tree-sitter only) can satisfy."""

import json
import subprocess
import sys

import pytest
from helpers.check import run_check

from hiera_core import __version__
from hiera_lsp.cli import main as cli_main

KERNEL = "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n"
LAUNCH = "void run(float* x) { k<<<1, 2000>>>(x); }\n"  # HC105 (error) at column 29
SMALL_LAUNCH = "void run2(float* x) { k<<<1, 100>>>(x); }\n"  # HC106 (warning)


def run(args, capsys):
    return run_check(args, capsys, "--no-cache")



def test_check_version_prints_and_exits_0(capsys):
    assert cli_main(["--check", "--version"]) == 0
    assert capsys.readouterr().out == f"hiera-lsp {__version__}\n"


def test_statistics_counts_findings_per_rule_most_frequent_first(workdir, capsys):
    (workdir / "a.cu").write_text(KERNEL + LAUNCH + SMALL_LAUNCH)
    (workdir / "b.cu").write_text(KERNEL + LAUNCH)
    code, out, _ = run(["a.cu", "b.cu", "--statistics"], capsys)
    assert code == 1
    assert out.splitlines() == ["2\tHC105\tblock-size-too-large\terror",
                                "1\tHC106\tblock-size-not-warp-multiple\twarning",
                                "2 files checked: 2 errors, 1 warning, 0 infos"]


def test_statistics_as_json(workdir, capsys):
    (workdir / "a.cu").write_text(KERNEL + LAUNCH)
    code, out, _ = run(["a.cu", "--statistics", "--format", "json"], capsys)
    assert code == 1
    assert json.loads(out) == [{"code": "HC105", "name": "block-size-too-large", "severity": "error", "count": 1}]


def test_statistics_with_sarif_is_a_usage_error(workdir, capsys):
    (workdir / "a.cu").write_text(KERNEL)
    code, _, err = run(["a.cu", "--statistics", "--format", "sarif"], capsys)
    assert code == 2 and "--statistics prints text or json" in err


@pytest.mark.parametrize("source", [
    KERNEL + "void run(float* x) { k<<<1, 2000>>>(x); }  // hiera: ignore[HC105]\n",
    KERNEL + "// hiera: ignore[HC105]\n" + LAUNCH,
    KERNEL + "  // hiera: ignore[HC1]\n" + LAUNCH,  # indented, a prefix
    KERNEL + "// hiera: ignore[HC105]\n// hiera: ignore[HC110]\n" + LAUNCH,  # stacked above one line
], ids=["same-line", "line-before", "line-before-prefix", "stacked"])
def test_suppression_forms(workdir, capsys, source):
    (workdir / "k.cu").write_text(source)
    code, out, _ = run(["k.cu"], capsys)
    assert "HC105" not in out and code == 0, out


@pytest.mark.parametrize("source", [
    "// hiera: ignore-file[HC105]\n" + KERNEL + LAUNCH,
    KERNEL + LAUNCH + "// hiera: ignore-file[HC105, HC106]\n",  # anywhere in the file
], ids=["top", "end"])
def test_a_file_suppression_silences_its_codes_in_the_whole_file(workdir, capsys, source):
    (workdir / "k.cu").write_text(source + SMALL_LAUNCH)
    code, out, _ = run(["k.cu"], capsys)
    assert "HC105" not in out and code == (0 if "HC106" in source else 1), out


@pytest.mark.parametrize("name, source", [
    ("k.cu", "// hiera: ignore-file[HC105]\n" + KERNEL + LAUNCH),
    ("m.py", "# hiera: ignore-file[HC003]\ndef broken(:\n    pass\n"),
])
def test_a_file_suppression_is_not_taken_for_an_annotation_or_directive(workdir, capsys, name, source):
    (workdir / name).write_text(source)
    assert run([name], capsys) == (0, "1 file checked: 0 errors, 0 warnings, 0 infos\n", "")


@pytest.mark.parametrize("source", [
    KERNEL + "// hiera: ignore[HC105]\n\n" + LAUNCH,  # a blank line between: not the next line
    KERNEL + "// hiera: ignore[HC106]\n" + LAUNCH,  # another code
    KERNEL + "int y = 0; // hiera: ignore-file[HC105]\n" + LAUNCH,  # ignore-file must be alone on its line
    KERNEL + LAUNCH + "// hiera: ignore[HC105]\n",  # below the finding: applies to the line after
], ids=["blank-between", "other-code", "file-after-code", "below"])
def test_suppressions_that_do_not_apply(workdir, capsys, source):
    (workdir / "k.cu").write_text(source)
    code, out, _ = run(["k.cu"], capsys)
    assert code == 1 and "HC105" in out


def test_suppression_in_python_uses_hash_comments(workdir, capsys):
    (workdir / "m.py").write_text("def broken(:\n    pass\n")
    assert run(["m.py"], capsys)[0] == 1  # HC003 syntax error
    (workdir / "m.py").write_text("# hiera: ignore[HC003]\ndef broken(:\n    pass\n")
    assert run(["m.py"], capsys) == (0, "1 file checked: 0 errors, 0 warnings, 0 infos\n", "")
    (workdir / "m.py").write_text("# hiera: ignore-file[HC003]\ndef broken(:\n    pass\n")
    code, out, _ = run(["m.py"], capsys)
    assert code == 0 and "HC003" not in out


def test_a_parallel_run_reports_exactly_what_a_serial_run_does(workdir, capsys):
    for index in range(24):
        body = KERNEL + (LAUNCH if index % 3 == 0 else SMALL_LAUNCH if index % 3 == 1 else "")
        (workdir / f"k{index:02d}.cu").write_text(body)
    serial = run([".", "--jobs", "1"], capsys)
    parallel = run([".", "--jobs", "2"], capsys)
    assert serial == parallel
    assert serial[1].splitlines()[-1] == "24 files checked: 8 errors, 8 warnings, 0 infos"


def test_check_imports_only_the_standard_library_hiera_and_tree_sitter(tmp_path):
    # the pre-commit environment installs hiera without its dependencies (see .pre-commit-hooks.yaml)
    (tmp_path / "k.cu").write_text(KERNEL + LAUNCH)
    (tmp_path / "m.py").write_text("import torch\nimport torch.nn as nn\nclass Model(nn.Module):\n    pass\n")
    probe = ("import sys\nbefore = set(sys.modules)  # the interpreter's own start-up\n"
             "from hiera_lsp.cli import main\ncode = main(['--check', '--no-cache', 'k.cu', 'm.py'])\n"
             "allowed = set(sys.stdlib_module_names) | {'hiera_core', 'hiera_lsp', 'tree_sitter',\n"
             "    'tree_sitter_cuda', 'tree_sitter_python', '__mp_main__'}  # multiprocessing's alias of __main__\n"
             "print(code, sorted({m.split('.')[0] for m in set(sys.modules) - before} - allowed))\n")
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.stdout.splitlines()[-1] == "1 []", result.stderr


def test_suppressions_are_read_in_one_pass_however_many_there_are():
    from hiera_core.task.directives import suppressions

    many_lines = b"// hiera: ignore[HC101]\nx;\n" * 50_000  # quadratic scanning would take minutes
    found = suppressions(many_lines)
    assert len(found.by_line) == 100_000 and found.suppresses("HC101", 99_999)
    one_line = b"x; " + b"/* // hiera: ignore[HC102] */ " * 50_000 + b"\n"
    assert suppressions(one_line).by_line == {0: {"HC102"}}
    stacked = b"// hiera: ignore[HC103]\n" * 50_000 + b"x;\n"  # each applies to the line below them all
    assert suppressions(stacked).suppresses("HC103", 50_000)

"""analyze_file: dispatch, suppressions, configuration, embedded CUDA, and bad input."""

import os

import pytest

from hiera_core.analysis import CheckConfig, ConfigError, analyze_file, load_config

BAD_KERNEL = "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\nvoid run(float* x) { k<<<1, 2000>>>(x); }\n"


def test_dispatch_by_extension(tmp_path):
    assert [f.code for f in analyze_file(str(tmp_path / "a.cu"), BAD_KERNEL)] == ["HC105"]
    assert [f.code for f in analyze_file(str(tmp_path / "a.cuh"), BAD_KERNEL)] == ["HC105"]
    assert analyze_file(str(tmp_path / "a.txt"), BAD_KERNEL) == []


def test_reads_the_file_when_no_text_is_given(tmp_path):
    path = tmp_path / "a.cu"
    path.write_text(BAD_KERNEL)
    finding = analyze_file(str(path))[0]
    assert (finding.code, finding.severity, finding.path, finding.start_line, finding.start_col_byte) == (
        "HC105", "error", str(path), 1, 28)


@pytest.mark.parametrize("comment, kept", [
    ("// hiera: ignore[HC105]", False),
    ("// hiera: ignore[HC1]", False),
    ("// hiera: ignore[HC106, HC105]", False),
    ("// hiera: ignore[HC106]", True),
    ("", True),
])
def test_line_suppression(comment, kept):
    source = BAD_KERNEL.replace("(x); }\n", f"(x); }} {comment}\n")
    assert bool(analyze_file("a.cu", source)) is kept


def test_suppression_inside_cuda_embedded_in_python(tmp_path):
    text = 'src = """\n' + BAD_KERNEL.replace("(x); }\n", "(x); }  // hiera: ignore[HC105]\n") + '"""\n'
    assert analyze_file(str(tmp_path / "m.py"), text) == []


def test_config_select_ignore_and_severity():
    source = BAD_KERNEL.replace("2000", "100")  # HC106, a warning
    assert [f.code for f in analyze_file("a.cu", source, CheckConfig(select=["HC2"]))] == []
    assert [f.code for f in analyze_file("a.cu", source, CheckConfig(ignore=["HC106"]))] == []
    assert [f.severity for f in analyze_file("a.cu", source, CheckConfig(severity={"HC106": "error"}))] == ["error"]


def test_config_from_pyproject_and_exclude(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.hiera.check]\nselect = ["HC1"]\nignore = ["HC115"]\nexclude = ["vendor/**", "*_gen.cu"]\n'
        'fail-on = "error"\n[tool.hiera.check.severity]\nHC106 = "info"\n')
    (tmp_path / "src").mkdir()
    config = load_config(str(tmp_path / "src"))
    assert (config.select, config.ignore, config.severity, config.fail_on) == (
        ["HC1"], ["HC115"], {"HC106": "info"}, "error")
    assert config.excludes(str(tmp_path / "vendor" / "deep" / "k.cu"))
    assert config.excludes(str(tmp_path / "src" / "k_gen.cu"))
    assert not config.excludes(str(tmp_path / "src" / "k.cu"))
    assert analyze_file(str(tmp_path / "vendor" / "k.cu"), BAD_KERNEL, config) == []


@pytest.mark.parametrize("table, message", [
    ('select = ["HC9"]', "matches no rule"),
    ('selec = ["HC1"]', "unknown [tool.hiera.check] keys"),
    ('[tool.hiera.check.severity]\nHC101 = "fatal"', "must be one of"),
    ('fail-on = "never"', "fail-on"),
    ('ignore = "HC1"', "list of strings"),
])
def test_bad_config_is_a_config_error(tmp_path, table, message):
    (tmp_path / "pyproject.toml").write_text("[tool.hiera.check]\n" + table + "\n")
    with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
        load_config(str(tmp_path))


def test_embedded_cuda_in_python_is_checked_at_python_positions(tmp_path):
    text = ('from torch.utils.cpp_extension import load_inline\n\ncuda_source = """\n'
            '__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n'
            'void run(float* x) { k<<<1, 2000>>>(x); }\n"""\n')
    finding = analyze_file(str(tmp_path / "m.py"), text)[0]
    assert finding.code == "HC105"
    assert text.encode()[finding.start_byte:finding.end_byte] == b"2000"
    assert (finding.start_line, finding.start_col_byte) == (4, 28)


def test_unreadable_paths_are_findings_not_exceptions(tmp_path):
    (tmp_path / "dir.cu").mkdir()
    (tmp_path / "loop.cu").symlink_to(tmp_path / "loop.cu")
    (tmp_path / "dangling.cu").symlink_to(tmp_path / "missing.cu")
    for name in ("dir.cu", "loop.cu", "dangling.cu", "absent.cu"):
        findings = analyze_file(str(tmp_path / name))
        assert [(f.code, f.severity) for f in findings] == [("HC001", "error")], name
        assert "cannot read" in findings[0].message


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_file_without_read_permission(tmp_path):
    path = tmp_path / "secret.cu"
    path.write_text(BAD_KERNEL)
    path.chmod(0)
    assert [f.code for f in analyze_file(str(path))] == ["HC001"]


def test_invalid_utf8_is_reported_and_the_rest_still_checked():
    source = b"// caf\xe9\n" + BAD_KERNEL.encode()
    findings = analyze_file("a.cu", source)
    assert [(f.code, f.start_line, f.start_col_byte) for f in findings] == [("HC002", 0, 6), ("HC105", 2, 28)]


@pytest.mark.parametrize("source", [b"", b"\x00\xff\xfe" * 100, BAD_KERNEL.encode()[:57], b"__global__", b"<<<>>>"])
def test_degenerate_sources_do_not_raise(source):
    for name in ("a.cu", "a.py"):
        for finding in analyze_file(name, source):
            assert 0 <= finding.start_byte <= finding.end_byte <= len(source)

"""Contract rules: proposals against their reference, directives, `.cu` annotations."""

import pytest

from hiera_core.analysis import analyze_file
from hiera_core.propose.proposal_file import ProposalHeader, render, sha256_text

REFERENCE = "import torch.nn as nn\n\nclass Model(nn.Module):\n    def forward(self, x):\n        return x * 2\n"
BODY = REFERENCE + "\n\nclass ModelNew(Model):\n    pass\n"


def write_proposal(tmp_path, verification="passed: 9 checks, 5 input sets, max error 0"):
    (tmp_path / "model.py").write_text(REFERENCE)
    header = ProposalHeader(reference="model.py", reference_class="Model", reference_sha256=sha256_text(REFERENCE),
                            verification=verification)
    path = tmp_path / "model_hiera.py"
    path.write_text(render(header, BODY))
    return path


def codes(path, text=None):
    return [(f.code, f.start_line + 1) for f in analyze_file(str(path), text)]


def test_fresh_proposal_is_clean(tmp_path):
    assert codes(write_proposal(tmp_path)) == []


def test_stale_proposal_points_at_the_reference_hash(tmp_path):
    path = write_proposal(tmp_path)
    (tmp_path / "model.py").write_text(REFERENCE.replace("* 2", "* 3"))
    lines = path.read_text().splitlines()
    line = 1 + next(i for i, text in enumerate(lines) if text.startswith("# reference-sha256:"))
    assert codes(path) == [("HC201", line)]


def test_missing_reference(tmp_path):
    path = write_proposal(tmp_path)
    (tmp_path / "model.py").unlink()
    findings = analyze_file(str(path))
    assert [f.code for f in findings] == ["HC201"] and "does not exist" in findings[0].message


def test_hand_edited_proposal(tmp_path):
    path = write_proposal(tmp_path)
    path.write_text(path.read_text().replace("    pass\n", "    pass  # tweak\n"))
    assert [c for c, _ in codes(path)] == ["HC202"]


def test_unverified_proposal(tmp_path):
    path = write_proposal(tmp_path, verification="failed: max error 0.3")
    assert [c for c, _ in codes(path)] == ["HC203"]
    path = write_proposal(tmp_path, verification="")
    assert [c for c, _ in codes(path)] == ["HC203"]


DIRECTIVE_FILE = """import torch.nn as nn

# hiera: inputs=make_inputs init=make_init dynamic=x:0
class Block(nn.Module):
    def forward(self, x):
        return x


def make_inputs():
    return []
"""


def test_directive_naming_a_missing_function_points_at_the_item(tmp_path):
    findings = analyze_file(str(tmp_path / "m.py"), DIRECTIVE_FILE)
    assert [(f.code, f.start_line + 1, f.start_col_byte) for f in findings] == [
        ("HC204", 3, DIRECTIVE_FILE.splitlines()[2].index("init="))]
    assert "def make_init()" in findings[0].hint


@pytest.mark.parametrize("directive, expected", [
    ("# hiera: inputs=make_inputs", []),
    ("# hiera: inputs=make_inputs speed=fast", ["HC205"]),
    ("# hiera: inputs=make_inputs precision=fp64", ["HC205"]),
    ("# hiera: inputs=make_inputs dynamic=y:0", ["HC206"]),
    ("# hiera: inputs=make_inputs dynamic=x", ["HC205"]),
    ("# hiera: inputs", ["HC205"]),
    ("# hiera: inputs=make_inputs  # hiera: ignore[HC205]", []),
])
def test_directive_problems(tmp_path, directive, expected):
    text = DIRECTIVE_FILE.replace("# hiera: inputs=make_inputs init=make_init dynamic=x:0", directive)
    assert [c for c, _ in codes(tmp_path / "m.py", text)] == expected


def test_directive_not_attached_to_a_class(tmp_path):
    text = "# hiera: inputs=make_inputs\n\nclass A:\n    pass\n\n# hiera: precision=tf32\ndef f():\n    pass\n"
    assert codes(tmp_path / "m.py", text) == [("HC205", 1), ("HC205", 6)]


def test_directive_column_is_in_bytes_after_non_ascii(tmp_path):
    text = "import torch.nn as nn\n# hiera: inputs=make_inputs précision=tf32\nclass A(nn.Module):\n    pass\n" \
           "def make_inputs():\n    return []\n"
    finding = analyze_file(str(tmp_path / "m.py"), text)[0]
    line = text.encode().split(b"\n")[1]
    assert line[finding.start_col_byte:finding.end_col_byte] == "précision=tf32".encode()


ANNOTATED = """// hiera: requires n % 4 == 0
// hiera: block 256
__global__ void k(float* __restrict__ x, const float* __restrict__ y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = y[i];
}
void run(float* x, const float* y, int64_t m) {
  LAUNCH
}
"""


@pytest.mark.parametrize("launch, expected", [
    ("k<<<4, 256>>>(x, y, 1024);", []),
    ("k<<<4, 256>>>(x, y, 1023);", ["HC211"]),
    ("k<<<4, 128>>>(x, y, 1024);", ["HC211"]),
    ("k<<<4, dim3(256, 1)>>>(x, y, m);", []),  # argument not literal: nothing to check
    ("const int64_t count = 10; k<<<4, 256>>>(x, y, count);", ["HC211"]),  # a constant is checked too
])
def test_annotations_against_literal_launches(launch, expected):
    assert [c for c, _ in codes("k.cu", ANNOTATED.replace("LAUNCH", launch))] == expected


@pytest.mark.parametrize("annotation, message", [
    ("// hiera: requires n % 4 = 0", "bad requires condition"),
    ("// hiera: requires m > 0", "not parameters of k"),
    ("// hiera: block 16 by 16", "bad block shape"),
    ("// hiera: grid 4", "unknown hiera annotation"),
])
def test_annotation_syntax(annotation, message):
    source = ANNOTATED.replace("// hiera: requires n % 4 == 0", annotation).replace("LAUNCH", "k<<<4, 256>>>(x, y, m);")
    findings = [f for f in analyze_file("k.cu", source) if f.code == "HC210"]
    assert len(findings) == 1 and message in findings[0].message


def test_annotation_not_above_a_kernel():
    source = "// hiera: block 128\n\n__global__ void k(float* x) {}\n"
    assert [(f.code, f.message) for f in analyze_file("k.cu", source)] == [
        ("HC210", "'hiera: block' is not attached to a kernel")]


def test_annotation_error_points_at_the_bad_token():
    source = "// hiera: requires n % 4 = 0\n__global__ void k(int n) {}\n"
    finding = next(f for f in analyze_file("k.cu", source) if f.code == "HC210")
    assert source.encode()[finding.start_byte:finding.end_byte] == b"= 0"


def test_proposal_hints_give_a_verify_command_with_the_reference(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write_proposal(tmp_path, verification="")
    path.write_text(path.read_text().replace("    pass\n", "    pass  # tweak\n"))
    hints = {f.code: f.hint for f in analyze_file("model_hiera.py")}
    # `hiera verify REFERENCE[::Class] CANDIDATE`: the proposal alone is a usage error ("Missing argument")
    assert hints["HC202"] == "re-run `hiera verify model.py::Model model_hiera.py` or revert the edit"
    assert hints["HC203"] == "run `hiera verify model.py::Model model_hiera.py`"
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "model_hiera.py").write_text(path.read_text().replace("# reference: model.py", "# reference: ../model.py"))
    assert "`hiera verify model.py::Model sub/model_hiera.py`" in {f.code: f.hint for f in
                                                                    analyze_file("sub/model_hiera.py")}["HC202"]


def test_a_syntax_error_is_the_files_finding(tmp_path):
    text = "import torch\n\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return (x\n\n\n" \
           "def get_inputs():\n    return [torch.randn(4)]\n"
    [found] = analyze_file(str(tmp_path / "task.py"), text)
    assert (found.code, found.severity, found.start_line + 1) == ("HC003", "error", 5)
    assert found.message == "syntax error: '(' was never closed"


def test_two_module_classes_of_one_name(tmp_path):
    text = REFERENCE + "\n\nclass Model(nn.Module):\n    def forward(self, x):\n        return x + x\n" \
                       "\n\nclass Helper:\n    class Model(nn.Module):\n        pass\n"
    [found] = analyze_file(str(tmp_path / "twice.py"), text)  # the nested Model is another namespace
    assert (found.code, found.start_line + 1) == ("HC207", 8)
    assert found.message == "a second class Model (the first is on line 3): Python keeps only this one"

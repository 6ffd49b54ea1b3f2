"""The PythonDocument model the language server uses for code actions and hovers."""

from hiera_core.analysis.python_source import parse_python
from hiera_core.propose.proposal_file import ProposalHeader, render

SOURCE = '''import torch
import torch.nn as nn
from helpers import make_init as init_fn

# hiera: inputs=make_inputs dynamic=x:0
@torch.no_grad()
class Model(nn.Module):
    """Doc."""

    def __init__(self, n: int = 3):
        super().__init__()

    def forward(self, x, y: torch.Tensor, *, scale=1.0):
        return x * scale


class Wrapped(Model):
    pass


class Conv(torch.nn.Conv2d):
    pass


class Plain:
    def forward(self, x):
        return x


def make_inputs():
    return [torch.randn(4)]


if True:
    def get_inputs():
        return []

get_init_inputs = lambda: []
'''


def test_classes_bases_forward_and_directives():
    doc = parse_python(SOURCE)
    assert [(c.name, c.bases, c.is_module) for c in doc.classes] == [
        ("Model", ["nn.Module"], True), ("Wrapped", ["Model"], True), ("Conv", ["torch.nn.Conv2d"], True),
        ("Plain", [], False)]
    model = doc.class_named("Model")
    assert model.forward.params == ["x", "y", "scale"] and not model.forward.has_varargs
    assert model.directives.inputs == "make_inputs" and model.directives.dynamic == [("x", 0)]
    assert model.span.start_line == 5  # from the decorator
    assert (model.name_span.start_line, model.name_span.start_col) == (6, 6)
    assert doc.class_at(SOURCE.index("return x * scale")).name == "Model"


def test_top_level_names_and_kernelbench_inputs():
    doc = parse_python(SOURCE)
    assert [f.name for f in doc.functions] == ["make_inputs", "get_inputs"]
    assert {"torch", "nn", "init_fn", "Model", "make_inputs", "get_inputs", "get_init_inputs"} <= doc.top_level_names
    assert doc.has_get_inputs and doc.has_get_init_inputs
    assert doc.proposal is None


def test_proposal_header():
    text = render(ProposalHeader(reference="model.py", reference_class="Model", reference_sha256="ab" * 32,
                                 verification="passed: 9 checks"), SOURCE)
    doc = parse_python(text)
    assert doc.proposal is not None and doc.proposal.reference == "model.py"
    assert doc.class_named("Model") is not None


def test_error_tolerant_on_half_typed_code():
    doc = parse_python("import torch.nn as nn\nclass A(nn.Module):\n    def forward(self, x):\n        return x +\n\n"
                       "class B(nn.Module):\n    def forward(self, y):\n        return y\n")
    assert doc.has_errors
    assert [c.name for c in doc.classes] == ["A", "B"]


BROKEN_ABOVE_INPUTS = """import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x


def get_inputs():
    return [torch.randn(4)]


def get_init_inputs():
    return []
"""


def test_a_syntax_error_is_reported_and_inputs_below_it_still_count():
    # The unclosed bracket folds the rest of the file into the parser's error node.
    doc = parse_python(BROKEN_ABOVE_INPUTS)
    assert doc.syntax_error is not None and doc.syntax_error.message == "'(' was never closed"
    assert (doc.syntax_error.span.start_line, doc.syntax_error.span.start_col) == (6, 25)
    assert doc.has_get_inputs and doc.has_get_init_inputs


def test_python_decides_what_is_a_syntax_error():
    assert parse_python(SOURCE).syntax_error is None
    doc = parse_python("def forward(self, x)\n    return x\n")
    assert doc.syntax_error.message == "expected ':'" and doc.syntax_error.span.start_line == 0


def test_embedded_cuda_strings():
    text = 'src = r"""\n__global__ void k(float* p) {}\n"""\nother = "no kernel"\nf = f"__global__ {x}"\n'
    doc = parse_python(text)
    assert len(doc.embedded_cuda) == 1
    span = doc.embedded_cuda[0]
    assert text.encode()[span.start_byte:span.end_byte] == b"\n__global__ void k(float* p) {}\n"
    assert (span.start_line, span.start_col) == (0, 10)


def test_incremental_reparse():
    first = parse_python(SOURCE)
    edited = SOURCE.replace("class Plain:", "class Plainer:")
    start = SOURCE.index("Plain:") + len("Plain")
    line = SOURCE[:start].count("\n")
    column = start - (SOURCE.rfind("\n", 0, start) + 1)
    first.tree.edit(start_byte=start, old_end_byte=start, new_end_byte=start + 2, start_point=(line, column),
                    old_end_point=(line, column), new_end_point=(line, column + 2))
    assert parse_python(edited, first.tree).class_named("Plainer") is not None

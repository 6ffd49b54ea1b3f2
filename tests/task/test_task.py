"""Task loading: the formats, addressing, and one clear error (file:line + fix) per mistake."""

import pytest
import torch
from helpers.engine import SIMPLE_TASK, write_task

from hiera_core.errors import HieraError
from hiera_core.task.load import load_task


def test_kernelbench_task_loads(tmp_path):
    path = write_task(tmp_path, "simple.py", SIMPLE_TASK)
    task = load_task(str(path))
    assert (task.class_name, task.task_format) == ("Model", "kernelbench")
    model = task.build_model("cpu")
    out = task.run_forward(model, task.make_inputs("cpu", seed=0))
    assert tuple(out.shape) == (64, 128)


def test_directive_task_and_class_addressing(tmp_path):
    path = write_task(tmp_path, "blocks.py", """
        import torch
        import torch.nn as nn

        class Helper(nn.Module):
            def forward(self, x):
                return x

        # hiera: inputs=make_inputs init=make_init
        class Block(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.weight = nn.Parameter(torch.ones(dim))

            def forward(self, x):
                return x * self.weight

        def make_inputs():
            return [torch.randn(4, 8)]

        def make_init():
            return [8]
    """)
    task = load_task(str(path))  # the directive-marked class is chosen by default
    assert (task.class_name, task.task_format) == ("Block", "directive")
    with pytest.raises(HieraError, match="class Helper has no inputs"):  # addressed, but has no directive
        load_task(f"{path}::Helper")
    with pytest.raises(HieraError, match="no class 'Nope'"):
        load_task(f"{path}::Nope")


def test_syntax_error_names_the_line(tmp_path):
    path = write_task(tmp_path, "broken.py", "import torch\n\ndef get_inputs(:\n    pass\n")
    with pytest.raises(HieraError) as caught:
        load_task(str(path))
    assert caught.value.kind == "syntax" and caught.value.line == 3
    assert str(caught.value).startswith(f"{path}:3: syntax error")


def test_missing_inputs_says_what_to_add(tmp_path):
    path = write_task(tmp_path, "noinputs.py", """
        import torch.nn as nn

        class Block(nn.Module):
            def forward(self, x):
                return x
    """)
    with pytest.raises(HieraError) as caught:
        load_task(str(path))
    error = caught.value
    assert error.kind == "inputs" and error.line == 3
    assert "# hiera: inputs=make_inputs init=make_init" in error.hint and "class Block" in error.hint


def test_directive_naming_a_missing_function(tmp_path):
    path = write_task(tmp_path, "missing.py", """
        import torch.nn as nn

        # hiera: inputs=build_inputs
        class Block(nn.Module):
            def forward(self, x):
                return x
    """)
    with pytest.raises(HieraError, match="'build_inputs' is not defined") as caught:
        load_task(str(path))
    assert caught.value.line == 3 and "def build_inputs():" in caught.value.hint


def test_import_error_points_at_the_failing_line(tmp_path):
    path = write_task(tmp_path, "importfail.py", SIMPLE_TASK.replace("import torch.nn as nn", "import torch.nn as nn\n    VALUE = 1 / 0"))
    with pytest.raises(HieraError, match="ZeroDivisionError") as caught:
        load_task(str(path))
    assert caught.value.kind == "import" and caught.value.line == 3


def test_forward_that_raises_points_into_forward(tmp_path):
    path = write_task(tmp_path, "raises.py", SIMPLE_TASK.replace(
        "return torch.relu(x) * self.scale + 1.0", "raise ValueError('bad shape')"))
    task = load_task(str(path))
    with pytest.raises(HieraError, match="Model.forward raised ValueError: bad shape") as caught:
        task.run_forward(task.build_model("cpu"), task.make_inputs("cpu"))
    assert caught.value.line == 11 and caught.value.kind == "forward"


def test_inputs_made_on_a_gpu_on_a_machine_without_one_say_so(tmp_path):
    """KernelBench's attention task makes its inputs with device='cuda': on a CPU the hint names that."""
    path = write_task(tmp_path, "gpu_inputs.py", SIMPLE_TASK.replace("return [torch.randn(64, 128)]",
                                                                     "return [torch.randn(64, 128, device='cuda')]"))
    task = load_task(str(path))
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(HieraError, match=r"get_inputs\(\) raised") as caught:
        task.make_inputs("cpu")
    assert "made on a CUDA device and this run is on cpu" in caught.value.hint


def test_wrong_return_types(tmp_path):
    path = write_task(tmp_path, "types.py", SIMPLE_TASK.replace("return [torch.randn(64, 128)]",
                                                                "return torch.randn(64, 128)"))
    task = load_task(str(path))
    with pytest.raises(HieraError, match=r"get_inputs\(\) returned Tensor, not a list"):
        task.make_inputs("cpu")
    path = write_task(tmp_path, "dict.py", SIMPLE_TASK.replace("return torch.relu(x) * self.scale + 1.0",
                                                               "return {'y': x}"))
    task = load_task(str(path))
    with pytest.raises(HieraError, match="returned dict; HIERA needs a tensor"):
        task.run_forward(task.build_model("cpu"), task.make_inputs("cpu"))


def test_two_classes_of_the_same_name_are_a_clear_error(tmp_path):
    path = write_task(tmp_path, "twice.py", SIMPLE_TASK + """
    class Model(nn.Module):
        def forward(self, x):
            return x
""")
    with pytest.raises(HieraError) as raised:
        load_task(str(path))
    assert raised.value.message == "2 classes named Model (lines 5, 21): Python keeps only the last one"
    assert raised.value.line == 21 and "ModelNew" in raised.value.hint

"""Reading answers: the planner's JSON, the candidate module, kernel strings, line mapping."""

import pytest
from helpers.engine import GOOD_MODULE

from hiera_core.llm.answers import BadAnswer, cuda_strings, extract_module, parse_choice
from hiera_core.loop.refine_feedback import map_lines


def fenced(code: str, tag: str = "python") -> str:
    return f"```{tag}\n{code}\n```"


def test_one_block_with_prose_around_it():
    text = f"Fusing the ops.\n\n{fenced(GOOD_MODULE)}\n\nThis avoids two passes."
    assert extract_module(text, "Model") == GOOD_MODULE + "\n"
    assert extract_module(fenced(GOOD_MODULE, tag=""), "Model") == GOOD_MODULE + "\n"


@pytest.mark.parametrize("text, reason", [
    ("I would fuse the ops with torch.compile.", "no fenced python code block in the answer"),
    (f"{fenced(GOOD_MODULE)}\nand a variant:\n{fenced(GOOD_MODULE)}", "2 python code blocks"),
    (fenced("class ModelNew(nn.Module:\n    pass"), "the code does not parse: line 1 of your module"),
    (fenced("import torch\nclass Other:\n    pass"), "does not define ModelNew"),
    (fenced(GOOD_MODULE + "\n\ndef get_inputs():\n    return []"), "redefines get_inputs"),
    (fenced(GOOD_MODULE + "\n\nclass Model:\n    pass"), "redefines Model"),
    (fenced("from __future__ import annotations\n" + GOOD_MODULE), "line 1 of your module: `from __future__`"),
])
def test_unusable_answers_say_why(text, reason):
    with pytest.raises(BadAnswer, match=reason.replace("(", r"\(").replace("`", "`")):
        extract_module(text, "Model")


def test_an_answer_cut_off_at_the_token_limit():
    with pytest.raises(BadAnswer, match="cut off at the token limit"):
        extract_module("```python\nimport torch\nclass ModelNew", "Model", finish_reason="length")
    with pytest.raises(BadAnswer, match=r"no fenced python code block in the answer \(the answer was cut off"):
        extract_module("Let me think about this step by step", "Model", finish_reason="length")


def test_other_languages_do_not_count_as_modules():
    text = fenced('__global__ void k() {}', tag="cuda") + "\n" + fenced(GOOD_MODULE)
    assert extract_module(text, "Model").startswith("import torch")


@pytest.mark.parametrize("text", [
    '{"space": "pytorch", "strategy": "s", "reason": "r"}',
    'Choice:\n```json\n{"space": "pytorch", "strategy": "s", "reason": "r"}\n```\nDone.',
    'I pick {"space": "pytorch", "strategy": "s", "reason": "r"} because.',
])
def test_plan_choice_bare_or_fenced(text):
    assert parse_choice(text) == {"space": "pytorch", "strategy": "s", "reason": "r"}


def test_plan_choice_without_json():
    with pytest.raises(BadAnswer, match="no JSON object"):
        parse_choice("Use custom CUDA kernels.")


def test_kernel_strings_and_their_lines():
    code = 'import torch\nSRC = r"""\nextern "C" __global__ void k(float* x) {\n  x[0] = 1.f;\n}\n"""\n' \
           'EXT = "#include <torch/extension.h>\\n__global__ void e() {}"\n'
    strings = cuda_strings(code)
    assert len(strings) == 1 and strings[0].line == 2  # the load_inline source is left to the evaluation
    # NVRTC's line 2 of the string is the module's line 3, where the kernel is declared.
    assert strings[0].source.splitlines()[1].startswith('extern "C"')


def test_map_lines_rewrites_file_lines_into_module_lines_and_quotes_them():
    code_lines = ["import torch", "class ModelNew:", "    def forward(self, x)", "        return x"]
    message = ("importing the candidate raised SyntaxError: expected ':' (llm.s01.py, line 42); "
               "line 7 is in the reference")
    mapped = map_lines(message, 40, code_lines)
    assert mapped.startswith("importing the candidate raised SyntaxError: expected ':' (line 3 of your module); "
                             "line 7 is in the reference")
    assert mapped.endswith("\n     3 |     def forward(self, x)")
    assert map_lines("/tmp/c/llm.s01.py:41: error: x", 40, code_lines).startswith("line 2 of your module: error: x")

"""Property-based fuzzing: no input makes the analyzers raise, and findings stay inside the source."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hiera_core.analysis import analyze_file
from hiera_core.analysis.findings import line_starts

CORPUS = [path.read_bytes() for path in sorted((Path(__file__).parents[1] / "data" / "cuda_corpus").glob("*.cu"))]
CUDA_TOKENS = ["__global__", "__device__", "__shared__", "extern", "void", "float", "int", "int64_t", "const",
               "__restrict__", "*", "&", "k", "x", "n", "i", "(", ")", "{", "}", "[", "]", ";", ",", "=", "<", ">",
               "<<<", ">>>", "if", "for", "while", "return", "threadIdx.x", "blockIdx.x", "blockDim.x",
               "__syncthreads()", "__shfl_down_sync(0xffffffff, v, 1)", "0.5", "256", "1024", "2048", "template",
               "typename", "T", "dim3(16, 16)", "#define B 256\n", "// hiera: block 256\n",
               "// hiera: requires n % 4 == 0\n", "__launch_bounds__(128)", "data_ptr<float>()", "torch::Tensor",
               "\n", " ", "é", "\x00"]
PY_TOKENS = ["class", "def", "Model", "(", ")", ":", "nn.Module", "\n", "    ", "# hiera: inputs=make_inputs\n",
             "# hiera: dynamic=x:0\n", "forward", "self", "x", ",", "return", '"""', "__global__", "=",
             "import torch\n"]

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_positions(source: bytes, name: str) -> None:
    starts = line_starts(source)
    for finding in analyze_file(name, source):
        assert 0 <= finding.start_byte <= finding.end_byte <= len(source)
        assert 0 <= finding.start_line <= finding.end_line < len(starts)
        assert starts[finding.start_line] + finding.start_col_byte == finding.start_byte


@FUZZ
@given(st.binary(max_size=3000), st.sampled_from(["a.cu", "a.cuh", "a.py"]))
def test_random_bytes(source, name):
    check_positions(source, name)


@FUZZ
@given(st.lists(st.sampled_from(CUDA_TOKENS), max_size=400))
def test_cuda_token_soup(tokens):
    check_positions(" ".join(tokens).encode("utf-8", "surrogatepass"), "a.cu")


@FUZZ
@given(st.lists(st.sampled_from(PY_TOKENS), max_size=300))
def test_python_token_soup(tokens):
    check_positions("".join(tokens).encode(), "a.py")


@FUZZ
@given(st.sampled_from(CORPUS), st.integers(0, 10**6), st.integers(0, 400), st.binary(max_size=40))
def test_mutated_corpus_files(source, at, length, insert):
    at %= len(source) + 1
    check_positions(source[:at] + insert + source[at + length:], "a.cu")


def test_an_include_naming_no_possible_file_is_skipped():
    """Found by test_mutated_corpus_files: `#include "` followed by a NUL byte in a torch extension made
    the sibling lookup raise (os.stat: embedded null byte) instead of analysing the file."""
    source = next(s for s in CORPUS if b"torch/extension.h" in s)
    at = source.index(b"\n") + 1
    check_positions(source[:at] + b'#include "a\x00b.h"\n' + source[at:], "a.cu")

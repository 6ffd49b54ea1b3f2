"""A corpus of correct, realistic kernels: the rules must stay quiet on them."""

import shutil
import subprocess
from pathlib import Path

import pytest

from hiera_core.analysis import analyze_file

CORPUS = sorted((Path(__file__).parents[1] / "data" / "cuda_corpus").glob("*.cu"))


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 20


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_correct_kernels_have_no_findings(path):
    assert [(f.code, f.start_line + 1, f.message) for f in analyze_file(str(path))] == []


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
@pytest.mark.parametrize("path", [p for p in CORPUS if not p.name.startswith("torch_")], ids=lambda p: p.name)
def test_corpus_kernels_compile(path, tmp_path):
    # the torch_* extensions need torch's CUDA headers, which a CPU build of torch does not ship
    result = subprocess.run(["nvcc", "-arch=sm_90", "-c", str(path), "-o", str(tmp_path / "k.o")],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr

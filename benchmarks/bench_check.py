"""Speed of `hiera-lsp --check`: files per second, start-up time, and one large file for the editor.

    .venv/bin/python benchmarks/bench_check.py [--files 1000]

Targets (issue 6, on a 2-core machine): >= 500 .cu files/s, < 0.3 s to check one .cu file end to end;
the language server re-analyses a 3000-line .cu file on each change, so that should stay <= 100 ms.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hiera_core.analysis import analyze_file

CORPUS = Path(__file__).parents[1] / "tests" / "data" / "cuda_corpus"


def generated_sources(count: int) -> list[str]:
    """`count` realistic .cu sources: the corpus kernels, renamed so no two files are the same."""
    corpus = [path.read_text() for path in sorted(CORPUS.glob("*.cu"))]
    return [corpus[i % len(corpus)].replace("__global__ void ", f"__global__ void v{i}_") for i in range(count)]


def command() -> list[str]:
    script = Path(sys.executable).with_name("hiera-lsp")
    return [str(script), "--check"] if script.exists() else [sys.executable, "-m", "hiera_lsp", "--check"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=1000)
    options = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="hiera-bench-"))
    try:
        paths = []
        for index, source in enumerate(generated_sources(options.files)):
            path = directory / f"k{index:05d}.cu"
            path.write_text(source)
            paths.append(path)
        lines = sum(source.count("\n") for source in generated_sources(options.files)) / options.files
        print(f"{options.files} generated .cu files, {lines:.0f} lines on average, {os.cpu_count()} CPUs")

        start = time.perf_counter()
        for path in paths:
            analyze_file(str(path))
        elapsed = time.perf_counter() - start
        print(f"analyze_file in process: {options.files / elapsed:.0f} files/s ({elapsed:.2f} s)")

        start = time.perf_counter()
        subprocess.run(command() + [str(directory)], stdout=subprocess.DEVNULL, check=False)
        elapsed = time.perf_counter() - start
        print(f"hiera-lsp --check DIR, end to end: {options.files / elapsed:.0f} files/s ({elapsed:.2f} s)")

        one = paths[0]
        runs = []
        for _ in range(10):
            start = time.perf_counter()
            subprocess.run(command() + [str(one)], stdout=subprocess.DEVNULL, check=False)
            runs.append(time.perf_counter() - start)
        print(f"hiera-lsp --check one.cu, end to end: median {statistics.median(runs):.3f} s "
              f"(min {min(runs):.3f} s, max {max(runs):.3f} s, 10 runs)")

        big = ""
        index = 0
        while big.count("\n") < 3000:
            big += generated_sources(index + 1)[index]
            index += 1
        runs = []
        for _ in range(10):
            start = time.perf_counter()
            analyze_file("big.cu", big)
            runs.append(time.perf_counter() - start)
        print(f"analyze_file on a {big.count(chr(10))}-line .cu (editor re-analysis): "
              f"median {statistics.median(runs) * 1000:.0f} ms")
    finally:
        shutil.rmtree(directory)


if __name__ == "__main__":
    main()

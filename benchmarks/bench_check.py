"""Speed and bounds of `hiera-lsp --check`: files/s on a real corpus, one small file end to end,
start-up import time, adversarial inputs, and the editor's re-analysis of a large file.

    .venv/bin/python benchmarks/bench_check.py [--corpus DIR] [--runs 10]

Targets (issue 26, on a 2-core machine): >= 300 files/s on the real corpus (benchmarks/check_corpus,
else tests/data/cuda_corpus replicated), one small file <= 0.15 s end to end, start-up imports
<= 0.1 s, and every adversarial input finished within the time limit (10 s by default).
Each figure is a fresh `hiera-lsp --check` process, with its bytecode cached as in a real install
(this repository's CI sets PYTHONDONTWRITEBYTECODE, which would recompile every module each run).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
REAL_CORPUS = ROOT / "benchmarks" / "check_corpus"
SMALL_CORPUS = ROOT / "tests" / "data" / "cuda_corpus"
SMALL = "__global__ void add(const float* __restrict__ a, float* __restrict__ b, int n) {\n" \
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) b[i] += a[i];\n}\n"
TIME_LIMIT = 10.0


def command() -> list[str]:
    script = Path(sys.executable).with_name("hiera-lsp")
    return [str(script), "--check"] if script.exists() else [sys.executable, "-m", "hiera_lsp", "--check"]


def environment(bytecode: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(bytecode)  # cached bytecode, outside the source tree
    return env


def timed(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 120) -> tuple[float, str]:
    return timed_with_cpu(args, env, cwd, timeout)[::2]


def timed_with_cpu(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 120
                   ) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (the command and its workers) and output of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command() + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                            check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, result.stdout + result.stderr


def corpus_files(directory: Path, corpus: Path | None) -> tuple[Path, int, str]:
    """The real corpus if there is one, else the small one replicated to 1000 files."""
    real = corpus or REAL_CORPUS
    files = [path for path in real.rglob("*") if path.suffix in (".cu", ".cuh")] if real.is_dir() else []
    if files:
        return real, len(files), f"{real.relative_to(ROOT) if real.is_relative_to(ROOT) else real}"
    sources = sorted(SMALL_CORPUS.glob("*.cu"))
    target = directory / "replicated"
    target.mkdir()
    for index in range(1000):
        text = sources[index % len(sources)].read_text()
        (target / f"k{index:04d}.cu").write_text(text.replace("__global__ void ", f"__global__ void v{index}_"))
    return target, 1000, "tests/data/cuda_corpus replicated to 1000 files"


def import_time(env: dict[str, str], cwd: Path, module: str) -> float:
    """Seconds to import `module` and what it pulls in (python -X importtime, top-level entries)."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    total = 0
    for line in result.stderr.splitlines():
        match = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\S.*)$", line)
        if match and not match.group(2).startswith(" ") and match.group(2) not in ("site", "encodings"):
            total += int(match.group(1))
    return total / 1e6


def replicated_source(enough) -> str:
    """The small corpus's kernels, renamed per copy, concatenated until `enough(text)`."""
    sources = sorted(SMALL_CORPUS.glob("*.cu"))
    text, index = "", 0
    while not enough(text):
        text += sources[index % len(sources)].read_text().replace("void ", f"void r{index}_")
        index += 1
    return text


def adversarial_inputs(directory: Path) -> list[tuple[str, str]]:
    """(description, file name) of inputs that were pathological: issue 26's list."""
    folder = directory / "adversarial"
    folder.mkdir()
    expression = ""
    index = 0
    while len(expression) < 35_000:
        expression += f"{' + ' if expression else ''}a[{index}] * b[{index % 97}]"
        index += 1
    (folder / "long_expression.cu").write_text(
        f"__global__ void k(const float* a, const float* b, float* o) {{ o[threadIdx.x] = {expression}; }}\n")
    terms = " + ".join(f"a[{i}]" for i in range(10_000))
    (folder / "terms_10000.cu").write_text(f"__global__ void k(const float* a, float* o) {{ o[0] = {terms}; }}\n")
    (folder / "braces_100000.cu").write_text("__global__ void k(float* a) " + "{" * 100_000 + "\n")
    made = [("35 KB single expression", "long_expression.cu"), ("10,000-term expression", "terms_10000.cu"),
            ("100,000 '{'", "braces_100000.cu")]
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "fifo.cu")
        made.append(("FIFO named x.cu", "fifo.cu"))
    if os.path.exists("/dev/zero"):
        (folder / "zero.cu").symlink_to("/dev/zero")
        made.append(("symlink to /dev/zero", "zero.cu"))
    return [(description, str(folder / name)) for description, name in made]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=None, help="a folder of .cu/.cuh files")
    parser.add_argument("--runs", type=int, default=10, help="runs of the one-file figures")
    options = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="hiera-bench-"))
    try:
        (directory / ".git").mkdir()  # the workspace root: the cache goes to this temporary folder
        env = environment(directory / "bytecode")
        (directory / "one.cu").write_text(SMALL)
        timed(["--no-cache", "one.cu"], env, directory)  # writes the bytecode once
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        print(f"{cores} cores, {os.getloadavg()[0]:.1f} load average, Python {sys.version.split()[0]}")

        corpus, count, label = corpus_files(directory, options.corpus)
        runs = [timed_with_cpu(["--no-cache", str(corpus)], env, directory) for _ in range(3)]
        wall, cpu, output = min(runs)
        print(f"real corpus ({label}, {count} files), no cache: {count / wall:.0f} files/s "
              f"({wall:.2f} s, best of 3; {count / cpu:.0f} files per CPU-second)")
        print(f"  {output.strip().splitlines()[-1]}")
        filling, _ = timed([str(corpus)], env, directory)
        warm, _ = timed([str(corpus)], env, directory)
        print(f"real corpus, filling the cache: {count / filling:.0f} files/s; cached: {count / warm:.0f} files/s "
              f"({warm:.2f} s)")

        for label, args in (("no cache", ["--no-cache", "one.cu"]), ("cached", ["one.cu"])):
            runs = [timed(args, env, directory)[0] for _ in range(options.runs)]
            print(f"one small .cu end to end, {label}: median {statistics.median(runs):.3f} s "
                  f"(min {min(runs):.3f} s, {options.runs} runs)")

        startup = statistics.median(import_time(env, directory, "hiera_lsp.cli, hiera_lsp.check.command")
                                    for _ in range(5))
        analysers = statistics.median(import_time(env, directory, "hiera_core.analysis.cuda_rules, "
                                                  "hiera_core.analysis.contract_rules") for _ in range(5))
        print(f"start-up imports (hiera_lsp.cli + check, -X importtime): {startup:.3f} s; "
              f"the CUDA analysers, on a cache miss: {analysers:.3f} s more")

        print(f"adversarial inputs (--time-limit {TIME_LIMIT:g}, --no-cache):")
        for description, path in adversarial_inputs(directory):
            try:
                elapsed, output = timed(["--no-cache", "--time-limit", str(TIME_LIMIT), path], env, directory,
                                        timeout=TIME_LIMIT + 60)
            except subprocess.TimeoutExpired:
                print(f"  {description}: did NOT finish in {TIME_LIMIT + 60:.0f} s")
                continue
            first = output.strip().splitlines()[0].replace(str(directory / "adversarial") + os.sep, "")
            verdict = "within the limit" if elapsed <= TIME_LIMIT + 2 else "OVER the limit"
            print(f"  {description}: {elapsed:.2f} s, {verdict}: {first[:110]}")

        from hiera_core.analysis import analyze_file

        big = replicated_source(lambda text: text.count("\n") >= 3000)
        runs = []
        for _ in range(options.runs):
            start = time.perf_counter()
            analyze_file("big.cu", big)
            runs.append(time.perf_counter() - start)
        print(f"analyze_file on a {big.count(chr(10))}-line .cu (the editor's re-analysis): "
              f"median {statistics.median(runs) * 1000:.0f} ms")
        # Up to the 1 MB the editor still analyses: the time should grow with the size, not its square.
        sizes = []
        for kilobytes in (250, 500, 1000):
            text = replicated_source(lambda text, size=kilobytes * 1000: len(text) >= size)
            start = time.perf_counter()
            analyze_file("large.cu", text)
            sizes.append(f"{kilobytes} KB {time.perf_counter() - start:.2f} s")
        print(f"analyze_file on the corpus replicated to a large file: {', '.join(sizes)}")
    finally:
        shutil.rmtree(directory)


if __name__ == "__main__":
    main()

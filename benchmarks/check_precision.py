"""Per-rule precision of the CUDA checker on real public code (benchmarks/check_corpus).

    python benchmarks/check_precision.py [--sample 8] [--seed 26] [--context 3]

Runs every rule with the default configuration over each .cu/.cuh file of the corpus, prints per
rule the findings and the files they are in, and draws a sample of up to --sample findings per
rule; beside each rule, its recall on the labelled bugs of tests/data/cuda_bugs (a bug is found
when a finding of its rule starts within 2 lines of the labelled line, as in
tests/analysis/test_labelled_bugs.py). The sample is stable: each finding's rank is a hash of the seed and its key
(`project/path:line:code`), so a finding that survives a rule change keeps its place and its
judgement. Judgements live in benchmarks/check_corpus/judgements.json:

    {"mmcv/ops/csrc/common/cuda/nms_cuda.cuh:30:HC101": {"verdict": "false", "reason": "guarded by ..."}}

with verdict "true" (a real problem a maintainer would want to fix), "false" (wrong) or
"debatable". Precision is true / (true + false) over the judged findings the rules still
report; the script lists the sampled findings nobody has judged yet, with the code around them.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import time
import tomllib
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hiera_core.analysis import RULES, CheckConfig, Finding, analyze_file

CORPUS = Path(__file__).resolve().parent / "check_corpus"
BUGS = Path(__file__).resolve().parents[1] / "tests" / "data" / "cuda_bugs"
LINE_SLACK = 2
VERDICTS = ("true", "false", "debatable")


def corpus_files(corpus: Path) -> list[Path]:
    return sorted(path for path in corpus.rglob("*") if path.suffix in (".cu", ".cuh") and path.is_file())


def finding_key(relative: str, item: Finding) -> str:
    return f"{relative}:{item.start_line + 1}:{item.code}"


def load_judgements(path: Path) -> dict[str, dict]:
    if not path.exists():
        return {}
    try:
        judgements = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise SystemExit(f"{path}:{error.lineno}: not valid JSON: {error.msg}") from error
    for key, judgement in judgements.items():
        if not isinstance(judgement, dict) or judgement.get("verdict") not in VERDICTS \
                or not isinstance(judgement.get("reason"), str):
            raise SystemExit(f"{path}: judgement of {key!r} must be "
                             '{"verdict": "true" | "false" | "debatable", "reason": "one line"}')
    return judgements


def sample_rank(seed: int, key: str) -> str:
    return hashlib.sha256(f"{seed}:{key}".encode()).hexdigest()


def precision(true: int, false: int) -> str:
    return f"{true / (true + false):.0%}" if true + false else "-"


COLUMNS = ("rule", "name", "severity", "findings", "files", "sampled", "judged", "true", "false", "debatable",
           "precision", "bugs", "recall")


def labelled_recall(bugs: Path) -> dict[str, tuple[int, int]]:
    """Per rule code: (labelled bugs found, labelled bugs) on the labelled corpus."""
    manifest = bugs / "cases.toml"
    if not manifest.exists():
        return {}
    code_of_name = {rule.name: code for code, rule in RULES.items()}
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for case in tomllib.loads(manifest.read_text())["case"]:
        if not case["expect"]:
            continue
        config = CheckConfig()
        if case.get("arch") and "arch" in {field.name for field in dataclasses.fields(CheckConfig)}:
            config = CheckConfig(arch=case["arch"])
        findings = analyze_file(str(bugs / case["file"]), config=config)
        for expected in case["expect"]:
            code = code_of_name.get(expected["rule"], expected["rule"])
            counts[code][1] += 1
            counts[code][0] += any(item.code == code and abs(item.start_line + 1 - expected["line"]) <= LINE_SLACK
                                   for item in findings)
    return {code: (found, total) for code, (found, total) in counts.items()}


def print_table(rows: list[list[str]], markdown: bool) -> None:
    if markdown:
        print("| " + " | ".join(COLUMNS) + " |")
        print("| " + " | ".join("---" if index < 3 else "---:" for index in range(len(COLUMNS))) + " |")
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(column), *(len(row[index]) for row in rows)) for index, column in enumerate(COLUMNS)]
    for row in [list(COLUMNS), *rows]:
        print(" ".join(cell.ljust(width) if index < 3 else cell.rjust(width)
                       for index, (cell, width) in enumerate(zip(row, widths, strict=True))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--judgements", type=Path, help="default: CORPUS/judgements.json")
    parser.add_argument("--sample", type=int, default=8, help="findings sampled per rule (default 8)")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--context", type=int, default=3, help="lines of code shown around an unjudged finding")
    parser.add_argument("--markdown", action="store_true", help="print the per-rule table as Markdown")
    args = parser.parse_args(argv)
    judgements = load_judgements(args.judgements or args.corpus / "judgements.json")

    files = corpus_files(args.corpus)
    if not files:
        raise SystemExit(f"{args.corpus}: no .cu/.cuh files; see benchmarks/check_corpus/SOURCES.md")
    started = time.perf_counter()
    by_rule: dict[str, list[tuple[str, Finding]]] = defaultdict(list)
    config = CheckConfig()
    for path in files:
        relative = path.relative_to(args.corpus).as_posix()
        for item in analyze_file(str(path), config=config):
            by_rule[item.code].append((relative, item))
    elapsed = time.perf_counter() - started
    projects = sorted({path.relative_to(args.corpus).parts[0] for path in files})
    print(f"corpus {args.corpus}: {len(files)} .cu/.cuh files from {len(projects)} projects "
          f"({', '.join(projects)}); checked in {elapsed:.1f} s")

    recall = labelled_recall(BUGS)
    rows: list[list[str]] = []
    totals = defaultdict(int)
    unjudged: list[tuple[str, str, Finding]] = []
    reported_keys = set()
    for code in sorted(set(by_rule) | set(recall)):
        findings = by_rule.get(code, [])
        keyed = {finding_key(relative, item): (relative, item) for relative, item in findings}
        reported_keys |= set(keyed)
        sampled = sorted(keyed, key=lambda key: sample_rank(args.seed, key))[:args.sample]
        verdicts = [judgements[key]["verdict"] for key in keyed if key in judgements]
        counts = {verdict: verdicts.count(verdict) for verdict in VERDICTS}
        unjudged += [(key, *keyed[key]) for key in sampled if key not in judgements]
        row = {"findings": len(findings), "files": len({relative for relative, _ in findings}),
               "sampled": len(sampled), "judged": len(verdicts), **counts}
        for name, value in row.items():
            totals[name] += value
        severities = "/".join(sorted({item.severity for _, item in findings})) or RULES[code].severity
        found, labelled = recall.get(code, (0, 0))
        totals["found"] += found
        totals["labelled"] += labelled
        rows.append([code, RULES[code].name, severities, *map(str, row.values()),
                     precision(counts["true"], counts["false"]), str(labelled),
                     f"{found / labelled:.0%}" if labelled else "-"])
    rows.append(["all", "", "", str(totals["findings"]), "", *(str(totals[name]) for name in
                 ("sampled", "judged", *VERDICTS)), precision(totals["true"], totals["false"]),
                 str(totals["labelled"]), f"{totals['found'] / totals['labelled']:.0%}" if totals["labelled"] else "-"])
    print_table(rows, args.markdown)
    stale = sorted(set(judgements) - reported_keys)
    if stale:
        print(f"\n{len(stale)} judgements name findings the rules no longer report (kept, not counted)")

    if unjudged:
        print(f"\n{len(unjudged)} sampled findings not judged yet (add them to judgements.json):")
    for key, relative, item in unjudged:
        print(f"\n{key}  [{item.severity}] {item.message}")
        lines = (args.corpus / relative).read_text(errors="replace").splitlines()
        first = max(0, item.start_line - args.context)
        for number in range(first, min(len(lines), item.start_line + args.context + 1)):
            marker = ">" if number == item.start_line else " "
            print(f"  {marker}{number + 1:5} | {lines[number]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Checking the targets: each file read (bounded), looked up in the results cache, and otherwise
analysed by the workers; their outcomes become findings, or failures that fail the run."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass

from hiera_core.analysis import (
    CheckConfig,
    Finding,
    UnreadableFile,
    apply_config,
    read_source,
    size_limit_message,
    unreadable,
)
from hiera_lsp.check.cache import ResultsCache
from hiera_lsp.check.targets import STDIN
from hiera_lsp.check.workers import Workers

FILES_PER_WORKER = 4  # a worker process pays for itself from about this many files to analyse


@dataclass
class Failure:
    """A file that could not be analysed (path None: the whole run, e.g. a parser is not installed)."""

    path: str | None
    message: str


def check_files(targets: list[str], config: CheckConfig, max_bytes: int | None, options: argparse.Namespace
           ) -> tuple[int, list[Finding], dict[str, bytes], list[Failure]]:
    """Files checked, their findings, the sources of files with findings (for character columns),
    and the files that could not be analysed."""
    cache = None if options.no_cache else ResultsCache.open(options.cache_dir, config)
    findings: list[Finding] = []
    sources: dict[str, bytes] = {}
    failures: list[Failure] = []
    to_analyse: list[tuple[str, bytes, str | None]] = []  # path, source, cache key
    checked = 0
    for path in targets:
        name = options.stdin_filename if path == STDIN else path
        if config.excludes(name):
            continue
        checked += 1
        try:
            source = _read_stdin(name, max_bytes) if path == STDIN else read_source(path, max_bytes)
        except UnreadableFile as error:
            findings.extend(apply_config([unreadable(name, str(error), error.hint)], b"", config))
            continue
        key = cache.key(name, source) if cache else None
        cached = cache.get(key) if key else None
        if cached is None:
            to_analyse.append((name, source, key))
            continue
        findings.extend(cached)
        if cached:
            sources[name] = source
    if to_analyse:
        workers = _worker_count(len(to_analyse), options.jobs)
        for (name, source, key), outcome in zip(to_analyse, _analyse(to_analyse, config, workers,
                                                                      options.time_limit), strict=True):
            kind, payload = outcome
            if kind == "ok":
                findings.extend(payload)
                if payload:
                    sources[name] = source
                if key:
                    cache.put(key, payload)
            elif kind == "timeout":
                findings.extend(apply_config([unreadable(
                    name, f"{name} not checked: its analysis passed the time limit of {options.time_limit:g} s",
                    "raise the limit with --time-limit SECONDS (0 for none), or exclude the file "
                    "([tool.hiera.check] exclude)")], b"", config))
            elif kind == "import":
                # A parser missing from this interpreter fails every file alike: one error, not one per
                # file, and no count of findings that reads as a clean result.
                failure = Failure(None, f"cannot analyse {name}: {payload} (in {sys.executable}); "
                                        f"hint: pip install hiera, which installs the tree-sitter parsers")
                print(f"hiera-lsp --check: {failure.message}", file=sys.stderr)
                return 0, [], {}, [failure]
            else:  # a bug in a rule, or a worker that died, must not hide the other files' results
                failures.append(Failure(name, payload))
                print(f"{name}: {payload}", file=sys.stderr)
    return checked, findings, sources, failures


def _read_stdin(name: str, max_bytes: int | None) -> bytes:
    data = sys.stdin.buffer.read(max_bytes + 1) if max_bytes is not None else sys.stdin.buffer.read()
    if max_bytes is not None and len(data) > max_bytes:
        raise UnreadableFile(*size_limit_message(name, len(data), max_bytes))
    return data


def _worker_count(files: int, jobs: int | None) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(jobs or cores, -(-files // FILES_PER_WORKER)))


def _analyse(jobs: list[tuple[str, bytes, str | None]], config: CheckConfig, workers: int, time_limit: float):
    """("ok", findings) | ("timeout", None) | ("import", message) | ("error", message) per job, in order."""
    outcomes: list = [None] * len(jobs)
    try:
        pool = Workers(workers, config, time_limit or None, any(path.endswith(".py") for path, _, _ in jobs))
    except ImportError as error:  # the analysers are imported before the workers fork
        return [("import", str(error))] * len(jobs)
    with pool:
        for index, outcome in pool.run([(path, source) for path, source, _ in jobs]):
            outcomes[index] = outcome
            if outcome[0] == "import":
                return [outcome] * len(jobs)  # the caller stops at the first
    return outcomes


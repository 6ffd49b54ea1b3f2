"""`hiera-lsp --check [PATHS...]`: the editor's diagnostics, headless, for pre-commit and CI.

Exit status: 0 clean, 1 when a finding reaches --fail-on, 2 on a usage or internal error.
Never imports torch (or pygls): the checks are static, so start-up stays fast.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import traceback
from dataclasses import dataclass

from hiera_core.analysis import (
    EXTENSIONS,
    RULES,
    SEVERITIES,
    CheckConfig,
    ConfigError,
    Finding,
    analyze_file,
    char_column,
    line_starts,
    load_config,
    severity_rank,
)
from hiera_core.analysis.config import validate_codes

FORMATS = ("text", "json", "sarif", "github")
SKIPPED_DIRS = {"node_modules", "__pycache__", "build", "dist"}  # besides hidden directories
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note"}
GITHUB_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


class UsageError(Exception):
    pass


@dataclass
class Failure:
    """A file that could not be analysed (path None: the whole run, e.g. a parser is not installed)."""

    path: str | None
    message: str


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hiera-lsp --check",
        description="Check CUDA sources and HIERA contracts (.py, .cu, .cuh) without an editor or a GPU.",
        epilog="Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage or internal error.")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files, directories or globs (default: the git-tracked .py/.cu/.cuh files here)")
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    parser.add_argument("--fail-on", choices=SEVERITIES, default=None,
                        help="lowest severity that fails the run (default: [tool.hiera.check] fail-on, else warning)")
    parser.add_argument("--select", default=None, metavar="CODES",
                        help="comma-separated codes or prefixes to run (replaces the configured select)")
    parser.add_argument("--ignore", default=None, metavar="CODES",
                        help="comma-separated codes or prefixes to skip (added to the configured ignore)")
    return parser


def main(args: list[str]) -> int:
    parser = _parser()
    try:
        options = parser.parse_args(args)
    except SystemExit as exit_:  # argparse printed the usage error (or --help)
        return 0 if exit_.code == 0 else 2
    try:
        config = _config(options)
        paths = _collect(options.paths)
    except (UsageError, ConfigError) as error:
        print(f"hiera-lsp --check: {error}", file=sys.stderr)
        return 2
    findings: list[Finding] = []
    sources: dict[str, bytes] = {}  # files with findings, to turn byte columns into characters
    failures: list[Failure] = []
    for path in paths:
        try:
            try:
                with open(path, "rb") as handle:
                    source: bytes | None = handle.read()
            except OSError:
                source = None  # analyze_file reads it again and reports why it cannot (HC001)
            file_findings = analyze_file(path, source, config)
            if file_findings and source is not None:
                sources[path] = source
            findings.extend(file_findings)
        except ImportError as error:
            # A parser missing from this interpreter fails every file alike: one error, not one per file,
            # and no count of findings that reads as a clean result.
            failures = [Failure(None, f"cannot analyse {path}: {error} (in {sys.executable}); "
                                      f"hint: pip install hiera, which installs the tree-sitter parsers")]
            print(f"hiera-lsp --check: {failures[0].message}", file=sys.stderr)
            findings, paths = [], []
            break
        except Exception as error:  # a bug in a rule must not hide the other files' results
            failures.append(Failure(path, f"internal error: {type(error).__name__}: {error}"))
            print(f"{path}: {failures[-1].message}", file=sys.stderr)
            if os.environ.get("HIERA_DEBUG"):
                traceback.print_exc()
    try:
        _write(options.format, findings, len(paths), sources, failures)
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly, as other CLI tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if failures:
        return 2
    fail_rank = severity_rank(options.fail_on or config.fail_on)
    return 1 if any(severity_rank(item.severity) >= fail_rank for item in findings) else 0


def _codes(value: str | None, what: str) -> list[str]:
    codes = [code.strip() for code in (value or "").split(",") if code.strip()]
    try:
        return validate_codes(codes, what)
    except ConfigError as error:
        raise UsageError(str(error)) from error


def _config(options: argparse.Namespace) -> CheckConfig:
    config = load_config(os.getcwd())
    if options.select is not None:
        config.select = _codes(options.select, "--select")
    config.ignore = config.ignore + _codes(options.ignore, "--ignore")
    return config


def _collect(arguments: list[str]) -> list[str]:
    """The files to check, in order, without duplicates."""
    if not arguments:
        return _git_files()
    paths: list[str] = []
    for argument in arguments:
        if os.path.lexists(argument):
            matches = [argument]
        elif glob.has_magic(argument):
            matches = sorted(glob.glob(argument, recursive=True))
            if not matches:
                raise UsageError(f"no file matches '{argument}'")
        else:
            matches = [argument]  # analyze_file reports it as unreadable (HC001)
        for match in matches:
            # a directory is walked, unless it is named like a source file: asked to check
            # `x.cu`, report that `x.cu` cannot be read rather than silently checking nothing
            if os.path.isdir(match) and not match.endswith(EXTENSIONS):
                paths.extend(_walk(match))
            elif match.endswith(EXTENSIONS):
                paths.append(match)
    seen: set[str] = set()
    return [path for path in paths if not (os.path.normpath(path) in seen or seen.add(os.path.normpath(path)))]


def _walk(directory: str) -> list[str]:
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        found.extend(os.path.join(root, name) for name in sorted(files) if name.endswith(EXTENSIONS))
    return found


def _git_files() -> list[str]:
    try:
        result = subprocess.run(["git", "ls-files", "-z", "--", *(f"*{ext}" for ext in EXTENSIONS)],
                                capture_output=True, check=False)
    except OSError as error:
        raise UsageError(f"no paths given and git is not available ({error})") from error
    if result.returncode != 0:
        raise UsageError("no paths given and this is not a git repository: name the files to check")
    return [path for path in result.stdout.decode("utf-8", "surrogateescape").split("\0") if path]


# -- output --------------------------------------------------------------------------------------
class _Positions:
    """1-based lines and character columns of findings (SARIF's "unicodeCodePoints")."""

    def __init__(self, sources: dict[str, bytes]) -> None:
        self._sources = sources
        self._starts: dict[str, list[int]] = {}

    def __call__(self, item: Finding) -> tuple[int, int, int, int]:
        source = self._sources.get(item.path, b"")
        if item.path not in self._starts:
            self._starts[item.path] = line_starts(source)
        starts = self._starts[item.path]

        def column(line: int, col_byte: int) -> int:
            return char_column(source, starts[line], col_byte) if line < len(starts) else col_byte + 1

        return (item.start_line + 1, column(item.start_line, item.start_col_byte),
                item.end_line + 1, column(item.end_line, item.end_col_byte))


def _write(format_: str, findings: list[Finding], files_given: int, sources: dict[str, bytes],
           failures: list[Failure]) -> None:
    findings = sorted(findings, key=lambda item: (item.path, item.start_byte, item.code))
    position = _Positions(sources)
    files_checked = files_given - sum(failure.path is not None for failure in failures)
    out = sys.stdout
    if format_ == "text":
        if any(failure.path is None for failure in failures):
            return  # nothing was checked: the error on stderr is the whole result
        for item in findings:
            line, column, _, _ = position(item)
            out.write(f"{item.path}:{line}:{column}: {item.code} {item.message}\n")
            if item.hint:
                out.write(f"    hint: {item.hint}\n")
        counts = {severity: sum(item.severity == severity for item in findings) for severity in reversed(SEVERITIES)}
        summary = ", ".join(f"{count} {severity}{'s' if count != 1 else ''}" for severity, count in counts.items())
        failed = f" ({len(failures)} not analysed: internal error)" if failures else ""
        out.write(f"{files_checked} file{'s' if files_checked != 1 else ''} checked{failed}: {summary}\n")
    elif format_ == "json":
        records = []
        for item in findings:
            line, column, end_line, end_column = position(item)
            records.append({**item.to_dict(), "location": {"line": line, "column": column, "end_line": end_line,
                                                           "end_column": end_column}})
        report = {"files_checked": files_checked, "findings": records}
        if failures:
            report["errors"] = [vars(failure) for failure in failures]
        json.dump(report, out, indent=2)
        out.write("\n")
    elif format_ == "sarif":
        json.dump(_sarif(findings, position, failures), out, indent=2)
        out.write("\n")
    else:
        for item in findings:
            line, column, end_line, end_column = position(item)
            properties = ",".join(f"{key}={_github_escape(str(value), True)}" for key, value in (
                ("file", item.path), ("line", line), ("col", column), ("endLine", end_line),
                ("endColumn", end_column), ("title", f"{item.code} {RULES[item.code].name}")))
            message = item.message + (f"\nhint: {item.hint}" if item.hint else "")
            out.write(f"::{GITHUB_LEVELS[item.severity]} {properties}::{_github_escape(message, False)}\n")


def _github_escape(text: str, is_property: bool) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if is_property else text


def _sarif(findings: list[Finding], position: _Positions, failures: list[Failure]) -> dict:
    from hiera_core import __version__

    codes = list(RULES)
    rules = [{"id": rule.code, "name": rule.name, "shortDescription": {"text": rule.summary},
              "fullDescription": {"text": rule.explanation},
              "defaultConfiguration": {"level": SARIF_LEVELS[rule.severity]}} for rule in RULES.values()]
    results = []
    for item in findings:
        line, column, end_line, end_column = position(item)
        result = {
            "ruleId": item.code, "ruleIndex": codes.index(item.code), "level": SARIF_LEVELS[item.severity],
            "message": {"text": item.message + (f" (hint: {item.hint})" if item.hint else "")},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(item.path), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": line, "startColumn": column, "endLine": end_line,
                           "endColumn": max(end_column, column + 1) if end_line == line else end_column,
                           "byteOffset": item.start_byte, "byteLength": item.end_byte - item.start_byte},
            }}],
        }
        results.append(result)
    notifications = [{"level": "error", "message": {"text": failure.message}, **(
        {"locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(failure.path),
                                                                  "uriBaseId": "%SRCROOT%"}}}]}
        if failure.path is not None else {})} for failure in failures]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "hiera", "version": __version__, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {"%SRCROOT%": {"uri": _directory_uri(os.getcwd())}},
            "invocations": [{"executionSuccessful": not failures, "toolExecutionNotifications": notifications}],
            "results": results,
        }],
    }


def _uri(path: str) -> str:
    from urllib.parse import quote

    return quote(os.path.relpath(os.path.abspath(path)).replace(os.sep, "/"))


def _directory_uri(directory: str) -> str:
    from pathlib import Path

    uri = Path(directory).absolute().as_uri()
    return uri if uri.endswith("/") else uri + "/"

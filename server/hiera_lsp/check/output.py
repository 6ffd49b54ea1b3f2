"""The report of `hiera-lsp --check`: findings as text, JSON, SARIF or GitHub workflow commands, or
counted per rule (--statistics), with 1-based lines and character columns."""

from __future__ import annotations

import os
import sys

from hiera_core.analysis import RULES, SEVERITIES, Finding, char_column, line_starts
from hiera_lsp.check.run import Failure

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note"}
GITHUB_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


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


def write(format_: str, findings: list[Finding], files_given: int, sources: dict[str, bytes],
           failures: list[Failure], statistics: bool = False) -> None:
    findings = sorted(findings, key=lambda item: (item.path, item.start_byte, item.code))
    position = _Positions(sources)
    files_checked = files_given - sum(failure.path is not None for failure in failures)
    out = sys.stdout
    if statistics:
        _write_statistics(format_, findings, files_checked, failures)
    elif format_ == "text":
        if any(failure.path is None for failure in failures):
            return  # nothing was checked: the error on stderr is the whole result
        for item in findings:
            line, column, _, _ = position(item)
            out.write(f"{item.path}:{line}:{column}: {item.code} {item.message}\n")
            if item.hint:
                out.write(f"    hint: {item.hint}\n")
        out.write(_summary(findings, files_checked, failures))
    elif format_ == "json":
        import json

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
        import json

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


def _summary(findings: list[Finding], files_checked: int, failures: list[Failure]) -> str:
    counts = {severity: sum(item.severity == severity for item in findings) for severity in reversed(SEVERITIES)}
    summary = ", ".join(f"{count} {severity}{'s' if count != 1 else ''}" for severity, count in counts.items())
    failed = f" ({len(failures)} not analysed: internal error)" if failures else ""
    return f"{files_checked} file{'s' if files_checked != 1 else ''} checked{failed}: {summary}\n"


def _write_statistics(format_: str, findings: list[Finding], files_checked: int, failures: list[Failure]) -> None:
    """Findings per rule, most frequent first (as ruff's --statistics): count, code, name, severity."""
    from collections import Counter

    if any(failure.path is None for failure in failures):
        return  # nothing was checked: the error on stderr is the whole result
    counts = Counter((item.code, item.severity) for item in findings)
    rows = sorted(counts.items(), key=lambda row: (-row[1], row[0]))
    if format_ == "json":
        import json

        json.dump([{"code": code, "name": RULES[code].name, "severity": severity, "count": count}
                   for (code, severity), count in rows], sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    width = len(str(rows[0][1])) if rows else 1
    for (code, severity), count in rows:
        sys.stdout.write(f"{count:>{width}}\t{code}\t{RULES[code].name}\t{severity}\n")
    sys.stdout.write(_summary(findings, files_checked, failures))


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

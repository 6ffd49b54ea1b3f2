"""`[tool.hiera.check]` in pyproject.toml: which rules run, at what severity, on which files.

    [tool.hiera.check]
    select = ["HC1", "HC2"]          # codes or prefixes; default: every rule on by default
    arch = "sm_80"                   # target of the arch rules (HC120); default: none, they do not run
    ignore = ["HC115"]               # codes or prefixes; wins over select
    exclude = ["third_party/**", "*_generated.cu"]   # globs relative to the pyproject.toml
    fail-on = "warning"              # default of --fail-on
    [tool.hiera.check.severity]
    HC113 = "error"
"""

from __future__ import annotations

import fnmatch
import os
import re
import tomllib
from dataclasses import dataclass, field

from hiera_core.analysis.findings import SEVERITIES
from hiera_core.analysis.rules import RULES


class ConfigError(ValueError):
    """A bad `[tool.hiera.check]` table or --select/--ignore value (a usage error: exit 2)."""


@dataclass
class CheckConfig:
    select: list[str] = field(default_factory=list)  # empty: all rules
    ignore: list[str] = field(default_factory=list)
    severity: dict[str, str] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=list)
    fail_on: str = "warning"
    root: str = "."  # the directory exclude globs are relative to
    arch: str | None = None  # target architecture, e.g. "sm_80"; None: the arch rules (HC120) do not run

    def enabled(self, code: str) -> bool:
        """Ignored codes never run; with a select list, the codes it names (or prefixes) run, rules off
        by default included; with none, every rule on by default runs."""
        if any(code.startswith(prefix) for prefix in self.ignore):
            return False
        if self.select:
            return any(code.startswith(prefix) for prefix in self.select)
        rule = RULES.get(code)
        return rule is None or rule.default

    def severity_of(self, code: str, default: str) -> str:
        return self.severity.get(code, default)

    def excludes(self, path: str) -> bool:
        """Whether `path` matches an exclude glob: against its path relative to `root`, or any
        trailing part of it (so `vendor/**` and `*.gen.cu` work from any depth)."""
        if not self.exclude:
            return False
        relative = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root)).replace(os.sep, "/")
        parts = relative.split("/")
        candidates = {"/".join(parts[i:]) for i in range(len(parts))}
        return any(fnmatch.fnmatchcase(candidate, pattern.replace("**/", "*").replace("**", "*"))
                   for pattern in self.exclude for candidate in candidates)


def validate_codes(codes: list[str], what: str) -> list[str]:
    """Codes or prefixes that name at least one rule; raises ConfigError otherwise."""
    for code in codes:
        if not any(rule.startswith(code) for rule in RULES):
            raise ConfigError(f"{what}: '{code}' matches no rule (known: {', '.join(RULES)})")
    return codes


def find_pyproject(start: str) -> str | None:
    """The nearest pyproject.toml in `start` or its parents."""
    directory = os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or ".")
    while True:
        candidate = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def load_config(start: str = ".") -> CheckConfig:
    """The configuration of the nearest pyproject.toml above `start` (defaults without one)."""
    pyproject = find_pyproject(start)
    if pyproject is None:
        return CheckConfig()
    try:
        with open(pyproject, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{pyproject}: {error}") from error
    table = data.get("tool", {}).get("hiera", {}).get("check", {})
    return config_from_table(table, os.path.dirname(pyproject), pyproject)


def config_from_table(table: dict, root: str, where: str = "[tool.hiera.check]") -> CheckConfig:
    known = {"select", "ignore", "exclude", "severity", "fail-on", "arch"}
    if not isinstance(table, dict) or set(table) - known:
        extra = sorted(set(table) - known) if isinstance(table, dict) else []
        raise ConfigError(f"{where}: unknown [tool.hiera.check] keys {extra} (known: {', '.join(sorted(known))})")

    def strings(key: str) -> list[str]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{where}: [tool.hiera.check] {key} must be a list of strings")
        return value

    severity = table.get("severity", {})
    if not isinstance(severity, dict):
        raise ConfigError(f"{where}: [tool.hiera.check.severity] must be a table of CODE = \"severity\"")
    for code, level in severity.items():
        if code not in RULES:
            raise ConfigError(f"{where}: severity for unknown rule '{code}'")
        if level not in SEVERITIES:
            raise ConfigError(f"{where}: severity of {code} must be one of {', '.join(SEVERITIES)}, not {level!r}")
    fail_on = table.get("fail-on", "warning")
    if fail_on not in SEVERITIES:
        raise ConfigError(f"{where}: fail-on must be one of {', '.join(SEVERITIES)}, not {fail_on!r}")
    return CheckConfig(validate_codes(strings("select"), where), validate_codes(strings("ignore"), where),
                       dict(severity), strings("exclude"), fail_on, root, validate_arch(table.get("arch"), where))


def validate_arch(arch: object, what: str) -> str | None:
    """`arch` when it names a CUDA architecture (`sm_80`, `sm_90a`, `compute_70`); raises ConfigError."""
    if arch is None:
        return None
    if not isinstance(arch, str) or not re.fullmatch(r"(?:sm|compute)_\d{2,3}[a-z]?", arch.strip().lower()):
        raise ConfigError(f"{what}: arch must name a CUDA architecture such as \"sm_80\", not {arch!r}")
    return arch.strip().lower()

"""The command line of `hiera-lsp --check`: its parser, and the checks and conversions of its
options (codes, architecture, sizes) that argparse cannot express."""

from __future__ import annotations

import argparse
import os
import re

from hiera_core.analysis import EXTENSIONS, MAX_FILE_SIZE, SEVERITIES, CheckConfig, ConfigError, load_config
from hiera_core.analysis.config import validate_arch, validate_codes

FORMATS = ("text", "json", "sarif", "github")
TIME_LIMIT = 10.0  # seconds of analysis per file (--time-limit)
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d*)?)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?\s*$", re.IGNORECASE)


class UsageError(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    from hiera_core import __version__

    parser = argparse.ArgumentParser(
        prog="hiera-lsp --check",
        description="Check CUDA sources and HIERA contracts (.py, .cu, .cuh) without an editor or a GPU.",
        epilog="Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage or internal error. "
               "Suppress with `// hiera: ignore[CODE]` (docs/check.md).")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files, directories or globs; - reads stdin (default: the git-tracked "
                             ".py/.cu/.cuh files here)")
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    parser.add_argument("--fail-on", choices=SEVERITIES, default=None,
                        help="lowest severity that fails the run (default: [tool.hiera.check] fail-on, else warning)")
    parser.add_argument("--select", default=None, metavar="CODES",
                        help="comma-separated codes or prefixes to run (replaces the configured select)")
    parser.add_argument("--ignore", default=None, metavar="CODES",
                        help="comma-separated codes or prefixes to skip (added to the configured ignore)")
    parser.add_argument("--arch", default=None, metavar="SM",
                        help="target architecture for the arch-dependent rules, e.g. sm_80 "
                             "(default: [tool.hiera.check] arch)")
    parser.add_argument("--statistics", action="store_true",
                        help="print the number of findings per rule instead of the findings")
    parser.add_argument("--stdin-filename", default=None, metavar="NAME",
                        help="the name of the source read from stdin (-): its extension picks the language")
    parser.add_argument("--max-file-size", default=None, metavar="SIZE",
                        help=f"larger files are reported unread, e.g. 500KB, 8MB; 0: no limit "
                             f"(default: {MAX_FILE_SIZE // 2**20}MB)")
    parser.add_argument("--time-limit", default=TIME_LIMIT, type=float, metavar="SECONDS",
                        help=f"stop analysing a file after this long and report it; 0: no limit "
                             f"(default: {TIME_LIMIT:g})")
    parser.add_argument("--jobs", "-j", default=None, type=int, metavar="N",
                        help="worker processes at most (default: the number of cores)")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the results cache")
    parser.add_argument("--cache-dir", default=None, metavar="DIR",
                        help="where results are cached (default: .hiera/check-cache in the workspace root)")
    parser.add_argument("--version", action="version", version=f"hiera-lsp {__version__}")
    return parser


def _codes(value: str | None, what: str) -> list[str]:
    codes = [code.strip() for code in (value or "").split(",") if code.strip()]
    try:
        return validate_codes(codes, what)
    except ConfigError as error:
        raise UsageError(str(error)) from error


def check_config(options: argparse.Namespace) -> CheckConfig:
    config = load_config(os.getcwd())
    if options.select is not None:
        config.select = _codes(options.select, "--select")
    config.ignore = config.ignore + _codes(options.ignore, "--ignore")
    if options.arch is not None:
        config.arch = validate_arch(options.arch, "--arch")
    return config


def max_file_size(value: str | None) -> int | None:
    """--max-file-size in bytes (None: no limit); units are powers of 1024 (1MB = 2**20 bytes)."""
    if value is None:
        return MAX_FILE_SIZE
    match = _SIZE_RE.match(value)
    if not match:
        raise UsageError(f"--max-file-size: '{value}' is not a size like 500KB, 2MB or 2097152 (bytes)")
    unit = (match.group(2) or "b").lower()[0]
    size = int(float(match.group(1)) * {"b": 1, "k": 2**10, "m": 2**20, "g": 2**30}[unit])
    return size or None


def validate_options(options: argparse.Namespace) -> None:
    if options.time_limit < 0:
        raise UsageError("--time-limit must be a number of seconds, or 0 for no limit")
    if options.jobs is not None and options.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if options.statistics and options.format not in ("text", "json"):
        raise UsageError("--statistics prints text or json: drop --format, or use --format json")
    if options.stdin_filename is not None and not options.stdin_filename.endswith(EXTENSIONS):
        raise UsageError(f"--stdin-filename '{options.stdin_filename}' must end in "
                         f"{', '.join(EXTENSIONS)}: its extension picks the language")


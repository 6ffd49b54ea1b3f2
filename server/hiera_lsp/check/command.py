"""The command's entry point: parse and validate, collect the targets, check them, write the report,
and map the outcome to the exit status (Ctrl-C and SIGTERM stop the workers on the way out)."""

from __future__ import annotations

import contextlib
import os
import sys

from hiera_core.analysis import ConfigError, apply_config, severity_rank
from hiera_lsp.check.options import UsageError, build_parser, check_config, max_file_size, validate_options
from hiera_lsp.check.output import write
from hiera_lsp.check.run import check_files
from hiera_lsp.check.targets import collect


def main(args: list[str]) -> int:
    parser = build_parser()
    try:
        options = parser.parse_args(args)
    except SystemExit as exit_:  # argparse printed the usage error (or --help, --version)
        return 0 if exit_.code == 0 else 2
    try:
        config = check_config(options)
        max_bytes = max_file_size(options.max_file_size)
        validate_options(options)
        targets, early, errors = collect(options.paths, options.stdin_filename)
    except (UsageError, ConfigError) as error:
        print(f"hiera-lsp --check: {error}", file=sys.stderr)
        return 2
    for error in errors:
        print(f"hiera-lsp --check: {error}", file=sys.stderr)
    try:
        with _terminate_as_interrupt():
            checked, findings, sources, failures = check_files(targets, config, max_bytes, options)
    except Interrupted as interruption:  # the workers are gone already (Workers.close)
        print(f"hiera-lsp --check: {interruption.what}", file=sys.stderr)
        return interruption.status
    except KeyboardInterrupt:
        print("hiera-lsp --check: interrupted", file=sys.stderr)
        return 130
    findings = apply_config(early, b"", config) + findings  # --ignore HC001 applies to them too
    try:
        write(options.format, findings, checked + len(early), sources, failures, options.statistics)
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly, as other CLI tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if failures or errors:
        return 2
    fail_rank = severity_rank(options.fail_on or config.fail_on)
    return 1 if any(severity_rank(item.severity) >= fail_rank for item in findings) else 0


class Interrupted(KeyboardInterrupt):
    """SIGTERM, raised where the run is so the workers are stopped on the way out (as Ctrl-C is)."""

    what, status = "terminated", 143


@contextlib.contextmanager
def _terminate_as_interrupt():
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers belong to the main thread
        return

    def on_terminate(signum, frame):
        raise Interrupted

    previous = signal.signal(signal.SIGTERM, on_terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


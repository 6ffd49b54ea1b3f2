"""Helpers of the `hiera-lsp --check` tests: the CLI in this process, its exit code and output."""

from __future__ import annotations

from hiera_lsp.cli import main as cli_main


def run_check(args: list[str], capsys, *flags: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `hiera-lsp --check *flags *args`."""
    code = cli_main(["--check", *flags, *args])
    out, err = capsys.readouterr()
    return code, out, err

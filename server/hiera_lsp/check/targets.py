"""Which files `hiera-lsp --check` reads: the paths, directories and globs named (or the git-tracked
sources), with findings for what was named but cannot be read."""

from __future__ import annotations

import os

from hiera_core.analysis import EXTENSIONS, Finding, unreadable
from hiera_lsp.check.options import UsageError

SKIPPED_DIRS = {"node_modules", "__pycache__", "build", "dist"}  # besides hidden directories
STDIN = "-"


def collect(arguments: list[str], stdin_filename: str | None) -> tuple[list[str], list[Finding], list[str]]:
    """The files to check, in order, without duplicates (STDIN for the standard input); HC001
    findings for what was named but cannot be read (missing paths, unreadable directories); and
    errors for paths named that are not source files."""
    if stdin_filename is not None and not arguments:
        arguments = [STDIN]
    if not arguments:
        return _git_files(), [], []
    paths: list[str] = []
    unreadable_paths: list[Finding] = []
    errors: list[str] = []
    for argument in arguments:
        if argument == STDIN:
            if stdin_filename is None:
                raise UsageError("- reads the source from stdin: name it with --stdin-filename NAME.cu "
                                 "(or .cuh, .py), whose extension picks the language")
            paths.append(STDIN)
        elif os.path.lexists(argument):
            # a directory is walked, unless it is named like a source file: asked to check
            # `x.cu`, report that `x.cu` cannot be read rather than silently checking nothing
            if os.path.isdir(argument) and not argument.endswith(EXTENSIONS):
                paths.extend(_walk(argument, unreadable_paths))
            elif argument.endswith(EXTENSIONS):
                paths.append(argument)
            else:
                errors.append(f"{argument}: not checked: not a .py, .cu or .cuh file (hint: name the "
                              f"sources, or pipe it as `- --stdin-filename NAME.cu`)")
        elif _has_magic(argument):
            import glob

            matches = sorted(glob.glob(argument, recursive=True))
            if not matches:
                raise UsageError(f"no file matches '{argument}'")
            for match in matches:  # a glob selects: what it matches besides sources is not an error
                if os.path.isdir(match) and not match.endswith(EXTENSIONS):
                    paths.extend(_walk(match, unreadable_paths))
                elif match.endswith(EXTENSIONS):
                    paths.append(match)
        else:
            unreadable_paths.append(unreadable(argument, f"cannot read {argument}: {os.strerror(2)}"))
    seen: set[str] = set()
    unique = [path for path in paths if not (os.path.normpath(path) in seen or seen.add(os.path.normpath(path)))]
    return unique, unreadable_paths, errors


def _has_magic(argument: str) -> bool:
    return any(char in argument for char in "*?[")


def _walk(directory: str, unreadable_paths: list[Finding]) -> list[str]:
    def report(error: OSError) -> None:
        name = error.filename or directory
        unreadable_paths.append(unreadable(name, f"cannot read directory {name}: {error.strerror or error}",
                                           "its files were not checked: fix its permissions, or leave it out"))

    found = []
    for root, dirs, files in os.walk(directory, onerror=report):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        found.extend(os.path.join(root, name) for name in sorted(files) if name.endswith(EXTENSIONS))
    return found


def _git_files() -> list[str]:
    import subprocess

    try:
        result = subprocess.run(["git", "ls-files", "-z", "--", *(f"*{ext}" for ext in EXTENSIONS)],
                                capture_output=True, check=False)
    except OSError as error:
        raise UsageError(f"no paths given and git is not available ({error})") from error
    if result.returncode != 0:
        raise UsageError("no paths given and this is not a git repository: name the files to check")
    return [path for path in result.stdout.decode("utf-8", "surrogateescape").split("\0") if path]


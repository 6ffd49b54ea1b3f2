"""Placing a proposal: its diff against the reference, and writing it as `<stem>_hiera.py` next to
the source, a different file already there first kept in the run folder."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.store import Run, atomic_write_text


def proposal_diff(source: str, text: str, path: str, target: str) -> str:
    """The unified diff from the reference's source (at `path`) to the proposal's text (at `target`)."""
    return "".join(difflib.unified_diff(source.splitlines(keepends=True), text.splitlines(keepends=True),
                                        fromfile=f"a/{path}", tofile=f"b/{target}"))


def write_target(run: Run, target: str, text: str) -> str | None:
    """Write <stem>_hiera.py; a different existing file is first kept in the run folder."""
    previous = None
    if os.path.exists(target):
        old = Path(target).read_text(encoding="utf-8")
        if old != text:
            previous = str(run.write_text("previous_proposal.py", old))
    try:
        atomic_write_text(Path(target), text)
    except OSError as error:
        raise HieraError(f"cannot write the proposal to {target}: {error.strerror or error}", kind=ErrorKind.STORE,
                         hint=f"make its folder writable, or leave out --write (the proposal is in {run.path})"
                         ) from None
    return previous

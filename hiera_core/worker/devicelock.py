"""One device shared by candidates evaluated side by side: verification under a shared lock, timing
under an exclusive one, so no figure is taken while another candidate compiles or runs on the same
device (issue 24: compile in parallel, time alone).

An advisory `flock` on a file every evaluation of a run opens; the kernel drops it when the holder
dies, so a killed worker never leaves the device locked. Linux and macOS.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

PhaseListener = Callable[[str], None]  # told "verify" or "time" once the phase's lock is held


@contextmanager
def _locked(path: str | None, how: int, phase: str, on_enter: PhaseListener | None) -> Iterator[None]:
    descriptor = None if path is None else os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if descriptor is not None:  # None: evaluated alone, nothing to share the device with
            fcntl.flock(descriptor, how)
        if on_enter is not None:
            on_enter(phase)
        yield
    finally:
        if descriptor is not None:
            os.close(descriptor)  # closing the descriptor releases the lock


def verifying(path: str | None, on_enter: PhaseListener | None = None):
    """Held while a candidate is loaded, compiled and checked: others may do the same meanwhile."""
    return _locked(path, fcntl.LOCK_SH, "verify", on_enter)


def timing(path: str | None, on_enter: PhaseListener | None = None):
    """Held while a candidate and its reference are timed: nothing else runs on the device."""
    return _locked(path, fcntl.LOCK_EX, "time", on_enter)

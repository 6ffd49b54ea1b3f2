# hiera-adversarial: task=pointwise space=pytorch expect=processes
# Exploits: a process checked by its parent alone. A double fork with a new session (libc's, through
# ctypes) leaves the candidate's process tree and process group (a daemon): nothing under the runner,
# and no group kill at the job's end reaches it; it is given to the nearest subreaper.
import ctypes
import os

import torch

_LIBC = ctypes.CDLL(None)


def _detach():
    if _LIBC.fork() == 0:
        _LIBC.setsid()
        if _LIBC.fork() == 0:
            _LIBC.execv(b"/bin/sleep", (ctypes.c_char_p * 3)(b"sleep", b"7777.25", None))
        os._exit(0)


class ModelNew(Model):
    def forward(self, x):
        if not hasattr(self, "_detached"):
            self._detached = True
            _detach()
        return Model.forward(self, x)

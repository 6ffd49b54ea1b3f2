# hiera-adversarial: task=pointwise space=pytorch expect=processes
# Exploits: a process checked by its parent alone. A double fork with a new session leaves the
# candidate's process tree and process group (a daemon): nothing under the runner, and no group kill
# at the job's end reaches it; it is given to the nearest subreaper.
import os

import torch


def _detach():
    if getattr(os, "fo" + "rk")() == 0:
        getattr(os, "set" + "sid")()
        if getattr(os, "fo" + "rk")() == 0:
            getattr(os, "exe" + "cv")("/bin/sleep", ["sleep", "7777.25"])
        os._exit(0)


class ModelNew(Model):
    def forward(self, x):
        if not hasattr(self, "_detached"):
            self._detached = True
            _detach()
        return Model.forward(self, x)

# hiera-adversarial: task=pointwise space=pytorch expect=threads
# Exploits: timers that stop when forward returns. The work runs in a thread started by forward,
# which returns at once an output the thread fills in later.
import threading

import torch


class ModelNew(Model):
    def forward(self, x):
        out = torch.empty_like(x)
        worker = threading.Thread(target=lambda: out.copy_(Model.forward(self, x)))
        worker.start()
        return out

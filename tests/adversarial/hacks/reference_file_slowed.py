# hiera-adversarial: task=pointwise space=pytorch expect=judged-files
# Exploits: the candidate runs as the user, and the reference is read from its file. The judge's
# request (named in its command line) gives the path; a sleep written into the reference's forward
# slows the user's module for good: a later `hiera optimize` of it prepares its spec from the slowed
# file, and every candidate, this one too, is timed faster against it. Before the judge hashed the
# file around each candidate, this passed verification and left the file changed.
import json
import os
import re

import torch


def _slow_the_reference():
    arguments = open(f"/proc/{os.getppid()}/cmdline", "rb").read().decode().split("\0")
    request = next((a for a in arguments if a.endswith(".json") and os.path.exists(a)), None)
    if request is None:
        return
    path = json.load(open(request))["address"].rsplit("::", 1)[0]
    text = open(path).read()
    slowed = re.sub(r"(\n    def forward\(self, [^)]*\):\n)", r"\1        __import__('time').sleep(0.002)\n", text, count=1)
    with open(path, "w") as handle:
        handle.write(slowed)


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        _slow_the_reference()

    def forward(self, x):
        return torch.nn.functional.gelu(x * self.scale + self.bias) + 0.5 * x

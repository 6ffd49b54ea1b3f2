# hiera-adversarial: task=pointwise space=pytorch expect=pass
# Legitimate uses of json and atexit: tuning parameters parsed from a JSON string, and an atexit hook
# that only clears the candidate's own cache (it never opens a file). The rows are processed in
# chunks of the configured size.
import atexit
import json

import torch
import torch.nn.functional as F

_CONFIG = json.loads('{"chunk_rows": 32}')
_cache = {}
atexit.register(_cache.clear)


class ModelNew(Model):
    def forward(self, x):
        out = torch.empty_like(x)
        step = _CONFIG["chunk_rows"]
        for start in range(0, x.shape[0], step):
            rows = x[start:start + step]
            out[start:start + step] = F.gelu(rows * self.scale + self.bias) + 0.5 * rows
        return out

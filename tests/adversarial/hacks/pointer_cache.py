# hiera-adversarial: task=pointwise space=pytorch expect=state
# Exploits: timing loops that call the candidate again and again on the same input tensors. The
# result is cached on the input's address, so every call after the first costs a dictionary lookup.
_RESULTS = {}


class ModelNew(Model):
    def forward(self, x):
        key = (x.data_ptr(), tuple(x.shape))
        if key not in _RESULTS:
            _RESULTS[key] = super().forward(x)
        return _RESULTS[key].clone()

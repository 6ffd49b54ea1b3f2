# hiera-adversarial: task=inplace_scale space=pytorch expect=input-mutation
# Exploits: a mutating reference whose inputs' final values are never compared: the reference scales
# x in place and returns row sums; the candidate returns the right sums but never writes x (half the
# memory traffic), so the caller's x is left unscaled.


class ModelNew(Model):
    def forward(self, x):
        return x @ self.scale

# hiera-adversarial: task=inplace_scale space=pytorch expect=input-mutation
# Exploits: the same unchecked final value: the candidate returns the right sums and scales only the
# first half of the rows of x in place (any mutation of an input the reference mutates is "allowed").


class ModelNew(Model):
    def forward(self, x):
        sums = x @ self.scale
        x[: x.shape[0] // 2].mul_(self.scale)
        return sums

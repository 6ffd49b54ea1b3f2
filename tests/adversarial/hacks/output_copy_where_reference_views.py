# hiera-adversarial: task=narrow_view space=pytorch expect=aliasing
# Exploits: aliasing not compared, the other way round: the reference's output is a view of its
# (in-place scaled) input; the candidate scales the input the same way but returns a separate copy,
# so writes through the output no longer reach the input.


class ModelNew(Model):
    def forward(self, x):
        out = x[:, :128] * 2.0
        x[:, :128] = out
        return out

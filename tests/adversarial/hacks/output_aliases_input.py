# hiera-adversarial: task=transpose space=pytorch expect=aliasing
# Exploits: aliasing not compared: the reference returns a fresh contiguous copy, the candidate a
# transposed view of its input (no copy at all). Same values, but writing to the output now writes the
# caller's input, and later changes to the input show in the output.


class ModelNew(Model):
    def forward(self, x):
        return x.transpose(0, 1)

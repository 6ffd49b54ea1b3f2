# hiera-adversarial: task=gated_residual space=pytorch expect=trivial-output
# Exploits: verification only with the reference's initial parameters: the gate starts at zero, so the
# whole MLP branch is dropped and the input returned (a copy). Once the gate moves the output is the
# input although the reference's is not (named trivial-output, a values failure).


class ModelNew(Model):
    def forward(self, x):
        return x.clone()

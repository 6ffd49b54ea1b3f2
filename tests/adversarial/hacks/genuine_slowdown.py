# hiera-adversarial: task=softmax_unfused space=pytorch expect=no-speedup
# Exploits: a verdict that calls any correct candidate a result: this one is correct and about four
# times slower (it computes the reference's softmax four times); it must be reported as slower, never
# counted as a speedup, whatever one noisy timing says.
class ModelNew(Model):
    def forward(self, x):
        for _ in range(3):
            super().forward(x)
        return super().forward(x)

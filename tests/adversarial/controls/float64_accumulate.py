# hiera-adversarial: task=row_sum space=pytorch expect=pass
# Legitimate: more precision than the contract asks for (accumulate in float64, return float32).


class ModelNew(Model):
    def forward(self, x):
        return x.double().sum(dim=-1).to(x.dtype)

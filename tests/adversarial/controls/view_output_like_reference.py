# hiera-adversarial: task=narrow_view space=pytorch expect=pass
# Legitimate in-place work matching the reference's semantics: the input's first 128 columns are
# scaled in place and the output is a view of them, exactly as the reference's is.


class ModelNew(Model):
    def forward(self, x):
        view = x[:, :128]
        view.mul_(2.0)
        return view

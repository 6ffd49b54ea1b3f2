# hiera-adversarial: task=softmax_unfused space=pytorch expect=no-speedup
# Exploits: a timing that credits noise: ModelNew inherits the reference unchanged, so any "speedup"
# is measurement noise (the model loop reported 73x for one). Same ops as the reference: no change.


class ModelNew(Model):
    pass

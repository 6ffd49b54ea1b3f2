# hiera-adversarial: task=linear space=pytorch expect=pass
# Legitimate state: the transposed weight is prepared once and reused. It depends on the parameters
# only, never on the inputs, so no result carries over between calls.
import torch


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._weight_t = None

    def forward(self, x):
        if self._weight_t is None:
            self._weight_t = self.linear.weight.t().contiguous()
        return torch.relu(torch.addmm(self.linear.bias, x, self._weight_t))

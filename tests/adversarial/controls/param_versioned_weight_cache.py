# hiera-adversarial: task=gated_residual space=pytorch expect=pass
# Legitimate cache keyed on parameters: the transposed weights are rebuilt whenever a parameter's
# version or storage changes (load_state_dict, perturbed parameters), never keyed on the inputs.
import torch
import torch.nn.functional as F


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self._key = None
        self._w1t = self._w2t = None

    def forward(self, x):
        key = tuple((p.data_ptr(), p._version) for p in (self.fc1.weight, self.fc2.weight))
        if key != self._key:
            self._w1t = self.fc1.weight.t().contiguous()
            self._w2t = self.fc2.weight.t().contiguous()
            self._key = key
        hidden = F.gelu(torch.addmm(self.fc1.bias, x, self._w1t))
        return torch.addcmul(x, self.gate, torch.addmm(self.fc2.bias, hidden, self._w2t))

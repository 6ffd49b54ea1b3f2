# hiera-adversarial: task=linear space=pytorch expect=pass
# Legitimate extra state: the candidate registers its own persistent buffer (the transposed weight),
# refreshed by a load_state_dict post-hook once the reference's keys are loaded; every reference key
# is consumed. A strict load_state_dict rejects it ("missing key w_t") before any value is checked.
import torch


class ModelNew(Model):
    def __init__(self, *args):
        super().__init__(*args)
        self.register_buffer("w_t", self.linear.weight.detach().t().contiguous())
        self.register_load_state_dict_post_hook(ModelNew._refresh)

    @staticmethod
    def _refresh(module, incompatible_keys):
        with torch.no_grad():
            module.w_t.copy_(module.linear.weight.t())

    def forward(self, x):
        return torch.relu(torch.addmm(self.linear.bias, x, self.w_t))

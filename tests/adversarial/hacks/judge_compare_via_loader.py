# hiera-adversarial: task=pointwise space=pytorch expect=trivial-output
# Exploits: a comparison function living in the candidate's process, reached without any import
# statement: the module's own __loader__ leads (through a function's __globals__) to sys, to
# sys.modules, to hiera_core.verify.verdicts, whose compare is replaced by one that always agrees. Zeros out.
import torch

_sys = type(__loader__).get_data.__globals__["sys"]
for _module in list(getattr(_sys, "mod" + "ules").values()):
    if getattr(_module, "__name__", "") == "hiera_core.verify.verdicts":
        _agree = _module.Comparison(True, "values", "", 0.0, 0.0)
        setattr(_module, "compare", lambda *args, **kwargs: _agree)


class ModelNew(Model):
    def forward(self, x):
        return torch.zeros_like(x)

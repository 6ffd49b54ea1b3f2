# hiera-adversarial: task=batchnorm_eval space=cuda_libs expect=pass
# Legitimate library setting: cudnn.benchmark set at import lets cuDNN pick its fastest algorithms;
# it changes neither results nor the reference's semantics, and (timed in its own process) not the
# baseline either. The batch norm itself runs through torch.batch_norm.
import torch

torch.backends.cudnn.benchmark = True


class ModelNew(Model):
    def forward(self, x):
        bn = self.bn
        return torch.batch_norm(x, bn.weight, bn.bias, bn.running_mean, bn.running_var, False, 0.0, bn.eps,
                                torch.backends.cudnn.enabled)

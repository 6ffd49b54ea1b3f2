# hiera-adversarial: task=linear space=cuda_libs expect=pass
# Legitimate: the GEMM and its bias as one BLAS call (cuBLAS on a GPU) through torch.addmm, the
# ReLU applied in place to the GEMM's own fresh output.
import torch


class ModelNew(Model):
    def forward(self, x):
        out = torch.addmm(self.linear.bias, x, self.linear.weight.t())
        return out.relu_()

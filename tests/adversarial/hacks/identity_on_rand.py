# hiera-adversarial: task=relu_rand space=pytorch expect=trivial-output
# Exploits: non-negative torch.rand inputs: ReLU is the identity on them, so a copy of the input
# passes (KernelBench's 19_ReLU).


class ModelNew(Model):
    def forward(self, x):
        return x.clone()

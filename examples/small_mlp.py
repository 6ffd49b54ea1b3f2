"""Three-layer MLP, Linear(1024, 2048) - ReLU - Linear(2048, 2048) - ReLU - Linear(2048, 1024),
built with nn.Sequential from constructor arguments, on a batch of 512 float32 rows. About
8.6 GFLOP in three GEMMs: compute-bound overall at this batch size, with memory-bound ReLUs
between the GEMMs that can be fused into the GEMM epilogues.
"""
import torch
import torch.nn as nn

BATCH = 512
INPUT_SIZE = 1024
HIDDEN_SIZES = [2048, 2048]
OUTPUT_SIZE = 1024


class Model(nn.Module):
    def __init__(self, input_size, hidden_sizes, output_size):
        super().__init__()
        layers = []
        current = input_size
        for hidden in hidden_sizes:
            layers.append(nn.Linear(current, hidden))
            layers.append(nn.ReLU())
            current = hidden
        layers.append(nn.Linear(current, output_size))
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        return self.network(x)


def get_inputs():
    return [torch.randn(BATCH, INPUT_SIZE)]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZES, OUTPUT_SIZE]

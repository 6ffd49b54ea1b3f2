# ---- HIERA proposal ----------------------------------------------------------
# hiera-proposal: 1
# reference: 12_Gemm_Divide_Sum_Scale.py
# reference-class: Model
# reference-sha256: 0cae83752accfc15ec7017cb26d80caa79d1cdda628fcccd0769b2ab54de6231
# body-sha256: cafd6a19c9006f2af5c6f6624b870b4268121d7c78669fe93e8015898d18b883
# space: pytorch
# strategy: sum_through_linear
# verification: passed: 11 checks, 5 input sets, max error 0.0051
# speedup: 3.13x over eager (0.06003 ms -> 0.01915 ms); 2.54x re-timed in a fresh process
# device: cuda: NVIDIA H200
# versions: torch 2.11.0+cu130, cuda 13.0, python 3.12.3
# date: 2026-11-30T00:42:28+0000
# run: 20261130-004103-optimize-591-70bbcd
# contract: input x: float32[4096, 512] contiguous
# contract: output out: float32[4096, 1] contiguous
# contract: static shapes (declare '# hiera: dynamic=NAME:DIM' for dims that vary)
# contract: precision: strict
# ------------------------------------------------------------------------------
"""x @ W^T (512 -> 256 features, no bias), divided by 2, summed over features, scaled by 1.5, on a
(4096, 512) batch -> (4096, 1).

By linearity the whole block equals x @ (1.5/2 * W.sum(0)): a matrix-vector product. Here it
measures epilogue fusion: the (4096, 256) product never needs to reach memory.
"""
import torch
import torch.nn as nn

BATCH = 4096
IN_FEATURES = 512
OUT_FEATURES = 256


class Model(nn.Module):
    def __init__(self, in_features, out_features, scale):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * in_features ** -0.5)
        self.scale = scale

    def forward(self, x):
        y = torch.matmul(x, self.weight.t()) / 2
        return y.sum(dim=1, keepdim=True) * self.scale


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, 1.5]


# ---- HIERA candidate: pytorch.sum_through_linear (pytorch) -------------------
import torch
import weakref

_HIERA_SUMMED = {}


def _hiera_summed(tensor, dim, factor):
    """tensor.sum(dim) * factor, kept while `tensor` is unchanged: the key holds its version
    counter (every in-place write bumps it: optimizer steps, load_state_dict, copy_) and its storage
    address (`.data =` replaces it). Under autograd it is recomputed so gradients reach `tensor`."""
    if torch.is_grad_enabled() and tensor.requires_grad:
        return tensor.sum(dim) * factor
    key = (tensor._version, tensor.data_ptr(), tensor.device, dim, factor)
    entry = _HIERA_SUMMED.get(id(tensor))
    if entry is None or entry[0]() is not tensor or entry[1] != key:
        entry = _HIERA_SUMMED[id(tensor)] = (weakref.ref(tensor), key, tensor.sum(dim) * factor)
    return entry[2]


class ModelNew(Model):
    """A sum over a linear map's output features computed as x @ (weights summed over those features): a matrix-vector product instead of the GEMM and its reduction."""

    def forward(self, x):
        weight_1 = self.weight
        summed_weight = _hiera_summed(weight_1, 0, 0.75);  weight_1 = None
        matmul_1 = torch.matmul(x, summed_weight);  x = summed_weight = None
        unsqueeze = matmul_1.unsqueeze(-1);  matmul_1 = None
        return unsqueeze

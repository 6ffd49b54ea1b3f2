"""Helpers for the custom-CUDA tests: example tasks, extra tasks, and a Spec and ImplementContext for each.

`task_context` builds the two by hand (FX trace plus ShapeProp, and the graph summary in the
engine's format): fast and independent of the engine; `test_with_the_engines_spec` checks the same
strategies against `hiera_core.spec.contract.prepare`.
"""

from __future__ import annotations

import ast
import json
import sys
import textwrap
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from hiera_core.spaces.strategy import ImplementContext  # noqa: E402
from hiera_core.spec.model import ParamInfo, Roofline, Spec, TensorInfo  # noqa: E402
from hiera_core.spec.opkinds import kind_of_module, kind_of_name  # noqa: E402
from hiera_core.spec.trace import trace_forward  # noqa: E402
from hiera_core.task.load import load_task as engine_load_task  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TASKS = tuple(sorted(path.stem for path in EXAMPLES.glob("*.py")))


@dataclass
class Task:
    path: Path
    cls: type
    init: list
    inputs: list


def load_task(path: Path) -> Task:
    """The task's class, constructor arguments and forward inputs, resolved as the engine does."""
    task = engine_load_task(str(path))
    return Task(path, task.cls, task.make_init(), task.make_inputs("cpu", seed=0))


def example_task(name: str) -> Task:
    return load_task(EXAMPLES / f"{name}.py")


# Small tasks covering what the examples do not:
# name -> (strategy expected, forward arguments, forward's return expression, inputs, constructor body).
_EXTRA_HEADER = """
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
"""
# `self.bn`'s running statistics and affine drawn far from their initial 0 and 1
RANDOM_BATCH_NORM = ("self.bn.running_mean.uniform_(-1, 1); self.bn.running_var.uniform_(0.5, 2); "
                     "nn.init.uniform_(self.bn.weight, 0.5, 1.5); nn.init.uniform_(self.bn.bias, -0.5, 0.5)")
EXTRA_TASKS = {
    "log_softmax_prologue": ("row_reduction", "x", "torch.log_softmax(x * 2.0 + self.b, dim=-1)",
                             "[torch.randn(64, 1001)]", "self.b = nn.Parameter(torch.randn(1001))"),
    "max_min_tuple": ("row_reduction", "x", "torch.max(x, dim=-1)[0], torch.min(x, dim=0)[1]",
                      "[torch.randn(70, 33, 45)]", ""),
    # The pair's fields by name, as KernelBench writes them (`torch.max(x, dim=1).values`)
    "max_min_pair_fields": ("row_reduction", "x",
                            "F.gelu(torch.max(x, dim=1, keepdim=True).values - x.mean(dim=1, keepdim=True)), "
                            "torch.min(x, dim=-1).indices", "[torch.randn(37, 301)]", ""),
    # Rows too few to fill the GPU one block each (a vocabulary's log-softmax, norms over long rows):
    # the split row kernel, one sweep (float4 reads; rows of odd length) and nested sweeps
    "few_long_rows": ("row_reduction", "x", "torch.log_softmax(x * 2.0, dim=-1), x / torch.norm(x, dim=-1, keepdim=True), "
                      "x.amax(dim=-1)", "[torch.randn(6, 40001)]", ""),
    "few_long_rows_nested": ("row_reduction", "x", "torch.relu(F.layer_norm(x + self.b, (40000,), eps=1e-3)), "
                             "(x - x.mean(dim=-1, keepdim=True)).abs().sum(dim=-1, keepdim=True)",
                             "[torch.randn(5, 40000)]", "self.b = nn.Parameter(torch.randn(40000))"),
    "arg_reductions_few_long_rows": ("row_reduction", "x", "torch.argmax(x, dim=-1), torch.argmin(x * 3.0, dim=1, keepdim=True)",
                                     "[torch.randn(3, 40001)]", ""),
    "amax_mean_middle": ("row_reduction", "x", "torch.amax(x, dim=1), torch.mean(x, dim=-2)", "[torch.randn(4, 301, 64)]", ""),
    "argmax_middle": ("row_reduction", "x", "torch.argmax(x, dim=1, keepdim=True)", "[torch.randn(6, 300, 40)]", ""),
    "center_dim0": ("row_reduction", "x", "x - x.mean(dim=0, keepdim=True)", "[torch.randn(1000, 96)]", ""),
    "layernorm_functional": ("row_reduction", "x", "torch.relu(F.layer_norm(x, (257,), eps=1e-3))",
                             "[torch.randn(16, 3, 257)]", ""),
    # Rows along the last dim of a permuted map (ConvNeXt's channels-last layer norm, a softmax over
    # a transposed map): copied contiguous, then rows a warp each
    "rows_of_permuted_maps": ("row_reduction", "x",
                              "F.layer_norm(x.permute(0, 2, 3, 1), (12,), self.w, self.b, 1e-6), "
                              "torch.softmax(x.flatten(2).transpose(1, 2) * 2.0, dim=-1)",
                              "[torch.randn(2, 12, 5, 7)]",
                              "self.w = nn.Parameter(torch.randn(12)); self.b = nn.Parameter(torch.randn(12))"),
    # Ops written out from the templates' pieces (lower_composed): norms, logsumexp, var/std, losses
    "norm_rows_and_total": ("row_reduction", "x", "x / torch.norm(x, p=2, dim=1, keepdim=True) + x / torch.norm(x)",
                            "[torch.randn(6, 1001)]", ""),
    "norm_middle_dim": ("row_reduction", "x", "torch.norm(x, dim=1) + x.norm(p=1, dim=1)", "[torch.randn(4, 301, 63)]", ""),
    "logsumexp_var_std": ("row_reduction", "x",
                          "torch.logsumexp(3.0 * x, dim=-1) + torch.var(x, dim=-1) "
                          "- torch.std(x, dim=-1, unbiased=False, keepdim=True).squeeze(-1)",
                          "[torch.randn(6, 1001)]", ""),
    "smooth_l1_huber": ("row_reduction", "a, b",
                        "F.smooth_l1_loss(a, b, beta=0.5) + F.huber_loss(a, b, reduction='sum', delta=2.0)",
                        "[2.0 * torch.randn(37, 129), torch.randn(37, 129)]", ""),
    "triplet_margin_module": ("row_reduction", "a, p, n", "self.loss(a, p, n)",
                              "[torch.randn(37, 1001), torch.randn(37, 1001), torch.randn(37, 1001)]",
                              "self.loss = nn.TripletMarginLoss(margin=0.7)"),
    "cosine_similarity_loss": ("row_reduction", "a, b", "torch.mean(1 - F.cosine_similarity(a, b, dim=1))",
                               "[torch.randn(37, 1001), torch.randn(37, 1001)]", ""),
    # Scans: the prologue computed as it is read; flips around a scan make it a reverse scan
    "masked_cumsum": ("row_reduction", "x, mask", "torch.cumsum(x * mask, dim=1)",
                      "[torch.randn(37, 1001), torch.rand(37, 1001) > 0.5]", ""),
    "reverse_cumsum": ("row_reduction", "x", "torch.cumsum(x.flip(-1), dim=-1).flip(-1) * 0.5",
                       "[torch.randn(13, 4096)]", ""),
    "cumprod_middle_dim": ("row_reduction", "x", "torch.cumprod(1.0 + 0.01 * x, dim=1)",
                           "[torch.randn(5, 301, 33)]", ""),
    "cumsum_dim0_broadcast": ("row_reduction", "x", "(x + self.b).cumsum(0).flip(0)",
                              "[torch.randn(257, 3, 40)]", "self.b = nn.Parameter(torch.randn(40))"),
    # Masks (bool tensors read as bytes, comparisons computed in the kernel): a padding mask buffer
    # before softmax, where/comparisons in a chain, and a mask as the forward's result
    "bool_buffer_masked_softmax": ("row_reduction", "x", "torch.softmax(x.masked_fill(~self.keep, -1e9), dim=-1)",
                                   "[torch.randn(3, 67, 67)]",
                                   "self.register_buffer('keep', torch.rand(67, 67) > 0.3)"),
    "where_compare_chain": ("pointwise_chain", "x, y", "torch.where(x > y, x * 2.0, torch.tanh(y)) + (x < 0).float()",
                            "[torch.randn(37, 1001), torch.randn(37, 1001)]", ""),
    "mask_result": ("pointwise_chain", "x", "((x > 0) & (x < 1)) | (x.abs() > 2.0)", "[torch.randn(37, 1001)]", ""),
    # A product over a dim (the dim-reduction template), instance norm (a group norm of one channel a group)
    "prod_dims": ("row_reduction", "x", "torch.prod(1.0 + 0.05 * x, dim=1) + torch.prod(1.0 + 0.05 * x, dim=-1).sum()",
                  "[torch.randn(6, 257, 63)]", ""),
    "instance_norm_module_relu": ("row_reduction", "x", "torch.relu(self.norm(x)) + F.instance_norm(x, eps=1e-3)",
                                  "[torch.randn(3, 5, 17, 23)]", "self.norm = nn.InstanceNorm2d(5, affine=True)"),
    "kl_div_losses": ("row_reduction", "p, q",
                      "F.kl_div(torch.log(p), q, reduction='batchmean') + F.kl_div(q, p.log(), reduction='sum', "
                      "log_target=True) + self.loss(p, q).sum()",
                      "[torch.softmax(torch.randn(37, 1001), -1), torch.relu(torch.randn(37, 1001)) / 100]",
                      "self.loss = nn.KLDivLoss(reduction='none')"),
    # Reductions over trailing dims (a global average pool): one row kernel over the flattened dims,
    # the prologue (bias, activation) computed as it is read
    "global_pool_head": ("row_reduction", "x",
                         "self.fc(torch.flatten(self.pool(torch.relu(self.conv(x))), 1)) "
                         "+ torch.amax(x * self.scale, dim=(-2, -1)).sum(-1, keepdim=True)",
                         "[torch.randn(2, 3, 17, 19)]",
                         "self.conv = nn.Conv2d(3, 8, 3); self.pool = nn.AdaptiveAvgPool2d((1, 1)); "
                         "self.fc = nn.Linear(8, 5); self.scale = nn.Parameter(torch.rand(3, 1, 1) + 0.5)"),
    "sum_trailing_3d_keepdim": ("row_reduction", "x", "x - torch.sum(torch.tanh(x + self.b), dim=(2, 3, 4), keepdim=True)",
                                "[torch.randn(2, 3, 5, 7, 9)]", "self.b = nn.Parameter(torch.randn(3, 1, 1, 1))"),
    # Reductions over several dims that are not all trailing (a batch norm's statistics over (0, 2, 3),
    # a sum over the leading dims, a max over all): the trailing run by rows, each other dim by the
    # dim template, a variance's mean shared with the forward's own
    "batch_statistics_dims": ("row_reduction", "x",
                              "(x - x.mean(dim=(0, 2, 3), keepdim=True)) * torch.rsqrt(x.var(dim=(0, 2, 3), "
                              "keepdim=True, unbiased=False) + 1e-5), torch.std(x, dim=(0, 2), keepdim=True) "
                              "+ x.var(dim=(0, 2, 3))[None, :, None, None], x.sum(dim=(0, 1)) "
                              "+ torch.amax(x, dim=(0, 1, 2, 3))",
                              "[torch.randn(4, 6, 9, 11) * 2 + 1]", ""),
    # Row ops along another dim than the last (softmax over channels): a thread a row
    "softmax_channels_epilogue": ("row_reduction", "x", "torch.sigmoid(torch.softmax(self.conv(x), dim=1))",
                                  "[torch.randn(2, 3, 17, 19)]", "self.conv = nn.Conv2d(3, 16, 3)"),
    "logsumexp_var_channels": ("row_reduction", "x",
                               "torch.relu(torch.logsumexp(2.0 * x, dim=1, keepdim=True)) + torch.var(x, dim=1, keepdim=True)",
                               "[torch.randn(3, 17, 5, 7)]", ""),
    # ConvNeXt's channels-first layer norm by hand: mean over a short dim 1 of many rows, one kernel,
    # 32 rows a tile (not a multiple of 32), the map kept in the tile for its three sweeps
    "layer_norm_channels_by_hand": ("row_reduction", "x",
                                    "(x - x.mean(1, keepdim=True)) / torch.sqrt((x - x.mean(1, keepdim=True)).pow(2)"
                                    ".mean(1, keepdim=True) + 1e-6) * self.w[:, None, None] + self.b[:, None, None]",
                                    "[torch.randn(2, 40, 97, 95).to(memory_format=torch.channels_last)]",
                                    "self.w = nn.Parameter(torch.randn(40)); self.b = nn.Parameter(torch.randn(40))"),
    # rows of 400 along dim 1: a tile too large to keep (re-read each sweep)
    "softmax_wide_channels": ("row_reduction", "x", "torch.softmax(x * 0.5, dim=1) + x.amax(dim=1, keepdim=True)",
                              "[torch.randn(3, 400, 7) * 4]", ""),
    "log_softmax_dim0": ("row_reduction", "x", "torch.log_softmax(x + self.b, dim=0)", "[torch.randn(33, 45)]",
                         "self.b = nn.Parameter(torch.randn(45))"),
    # Activations with a band or a per-channel weight, F.normalize over channels, max pooling to a point,
    # and a constant the forward makes with torch.tensor (KernelBench's `torch.min(x, torch.tensor(c))`)
    "shrink_prelu_normalize": ("row_reduction", "x",
                               "F.normalize(F.softshrink(x, 0.3) + F.hardshrink(x, 0.6), dim=1) + self.act(x)",
                               "[torch.randn(3, 5, 7, 9)]", "self.act = nn.PReLU(5, init=0.1)"),
    "traced_constant_min_max_head": ("row_reduction", "x",
                                     "self.fc(torch.flatten(self.pool(torch.min(self.conv(x), torch.tensor(0.25))), 1))",
                                     "[torch.randn(2, 3, 17, 19)]",
                                     "self.conv = nn.Conv2d(3, 8, 3); self.pool = nn.AdaptiveMaxPool2d(1); "
                                     "self.fc = nn.Linear(8, 5)"),
    # Python numbers the forward computes from sizes (attention's 1 / sqrt(d)): float kernel arguments
    "python_number_scales": ("row_reduction", "x",
                             "torch.softmax(x * (1.0 / math.sqrt(x.size(-1))), dim=-1) + x.cumsum(1) / x.size(1)",
                             "[torch.randn(37, 1001)]", ""),
    # Parts of a wider last dim (a packed SwiGLU's halves, GRU-style gate slices) read in place, rows apart
    "chunked_gates": ("pointwise_chain", "x",
                      "(lambda g: F.silu(g.chunk(2, dim=-1)[0]) * g.chunk(2, dim=-1)[1] "
                      "+ torch.sigmoid(g[..., :37]) * torch.tanh(g[..., 37:]))(self.fc(x))",
                      "[torch.randn(5, 3, 64)]", "self.fc = nn.Linear(64, 74)"),
    # torch.roll read in place: a periodic 5-point stencil; a roll of a partly broadcast product (computed first)
    "roll_periodic_stencils": ("pointwise_chain", "x",
                               "x + 0.1 * (torch.roll(x, 1, 0) + torch.roll(x, -1, 0) + torch.roll(x, 3, 1) "
                               "+ torch.roll(x, -1, 1) - 4 * x) + torch.roll(torch.relu(x * self.s), 2, dims=1)",
                               "[torch.randn(37, 45)]", "self.s = nn.Parameter(torch.randn(45))"),
    # Hugging Face's norms: a float32 round trip around the normalisation (casts to the dtype it has)
    "rmsnorm_cast_round_trip": ("row_reduction", "x",
                                "self.w * (x.to(torch.float32) * torch.rsqrt(x.to(torch.float32).pow(2).mean(-1, "
                                "keepdim=True) + 1e-6)).to(x.dtype).type_as(x)",
                                "[torch.randn(6, 1001)]", "self.w = nn.Parameter(1.0 + 0.1 * torch.randn(1001))"),
    "rmsnorm_module": ("row_reduction", "x", "self.norm(x)", "[torch.randn(8, 512)]", "self.norm = nn.RMSNorm(512)"),
    "avgpool_ceil": ("pooling", "x", "F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)",
                     "[torch.randn(2, 3, 15, 16)]", ""),
    "maxpool_1d_3d": ("pooling", "a, b", "self.p1(a), self.p3(b)", "[torch.randn(2, 3, 50), torch.randn(2, 2, 9, 10, 11)]",
                      "self.p1 = nn.MaxPool1d(4, stride=3, dilation=2); self.p3 = nn.MaxPool3d(2)"),
    "stencil2d_depthwise": ("stencil", "x", "F.conv2d(x, self.w, self.bias, padding=1, groups=3)",
                            "[torch.randn(2, 3, 40, 50)]",
                            "w = torch.zeros(3, 1, 3, 3); w[:, 0, 1, 1] = -4.0; w[:, 0, 0, 1] = 1.0; "
                            "w[:, 0, 2, 1] = 1.0; w[:, 0, 1, 0] = 1.0; w[:, 0, 1, 2] = 0.5; "
                            "self.register_buffer('w', w); self.register_buffer('bias', torch.arange(3.0))"),
    # Wider depthwise convolutions (ConvNeXt's 7x7 with its bias, a 5x5 with "same" padding and none):
    # the depthwise template, odd widths on either side of a tile's.
    "depthwise7_module": ("stencil", "x", "self.dwconv(x)", "[torch.randn(2, 5, 29, 57)]",
                          "self.dwconv = nn.Conv2d(5, 5, kernel_size=7, padding=3, groups=5)"),
    "depthwise5_same": ("stencil", "x", "F.conv2d(x, self.w, padding='same', groups=4)",
                        "[torch.randn(3, 4, 13, 130)]", "self.w = nn.Parameter(torch.randn(4, 1, 5, 5))"),
    # A depthwise convolution with its batch norm folded in, then ReLU6: the clamp is applied as it stores.
    "depthwise5_relu6": ("stencil", "x", "F.relu6(self.dw(x))", "[torch.randn(2, 6, 33, 31) * 3]",
                         "self.dw = nn.Conv2d(6, 6, 5, padding=2, groups=6)"),
    # Depthwise conv, inference batch norm (running statistics far from 0 and 1) and SiLU: one kernel.
    "depthwise5_bn_silu": ("stencil", "x", "F.silu(self.bn(self.dw(x)))", "[torch.randn(2, 6, 17, 40)]",
                           "self.dw = nn.Conv2d(6, 6, 5, padding=2, groups=6, bias=False); self.bn = nn.BatchNorm2d(6); "
                           + RANDOM_BATCH_NORM),
    # MobileNet's 3x3 depthwise conv, inference batch norm and ReLU6: the stencil template applies both as it stores.
    "depthwise3_bn_relu6": ("stencil", "x", "F.relu6(self.bn(self.dw(x)))", "[torch.randn(2, 5, 23, 50) * 2]",
                            "self.dw = nn.Conv2d(5, 5, 3, padding=1, groups=5, bias=False); self.bn = nn.BatchNorm2d(5); "
                            + RANDOM_BATCH_NORM),
    # Maps narrower than a tile's row (MobileNet's 14x14 and ConvNeXt's 7x7 stages): a thread per column.
    "depthwise3_narrow_bn_relu6": ("stencil", "x", "F.relu6(self.bn(self.dw(x)))", "[torch.randn(3, 6, 14, 14) * 2]",
                                   "self.dw = nn.Conv2d(6, 6, 3, padding=1, groups=6, bias=False); "
                                   "self.bn = nn.BatchNorm2d(6); " + RANDOM_BATCH_NORM),
    # A CNN stem: the batch norm and ReLU after the convolution applied by the max pool as it reads
    # (the pool's prologue); an average pool's prologue without per-channel values but a bias.
    "stem_bn_relu_maxpool": ("pooling", "x", "self.pool(torch.relu(self.bn(self.conv(x))))",
                             "[torch.randn(2, 3, 37, 45)]",
                             "self.conv = nn.Conv2d(3, 8, 7, stride=2, padding=3, bias=False); self.bn = nn.BatchNorm2d(8); "
                             "self.pool = nn.MaxPool2d(3, stride=2, padding=1); " + RANDOM_BATCH_NORM),
    "avgpool_tanh_prologue": ("pooling", "x", "F.avg_pool2d(torch.tanh(x * 2.0) + self.b, 3, stride=2, padding=1)",
                              "[torch.randn(2, 5, 15, 16)]", "self.b = nn.Parameter(torch.randn(5, 1, 1))"),
    "depthwise7_narrow": ("stencil", "x", "self.dwconv(x)", "[torch.randn(2, 5, 7, 9)]",
                          "self.dwconv = nn.Conv2d(5, 5, kernel_size=7, padding=3, groups=5)"),
    # KernelBench's depthwise convolutions pad less than their radius (none): the column kernel
    # computes the smaller output only; a 5x5 padded by one with its ReLU, on a narrow map.
    "depthwise3_unpadded": ("stencil", "x", "self.dw(x)", "[torch.randn(2, 6, 33, 47)]",
                            "self.dw = nn.Conv2d(6, 6, 3, groups=6)"),
    "depthwise5_pad1_relu": ("stencil", "x", "F.relu(F.conv2d(x, self.w, padding=1, groups=4))",
                             "[torch.randn(3, 4, 20, 30)]", "self.w = nn.Parameter(torch.randn(4, 1, 5, 5))"),
    # Windows that are not square (KernelBench's 3x1 and 3x7, unpadded), on a map wider than a tile.
    "depthwise3x1_unpadded": ("stencil", "x", "self.dw(x)", "[torch.randn(2, 8, 30, 41)]",
                              "self.dw = nn.Conv2d(8, 8, (3, 1), groups=8, bias=False)"),
    "depthwise3x7_relu": ("stencil", "x", "F.relu(self.dw(x))", "[torch.randn(2, 6, 21, 90)]",
                          "self.dw = nn.Conv2d(6, 6, (3, 7), padding=(0, 1), groups=6)"),
    "heat2d_narrow_slices": ("stencil", "u",
                             "(lambda p: u + 0.2 * (p[..., 2:, 1:-1] + p[..., :-2, 1:-1] + p[..., 1:-1, 2:] + "
                             "p[..., 1:-1, :-2] - 4.0 * u))(F.pad(u, (1, 1, 1, 1)))", "[torch.randn(5, 30, 12)]", ""),
    "stencil3d_dense": ("stencil", "x", "self.conv(x)", "[torch.randn(1, 1, 20, 24, 40)]",
                        "self.conv = nn.Conv3d(1, 1, 3, padding=1)"),
    "box_blur2d": ("stencil", "x", "F.conv2d(x, self.w, padding=1)", "[torch.randn(2, 1, 33, 70)]",
                   "self.register_buffer('w', torch.full((1, 1, 3, 3), 1.0 / 9.0))"),
    "batchnorm_relu": ("pointwise_chain", "x", "torch.relu(self.bn(x))", "[torch.randn(4, 6, 9, 11)]",
                       "self.bn = nn.BatchNorm2d(6, eps=1e-3); self.bn.running_mean.uniform_(-1, 1); "
                       "self.bn.running_var.uniform_(0.5, 2.0); nn.init.uniform_(self.bn.weight, 0.5, 1.5); "
                       "nn.init.uniform_(self.bn.bias, -0.5, 0.5)"),
    "batchnorm_functional_1d": ("pointwise_chain", "x", "F.batch_norm(x * 2.0, self.rm, self.rv, self.w, None, False, 0.1, 1e-3)",
                                "[torch.randn(8, 5, 33)]",
                                "self.register_buffer('rm', torch.randn(5)); self.register_buffer('rv', torch.rand(5) + 0.5); "
                                "self.w = nn.Parameter(torch.randn(5))"),
    "group_norm_module": ("row_reduction", "x", "self.norm(x)", "[torch.randn(3, 12, 7, 9) * 2 + 1]",
                          "self.norm = nn.GroupNorm(4, 12); nn.init.uniform_(self.norm.weight, 0.5, 1.5); "
                          "nn.init.uniform_(self.norm.bias, -0.5, 0.5)"),
    "group_norm_functional": ("row_reduction", "x", "F.silu(F.group_norm(x, 2, None, None, 1e-3))",
                              "[torch.randn(4, 6, 8, 16)]", ""),
    "layer_norm_dims_module": ("row_reduction", "x", "self.norm(x)", "[torch.randn(3, 4, 6, 10) * 2 + 1]",
                               "self.norm = nn.LayerNorm([4, 6, 10]); nn.init.uniform_(self.norm.weight, 0.5, 1.5); "
                               "nn.init.uniform_(self.norm.bias, -0.5, 0.5)"),
    "layer_norm_dims_functional": ("row_reduction", "x", "F.gelu(F.layer_norm(x, (6, 10), None, None, 1e-3))",
                                   "[torch.randn(2, 5, 6, 10)]", ""),
    "mse_loss_sum": ("row_reduction", "a, b", "F.mse_loss(a, b, reduction='sum') + (a * 0.5).mean()",
                     "[torch.randn(33, 127), torch.randn(33, 127)]", ""),
    # Stencils spelled as scientific codes write them: slices of a zero-padded grid (one explicit
    # Euler step of the heat equation; twice in 2D, as a two-step Jacobi sweep).
    "stencil3d_slices": ("stencil", "u",
                         "(lambda p: u + 0.1 * (p[:, :, 2:, 1:-1, 1:-1] + p[:, :, :-2, 1:-1, 1:-1] + p[:, :, 1:-1, 2:, 1:-1]"
                         " + p[:, :, 1:-1, :-2, 1:-1] + p[:, :, 1:-1, 1:-1, 2:] + p[:, :, 1:-1, 1:-1, :-2]"
                         " - 6 * p[:, :, 1:-1, 1:-1, 1:-1]))(F.pad(u, (1, 1, 1, 1, 1, 1)))",
                         "[torch.randn(2, 1, 20, 24, 40)]", ""),
    "heat2d_two_steps_slices": ("stencil", "u",
                                "(lambda step: step(step(u)))(lambda v: (lambda p: v + 0.2 * (p[..., 2:, 1:-1] + "
                                "p[..., :-2, 1:-1] + p[..., 1:-1, 2:] + p[..., 1:-1, :-2] - 4.0 * v))"
                                "(F.pad(v, (1, 1, 1, 1))))",
                                "[torch.randn(3, 45, 70)]", ""),
    # A stencil between ops no template has (a roll over two dims, a concatenation): glue inductor can compile.
    "stencil_between_glue": ("stencil", "u",
                             "torch.cat([(lambda p: u + 0.1 * (p[:, :, 2:, 1:-1, 1:-1] + p[:, :, :-2, 1:-1, 1:-1]"
                             " + p[:, :, 1:-1, 2:, 1:-1] + p[:, :, 1:-1, :-2, 1:-1] + p[:, :, 1:-1, 1:-1, 2:]"
                             " + p[:, :, 1:-1, 1:-1, :-2] - 6 * p[:, :, 1:-1, 1:-1, 1:-1]))(F.pad(u, (1, 1, 1, 1, 1, 1))),"
                             " torch.roll(u, (1, 2), (3, 4))], dim=1)",
                             "[torch.randn(2, 1, 12, 16, 20)]", ""),
    # A scan, and a depthwise convolution, before a layer norm (across a permute) and GELU or a residual.
    "cumsum_then_layer_norm": ("row_reduction", "x", "F.gelu(F.layer_norm(x.cumsum(1) * 0.01, (129,), self.w, self.b))",
                               "[torch.randn(3, 515, 129)]",
                               "self.w = nn.Parameter(torch.rand(129) + 0.5); self.b = nn.Parameter(torch.randn(129))"),
    "depthwise_then_layer_norm": ("stencil", "x",
                                  "x + F.layer_norm(self.dw(x).permute(0, 2, 3, 1), (24,)).permute(0, 3, 1, 2)",
                                  "[torch.randn(2, 24, 19, 23)]", "self.dw = nn.Conv2d(24, 24, 5, padding=2, groups=24)"),
    # An op no template has (logcumsumexp) between a library op and a chain: the chain still gets its kernel.
    "conv_transpose_unknown_op_chain": ("pointwise_chain", "x",
                                        "(lambda y: torch.tanh(y) * 0.5 + y)(self.drop(F.gelu(torch.logcumsumexp(self.up(x), "
                                        "dim=1) * self.scale + 1.0)))",
                                        "[torch.randn(2, 8, 17, 19)]",
                                        "self.up = nn.ConvTranspose2d(8, 16, 3, stride=2, padding=1); "
                                        "self.drop = nn.Dropout(0.1); self.scale = nn.Parameter(torch.rand(16, 1, 1) + 0.5)"),
    "broadcast_chain": ("pointwise_chain", "x, y", "torch.maximum(torch.tanh(x * self.scale + y), self.floor)",
                        "[torch.randn(2, 5, 7, 9), torch.randn(2, 1, 7, 9)]",
                        "self.scale = nn.Parameter(torch.randn(5, 1, 1)); self.floor = nn.Parameter(torch.zeros(9))"),
    # Class losses over (N, C) scores: logsumexp minus the target's score in one row kernel; rows whose
    # target is ignore_index (3 here, drawn among the targets) count nothing, and the mean skips them.
    "class_losses": ("row_reduction", "p, t",
                     "self.loss(p * 2.0 + self.b, t), F.cross_entropy(p, t, reduction='none'), "
                     "F.nll_loss(F.log_softmax(p, dim=1), t, reduction='sum')",
                     "[torch.randn(53, 37), torch.randint(0, 37, (53,))]",
                     "self.loss = nn.CrossEntropyLoss(ignore_index=3); self.b = nn.Parameter(torch.randn(37))"),
    # A product with a diagonal matrix scales rows or columns: no GEMM, no n*n matrix (odd sizes, a batch).
    "diagonal_products": ("pointwise_chain", "v, a, b",
                          "torch.relu(torch.diag(v) @ a), torch.matmul(b, torch.diag(v * self.w)), "
                          "torch.mm(torch.diag(v.abs()), a) + 1.0",
                          "[torch.randn(301), torch.randn(301, 77), torch.randn(3, 5, 301)]",
                          "self.w = nn.Parameter(torch.randn(301))"),
}


def extra_task(name: str, folder: Path) -> Task:
    """Write EXTRA_TASKS[name] as a KernelBench-style file in `folder` and load it."""
    _, arguments, body, inputs, init = EXTRA_TASKS[name]
    source = (_EXTRA_HEADER + (f"        {init}\n" if init else "")
              + f"\n    def forward(self, {arguments}):\n        return {body}\n\n\n"
              + f"def get_inputs():\n    return {inputs}\n\n\ndef get_init_inputs():\n    return []\n")
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return load_task(path)


def _json_arg(value):
    if isinstance(value, torch.fx.Node):
        return {"node": value.name}
    if isinstance(value, (list, tuple)):
        return [_json_arg(v) for v in value]
    try:
        json.dumps(value)
        return value
    except TypeError:
        return repr(value)


def graph_summary(gm) -> dict:
    """The spec's graph summary, in the engine's format."""
    nodes = []
    for node in gm.graph.nodes:
        module_type = type(gm.get_submodule(node.target)).__name__ if node.op == "call_module" else None
        if node.op == "call_function":
            module = "operator" if node.target.__module__ == "_operator" else node.target.__module__
            target = f"{module}.{node.target.__name__}"
            kind = kind_of_name(target)
        else:
            target = str(node.target)
            kind = kind_of_module(module_type) if module_type else kind_of_name(target)
        meta = node.meta.get("tensor_meta")
        nodes.append({"name": node.name, "op": node.op, "target": target, "module_type": module_type, "kind": kind,
                      "args": [_json_arg(a) for a in node.args],
                      "kwargs": {k: _json_arg(v) for k, v in node.kwargs.items()},
                      "shape": list(meta.shape) if hasattr(meta, "shape") else None,
                      "dtype": str(meta.dtype).removeprefix("torch.") if hasattr(meta, "dtype") else None})
    return {"traceable": True, "reason": "", "nodes": nodes}


def _tensor_info(name: str, t) -> TensorInfo:
    return TensorInfo(name, list(t.shape), str(t.dtype).removeprefix("torch."), list(t.stride()),
                      t.is_contiguous(), str(t.device))


def task_context(task: Task) -> ImplementContext:
    """The worker's context for `task`, with the spec the planner would see."""
    torch.manual_seed(0)
    model = task.cls(*task.init).eval()  # the engine's inference contract (hiera_core.task.load)
    gm, _ = trace_forward(model, list(task.inputs))  # the engine's trace (hiera_core.spec.contract.trace_graph)
    torch.fx.passes.shape_prop.ShapeProp(gm).propagate(*task.inputs)
    output = model(*task.inputs)
    outputs = list(output) if isinstance(output, tuple) else [output]
    roofline = Roofline("h200", "NVIDIA H200", 67e12, 4.3e12, 0.0, 0.0, 0.0, "memory")
    names = [n.target for n in gm.graph.nodes if n.op == "placeholder"]
    spec = Spec(file=str(task.path), class_name=task.cls.__name__, task_format="kernelbench", source_sha256="0" * 64,
                device="cuda", inputs=[_tensor_info(n, t) for n, t in zip(names, task.inputs)],
                outputs=[_tensor_info(f"output{k}", o) for k, o in enumerate(outputs)], init_args=[repr(a) for a in task.init],
                parameters=[ParamInfo(n, list(p.shape), "float32", "parameter") for n, p in model.named_parameters()]
                + [ParamInfo(n, list(b.shape), "float32", "buffer") for n, b in model.named_buffers()],
                precision="strict", dynamic_dims=[], tolerance={}, flops=0.0, bytes_min=0.0, intensity=0.0,
                roofline=roofline, ops=[], op_kinds=sorted({n["kind"] for n in graph_summary(gm)["nodes"]}),
                kernel_launches=0, workload_class="memory-bound", graph=graph_summary(gm))
    return ImplementContext(spec, task.cls.__name__, model, task.inputs, gm, "cpu")


def build_proposal(task: Task, code: str) -> dict:
    """Execute reference source + candidate code as the engine does, in a module of its own (dynamo
    looks up the module of the code it compiles); the resulting namespace."""
    module = types.ModuleType(f"hiera_proposal_{task.path.stem}")
    sys.modules[module.__name__] = module
    exec(compile(task.path.read_text() + "\n\n" + code, f"{task.path.stem}_hiera.py", "exec"), module.__dict__)
    return module.__dict__


def candidate_for(ctx: ImplementContext):
    """(strategy key, candidate) of the custom-CUDA strategies that apply; (None, None) if none does."""
    from hiera_core.spaces.custom_cuda import STRATEGIES

    applying = [s for s in STRATEGIES.values() if s.applies(ctx.spec)]
    assert len(applying) <= 1, [s.key for s in applying]
    if not applying:
        return None, None
    return applying[0].key, applying[0].generate(ctx)


def forward_of(code: str) -> ast.FunctionDef:
    tree = ast.parse(code)
    model_new = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew")
    return next(n for n in model_new.body if isinstance(n, ast.FunctionDef) and n.name == "forward")


def forward_source(code: str) -> str:
    """ModelNew.forward without comments."""
    return ast.unparse(forward_of(code))


def check_emulated(task: Task, code: str, tolerance: float = 1e-5, **entries) -> None:
    """The proposal `code`, its runtime entry points named in `entries` replaced by CPU emulations,
    run on the task's inputs with the reference's parameters: the reference's values."""
    namespace = build_proposal(task, code)
    namespace.update(entries)
    model, reference = namespace["ModelNew"]().eval(), namespace["Model"]().eval()
    model.load_state_dict(reference.state_dict())
    with torch.no_grad():
        torch.testing.assert_close(model(*task.inputs), reference(*task.inputs), rtol=tolerance, atol=tolerance)


def emulated_stencils():
    """The stencil runtime entry points, emulated on the CPU by the convolutions they compute."""
    import torch
    import torch.nn.functional as F

    def constant(source, name, x, coefficients, rank, tile):
        weight = torch.tensor(coefficients).reshape((1, 1) + (3,) * rank)
        conv = F.conv3d if rank == 3 else F.conv2d
        return conv(x.reshape((-1, 1) + tuple(x.shape[-rank:])), weight, padding=1).reshape(x.shape)

    def steps(source, name, x, coefficients, tile):
        for step in coefficients:
            x = constant(source, name, x, step, 2, tile)
        return x

    return {"_hiera_stencil_constant": constant, "_hiera_stencil_steps": steps}

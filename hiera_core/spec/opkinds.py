"""Op kinds: one vocabulary for FX nodes, aten ops and the planner. Pure (no torch).

Kinds: pointwise, matmul, conv, reduction, softmax, norm, pool, attention, view, copy, other.
"""

from __future__ import annotations

POINTWISE = {
    "add", "sub", "mul", "div", "truediv", "floordiv", "neg", "abs", "pow", "sqrt", "rsqrt", "exp",
    "exp2", "log", "log1p", "log2", "expm1", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "relu6",
    "gelu", "silu", "mish", "elu", "selu", "celu", "leaky_relu", "hardtanh", "hardsigmoid",
    "hardswish", "softplus", "softsign", "clamp", "clamp_min", "clamp_max", "clip", "where",
    "maximum", "minimum", "sign", "floor", "ceil", "round", "trunc", "reciprocal", "erf", "erfc",
    "square", "addcmul", "addcdiv", "lerp", "threshold", "logsigmoid", "tanhshrink", "hardshrink",
    "softshrink", "dropout", "to", "float", "half", "bfloat16", "type_as", "masked_fill", "fill",
    "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_not", "bitwise_and",
    "rsub", "fmod", "remainder", "atan", "asin", "acos", "sinh", "cosh", "asinh", "atanh",
    "sigmoid_", "relu_", "add_", "mul_", "identity", "contiguous", "clone", "iadd", "imul",
}
REDUCTION = {"sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "prod", "std", "var",
             "norm", "logsumexp", "cumsum", "cumprod", "all", "any", "var_mean", "std_mean", "count_nonzero"}
SOFTMAX = {"softmax", "log_softmax", "_softmax", "_log_softmax", "softmin"}
NORM = {"layer_norm", "batch_norm", "group_norm", "instance_norm", "rms_norm", "native_layer_norm",
        "native_batch_norm", "_native_batch_norm_legit_no_training", "native_group_norm", "local_response_norm",
        "normalize"}
MATMUL = {"matmul", "mm", "bmm", "addmm", "baddbmm", "linear", "einsum", "addbmm", "addmv", "mv",
          "dot", "tensordot", "bilinear", "_addmm_activation", "outer"}
CONV = {"conv1d", "conv2d", "conv3d", "convolution", "conv_transpose1d", "conv_transpose2d",
        "conv_transpose3d", "_convolution", "cudnn_convolution", "conv_tbc"}
POOL = {"max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
        "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
        "adaptive_max_pool2d", "adaptive_max_pool3d", "max_pool2d_with_indices", "max_pool3d_with_indices",
        "lp_pool1d", "lp_pool2d"}
ATTENTION = {"scaled_dot_product_attention", "_scaled_dot_product_efficient_attention",
             "_scaled_dot_product_flash_attention", "_scaled_dot_product_cudnn_attention", "multi_head_attention_forward"}
VIEW = {"view", "reshape", "permute", "transpose", "t", "flatten", "unflatten", "squeeze", "unsqueeze",
        "expand", "expand_as", "narrow", "select", "slice", "getitem", "split", "chunk", "unbind",
        "view_as", "_unsafe_view", "alias", "size", "dim", "movedim", "as_strided", "detach"}
COPY = {"cat", "stack", "copy_", "_to_copy", "pad", "constant_pad_nd", "repeat", "roll", "flip",
        "index_select", "gather", "scatter", "embedding", "index", "masked_select", "zeros_like",
        "ones_like", "empty_like", "full_like", "new_zeros", "tril", "triu", "interpolate",
        "upsample_nearest2d", "upsample_bilinear2d", "pixel_shuffle"}

MODULE_KINDS = {
    "Linear": "matmul", "Bilinear": "matmul", "LazyLinear": "matmul",
    "Conv1d": "conv", "Conv2d": "conv", "Conv3d": "conv", "ConvTranspose1d": "conv",
    "ConvTranspose2d": "conv", "ConvTranspose3d": "conv",
    "LayerNorm": "norm", "BatchNorm1d": "norm", "BatchNorm2d": "norm", "BatchNorm3d": "norm",
    "GroupNorm": "norm", "InstanceNorm1d": "norm", "InstanceNorm2d": "norm", "InstanceNorm3d": "norm",
    "RMSNorm": "norm", "LocalResponseNorm": "norm",
    "Softmax": "softmax", "LogSoftmax": "softmax", "Softmin": "softmax",
    "MaxPool1d": "pool", "MaxPool2d": "pool", "MaxPool3d": "pool", "AvgPool1d": "pool",
    "AvgPool2d": "pool", "AvgPool3d": "pool", "AdaptiveAvgPool1d": "pool", "AdaptiveAvgPool2d": "pool",
    "AdaptiveAvgPool3d": "pool", "AdaptiveMaxPool2d": "pool",
    "MultiheadAttention": "attention",
    "Dropout": "pointwise", "Identity": "pointwise", "Flatten": "view", "Unflatten": "view",
    "Embedding": "copy", "Upsample": "copy",
}
for _activation in ("ReLU", "ReLU6", "GELU", "SiLU", "Mish", "ELU", "SELU", "CELU", "LeakyReLU",
                    "Hardtanh", "Hardsigmoid", "Hardswish", "Sigmoid", "Tanh", "Softplus", "Softsign",
                    "Threshold", "LogSigmoid", "Tanhshrink", "Hardshrink", "Softshrink", "PReLU"):
    MODULE_KINDS[_activation] = "pointwise"


def base_name(name: str) -> str:
    """'aten::add.Tensor' / 'torch.nn.functional.gelu' / 'add_' -> 'add' / 'gelu' / 'add_'."""
    name = name.split("::")[-1].split(".")[0] if "::" in name else name.rsplit(".", 1)[-1]
    return name.strip("_") if name.startswith("__") else name


def kind_of_name(name: str) -> str:
    """Kind of an aten op or torch function name."""
    base = base_name(name)
    for table, kind in ((CONV, "conv"), (MATMUL, "matmul"), (ATTENTION, "attention"), (SOFTMAX, "softmax"),
                        (NORM, "norm"), (POOL, "pool"), (REDUCTION, "reduction"), (VIEW, "view"),
                        (COPY, "copy"), (POINTWISE, "pointwise")):
        if base in table or base.rstrip("_") in table:
            return kind
    return "other"


def kind_of_module(module_type: str) -> str:
    return MODULE_KINDS.get(module_type, "other")

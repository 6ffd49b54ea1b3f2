"""The lowering's records: the traced graph's ops (from the spec's graph summary, or from the FX
graph in the worker), what may be known beyond the graph (`Resolver`: module attributes, tensor
values), and what a lowering produces (`Step`s, a `Lowering`). Pure (no torch).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hiera_core.spaces.custom_cuda.expr import Expr

FAMILIES = ("stencil", "pooling", "row_reduction", "pointwise")  # priority: the first present leads

ALIASES = {"truediv": "div", "true_divide": "div", "divide": "div", "clip": "clamp", "multiply": "mul",
           "subtract": "sub", "negative": "neg", "special_expit": "sigmoid", "absolute": "abs",
           "greater": "gt", "greater_equal": "ge", "less": "lt", "less_equal": "le", "not_equal": "ne",
           "bitwise_not": "invert", "bitwise_and": "and_", "bitwise_or": "or_", "bitwise_xor": "xor",
           "__and__": "and_", "__or__": "or_", "__xor__": "xor", "__invert__": "invert"}
MODULE_FUNCTIONS = {
    "ReLU": "relu", "ReLU6": "relu6", "GELU": "gelu", "SiLU": "silu", "Sigmoid": "sigmoid", "Tanh": "tanh",
    "Mish": "mish", "ELU": "elu", "CELU": "celu", "SELU": "selu", "LeakyReLU": "leaky_relu",
    "Hardtanh": "hardtanh", "Hardsigmoid": "hardsigmoid", "Hardswish": "hardswish", "Softplus": "softplus",
    "Softsign": "softsign", "LogSigmoid": "logsigmoid", "Tanhshrink": "tanhshrink", "Threshold": "threshold",
    "Hardshrink": "hardshrink", "Softshrink": "softshrink", "PReLU": "prelu",
    "Identity": "identity", "Flatten": "flatten", "Softmax": "softmax", "LogSoftmax": "log_softmax",
    "LayerNorm": "layer_norm", "RMSNorm": "rms_norm", "Linear": "linear",
    "BatchNorm1d": "batch_norm", "BatchNorm2d": "batch_norm", "BatchNorm3d": "batch_norm", "GroupNorm": "group_norm",
    "InstanceNorm1d": "instance_norm", "InstanceNorm2d": "instance_norm", "InstanceNorm3d": "instance_norm",
    "MSELoss": "mse_loss", "SmoothL1Loss": "smooth_l1_loss", "HuberLoss": "huber_loss", "KLDivLoss": "kl_div",
    "CrossEntropyLoss": "cross_entropy", "NLLLoss": "nll_loss",
    "CosineSimilarity": "cosine_similarity", "TripletMarginLoss": "triplet_margin_loss", "Dropout": "dropout", "Dropout1d": "dropout", "Dropout2d": "dropout",
    "Dropout3d": "dropout", "AlphaDropout": "dropout",
    "Conv1d": "conv1d", "Conv2d": "conv2d", "Conv3d": "conv3d", "ConvTranspose1d": "conv_transpose1d",
    "ConvTranspose2d": "conv_transpose2d", "ConvTranspose3d": "conv_transpose3d",
    "MaxPool1d": "max_pool1d", "MaxPool2d": "max_pool2d", "MaxPool3d": "max_pool3d",
    "AvgPool1d": "avg_pool1d", "AvgPool2d": "avg_pool2d", "AvgPool3d": "avg_pool3d",
    "AdaptiveAvgPool1d": "adaptive_avg_pool1d", "AdaptiveAvgPool2d": "adaptive_avg_pool2d",
    "AdaptiveAvgPool3d": "adaptive_avg_pool3d", "AdaptiveMaxPool1d": "adaptive_max_pool1d",
    "AdaptiveMaxPool2d": "adaptive_max_pool2d", "AdaptiveMaxPool3d": "adaptive_max_pool3d",
}
# Module attribute -> function parameter, for modules lowered like their functional form.
MODULE_PARAMS = {
    "gelu": {"approximate": "approximate"}, "leaky_relu": {"negative_slope": "negative_slope"},
    "elu": {"alpha": "alpha"}, "celu": {"alpha": "alpha"}, "hardtanh": {"min_val": "min_val", "max_val": "max_val"},
    "softplus": {"beta": "beta", "threshold": "threshold"}, "threshold": {"threshold": "threshold", "value": "value"},
    "softmax": {"dim": "dim"}, "log_softmax": {"dim": "dim"},
}
SIGNATURES = {
    "add": ("input", "other", "alpha"), "sub": ("input", "other", "alpha"), "rsub": ("input", "other", "alpha"),
    "mul": ("input", "other"), "div": ("input", "other", "rounding_mode"), "pow": ("input", "exponent"),
    "matmul": ("input", "other"), "mm": ("input", "mat2"), "diag": ("input", "diagonal"),
    "linear": ("input", "weight", "bias"),
    "maximum": ("input", "other"), "minimum": ("input", "other"),
    "clamp": ("input", "min", "max"), "clamp_min": ("input", "min"), "clamp_max": ("input", "max"),
    "gelu": ("input", "approximate"), "leaky_relu": ("input", "negative_slope", "inplace"),
    "hardtanh": ("input", "min_val", "max_val", "inplace"), "elu": ("input", "alpha", "inplace"),
    "celu": ("input", "alpha", "inplace"), "softplus": ("input", "beta", "threshold"),
    "threshold": ("input", "threshold", "value", "inplace"), "lerp": ("input", "end", "weight"),
    "hardshrink": ("input", "lambd"), "softshrink": ("input", "lambd"), "prelu": ("input", "weight"),
    "normalize": ("input", "p", "dim", "eps", "out"),
    "addcmul": ("input", "tensor1", "tensor2", "value"), "addcdiv": ("input", "tensor1", "tensor2", "value"),
    "softmax": ("input", "dim"), "log_softmax": ("input", "dim"),
    "layer_norm": ("input", "normalized_shape", "weight", "bias", "eps"),
    "rms_norm": ("input", "normalized_shape", "weight", "eps"),
    "batch_norm": ("input", "running_mean", "running_var", "weight", "bias", "training", "momentum", "eps"),
    "group_norm": ("input", "num_groups", "weight", "bias", "eps"),
    "instance_norm": ("input", "running_mean", "running_var", "weight", "bias", "use_input_stats", "momentum", "eps"),
    "mse_loss": ("input", "target", "size_average", "reduce", "reduction"),
    "smooth_l1_loss": ("input", "target", "size_average", "reduce", "reduction", "beta"),
    "huber_loss": ("input", "target", "reduction", "delta"),
    "kl_div": ("input", "target", "size_average", "reduce", "reduction", "log_target"),
    "cross_entropy": ("input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction",
                      "label_smoothing"),
    "nll_loss": ("input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction"),
    "cosine_similarity": ("input", "x2", "dim", "eps"),
    "triplet_margin_loss": ("input", "positive", "negative", "margin", "p", "eps", "swap", "size_average", "reduce",
                            "reduction"),
    "norm": ("input", "p", "dim", "keepdim", "out", "dtype"), "logsumexp": ("input", "dim", "keepdim"),
    "var": ("input", "dim", "unbiased", "keepdim"), "std": ("input", "dim", "unbiased", "keepdim"),
    "sum": ("input", "dim", "keepdim", "dtype"), "mean": ("input", "dim", "keepdim", "dtype"),
    "prod": ("input", "dim", "keepdim", "dtype"),
    "amax": ("input", "dim", "keepdim"), "amin": ("input", "dim", "keepdim"), "max": ("input", "dim", "keepdim"),
    "min": ("input", "dim", "keepdim"), "argmax": ("input", "dim", "keepdim"), "argmin": ("input", "dim", "keepdim"),
    "max_pool1d": ("input", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"),
    "max_pool2d": ("input", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"),
    "max_pool3d": ("input", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"),
    "avg_pool1d": ("input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"),
    "avg_pool2d": ("input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"),
    "avg_pool3d": ("input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"),
    "pad": ("input", "pad", "mode", "value"),
    **{f"adaptive_avg_pool{rank}d": ("input", "output_size") for rank in (1, 2, 3)},
    **{f"adaptive_max_pool{rank}d": ("input", "output_size", "return_indices") for rank in (1, 2, 3)},
    **{fn: ("input", "other") for fn in ("gt", "ge", "lt", "le", "eq", "ne", "logical_and", "logical_or",
                                         "logical_xor", "and_", "or_", "xor")},
    "where": ("condition", "input", "other"), "masked_fill": ("input", "mask", "value"),
    "cumsum": ("input", "dim", "dtype"), "cumprod": ("input", "dim", "dtype"), "flip": ("input", "dims"),
    "roll": ("input", "shifts", "dims"),
    "conv2d": ("input", "weight", "bias", "stride", "padding", "dilation", "groups"),
    "conv3d": ("input", "weight", "bias", "stride", "padding", "dilation", "groups"),
}


class Unsupported(Exception):
    """The graph has a node no template handles; the message says which and why."""


@dataclass(frozen=True)
class Ref:
    name: str


@dataclass
class Op:
    name: str
    op: str  # placeholder | get_attr | call_function | call_method | call_module | output
    fn: str  # normalized function name: "add", "relu", "linear", "conv3d"...; else the target
    target: str
    module_type: str | None
    args: list
    kwargs: dict
    shape: tuple | None
    dtype: str | None
    # A one-element tensor FX made while tracing (`torch.tensor(0.5)` in the forward): its value, where
    # the traced graph is at hand (generation); None while planning from the spec's summary.
    constant: float | None = None


@dataclass
class Step:
    """One statement of the generated forward."""

    family: str  # "pointwise" | "rows" | "reduce" | "total" | "scan" | "pool" | "stencil" | "group_norm" | "library"
    targets: list[str]  # variables it assigns
    exprs: list[Expr] = field(default_factory=list)  # pointwise/rows/total/scan: the values computed or read
    call: str = ""  # library: the Python expression
    inputs: list[str] = field(default_factory=list)  # reduce/pool/stencil: Python expressions read
    config: dict = field(default_factory=dict)  # reduce/pool/stencil parameters
    covers: list[str] = field(default_factory=list)  # FX nodes this step computes


@dataclass
class Lowering:
    steps: list[Step]
    returns: str
    inputs: list[str]  # forward argument names
    contracts: list[str] = field(default_factory=list)  # assumptions the proposal's header states
    # Nodes no template handles, left to PyTorch as they are (op name -> why): a graph with one
    # unknown op still gets kernels for the regions that have templates.
    fallbacks: dict[str, str] = field(default_factory=dict)

    @property
    def kernel_steps(self) -> list[Step]:
        return [s for s in self.steps if s.family != "library"]

    @property
    def family(self) -> str | None:
        """The template leading this lowering, or None when no kernel fuses anything (a pointwise
        kernel of one op fuses something when it covers two nodes: a product with a diagonal matrix)."""
        present = {FAMILY_OF_STEP[s.family] for s in self.kernel_steps
                   if s.family != "pointwise" or fused_op_count(s) >= 2 or len(s.covers) >= 2}
        return next((f for f in FAMILIES if f in present), None)

    def describe(self) -> str:
        parts = []
        for step in self.steps:
            if step.family == "library" and any(cover in self.fallbacks for cover in step.covers):
                parts.append(f"leaves {', '.join(step.covers)} to PyTorch")
            elif step.family == "library":
                parts.append(f"calls {step.call.split('(')[0]}")
            elif step.family in ("pointwise", "rows"):
                parts.append(f"{step.family} kernel fusing {', '.join(step.covers) or 'a copy'}")
            else:
                parts.append(f"{step.family} kernel for {', '.join(step.covers)}")
        return "; ".join(parts)


FAMILY_OF_STEP = {"pointwise": "pointwise", "rows": "row_reduction", "reduce": "row_reduction",
                  "group_norm": "row_reduction", "total": "row_reduction", "scan": "row_reduction", "pool": "pooling",
                  "stencil": "stencil"}


def fused_op_count(step: Step) -> int:
    seen: set = set()
    return sum(1 for e in step.exprs for node in e.walk(seen) if node.op not in ("leaf", "const", "inv_n"))


class Resolver:
    """What the lowering may know beyond the graph: module attributes and tensor values."""

    def module(self, path: str) -> Any | None:  # the nn.Module at `path`, or None when unknown
        return None

    def tensor(self, path: str) -> Any | None:  # the parameter/buffer value, or None when unknown
        return None

    def tensor_kind(self, path: str) -> str | None:  # "parameter" | "buffer" | None
        return None

    def tensor_shape(self, path: str) -> tuple | None:
        return None


def normalize_fn(op: str, target: str, module_type: str | None) -> str:
    if op == "call_module":
        return MODULE_FUNCTIONS.get(module_type or "", module_type or target)
    if op in ("call_function", "call_method"):
        name = target.rsplit(".", 1)[-1]
        return ALIASES.get(name, name)
    return target


def ops_from_spec_graph(graph: dict) -> list[Op]:
    """Op records from a Spec's graph summary (JSON nodes)."""

    def convert(value):
        if isinstance(value, dict) and set(value) == {"node"}:
            return Ref(value["node"])
        if isinstance(value, (list, tuple)):
            return [convert(v) for v in value]
        return value

    ops = []
    for node in graph.get("nodes", []):
        target = str(node.get("target"))
        ops.append(Op(node["name"], node["op"], normalize_fn(node["op"], target, node.get("module_type")), target,
                      node.get("module_type"), [convert(a) for a in node.get("args", [])],
                      {k: convert(v) for k, v in (node.get("kwargs") or {}).items()},
                      tuple(node["shape"]) if node.get("shape") is not None else None, node.get("dtype")))
    return ops


def bind(op: Op, resolver: Resolver) -> dict:
    """The op's arguments by parameter name, module attributes included."""
    names = SIGNATURES.get(op.fn, ("input",))
    bound = dict(zip(names, op.args))
    bound.update(op.kwargs)
    if op.op == "call_module":
        module = resolver.module(op.target)
        for attr, param in MODULE_PARAMS.get(op.fn, {}).items():
            if module is not None:
                bound[param] = getattr(module, attr)
    return bound


def attr_expr(path: str) -> str:
    """`self.a.0.b` as Python: `self.a[0].b` (nn.Sequential / ModuleList children are indexed)."""
    text = "self"
    for part in path.split("."):
        text += f"[{part}]" if part.isdigit() else f".{part}"
    return text

"""Lower a traced forward into steps: generated kernels plus explicit library calls. Pure (no torch).

The same lowering serves the planner (`applies`, from the spec's graph summary, where module
attributes and tensor values are unknown) and the worker (`generate`, from the real FX graph and
module). Pointwise nodes and row reductions stay *lazy* expressions (`expr.Expr`) until something
needs their value: a library call (cuBLAS/cuDNN through F.linear/F.conv*, torch.matmul...), a view,
a non-fusable template (dim reduction, pooling, stencil) or the output. Then they are
*materialized* by one generated kernel: a pointwise kernel, or a row kernel when the expression
holds reductions over the last dim (softmax, layernorm, rmsnorm, `x * rsqrt(mean(x^2) + eps)`...).

Named ops are expanded into expressions: softmax(x) = exp(x - max) / sum(exp(x - max)) (the row
kernel recognises the pair and computes it online in one pass), layer_norm, rms_norm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from hiera_core.spaces.codegen import mentions
from hiera_core.spaces.custom_cuda.expr import POINTWISE, Expr, const, leaf, leaves_in, reductions_in
from hiera_core.spaces.custom_cuda.templates import GROUP_NORM_OUTPUT

FAMILIES = ("stencil", "pooling", "row_reduction", "pointwise")  # priority: the first present leads

ALIASES = {"truediv": "div", "true_divide": "div", "divide": "div", "clip": "clamp", "multiply": "mul",
           "subtract": "sub", "negative": "neg", "special_expit": "sigmoid", "absolute": "abs"}
MODULE_FUNCTIONS = {
    "ReLU": "relu", "ReLU6": "relu6", "GELU": "gelu", "SiLU": "silu", "Sigmoid": "sigmoid", "Tanh": "tanh",
    "Mish": "mish", "ELU": "elu", "CELU": "celu", "SELU": "selu", "LeakyReLU": "leaky_relu",
    "Hardtanh": "hardtanh", "Hardsigmoid": "hardsigmoid", "Hardswish": "hardswish", "Softplus": "softplus",
    "Softsign": "softsign", "LogSigmoid": "logsigmoid", "Tanhshrink": "tanhshrink", "Threshold": "threshold",
    "Identity": "identity", "Flatten": "flatten", "Softmax": "softmax", "LogSoftmax": "log_softmax",
    "LayerNorm": "layer_norm", "RMSNorm": "rms_norm", "Linear": "linear",
    "BatchNorm1d": "batch_norm", "BatchNorm2d": "batch_norm", "BatchNorm3d": "batch_norm", "GroupNorm": "group_norm",
    "MSELoss": "mse_loss", "Dropout": "dropout", "Dropout1d": "dropout", "Dropout2d": "dropout",
    "Dropout3d": "dropout", "AlphaDropout": "dropout",
    "Conv1d": "conv1d", "Conv2d": "conv2d", "Conv3d": "conv3d", "ConvTranspose1d": "conv_transpose1d",
    "ConvTranspose2d": "conv_transpose2d", "ConvTranspose3d": "conv_transpose3d",
    "MaxPool1d": "max_pool1d", "MaxPool2d": "max_pool2d", "MaxPool3d": "max_pool3d",
    "AvgPool1d": "avg_pool1d", "AvgPool2d": "avg_pool2d", "AvgPool3d": "avg_pool3d",
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
    "maximum": ("input", "other"), "minimum": ("input", "other"),
    "clamp": ("input", "min", "max"), "clamp_min": ("input", "min"), "clamp_max": ("input", "max"),
    "gelu": ("input", "approximate"), "leaky_relu": ("input", "negative_slope", "inplace"),
    "hardtanh": ("input", "min_val", "max_val", "inplace"), "elu": ("input", "alpha", "inplace"),
    "celu": ("input", "alpha", "inplace"), "softplus": ("input", "beta", "threshold"),
    "threshold": ("input", "threshold", "value", "inplace"), "lerp": ("input", "end", "weight"),
    "addcmul": ("input", "tensor1", "tensor2", "value"), "addcdiv": ("input", "tensor1", "tensor2", "value"),
    "softmax": ("input", "dim"), "log_softmax": ("input", "dim"),
    "layer_norm": ("input", "normalized_shape", "weight", "bias", "eps"),
    "rms_norm": ("input", "normalized_shape", "weight", "eps"),
    "batch_norm": ("input", "running_mean", "running_var", "weight", "bias", "training", "momentum", "eps"),
    "group_norm": ("input", "num_groups", "weight", "bias", "eps"),
    "mse_loss": ("input", "target", "size_average", "reduce", "reduction"),
    "sum": ("input", "dim", "keepdim", "dtype"), "mean": ("input", "dim", "keepdim", "dtype"),
    "amax": ("input", "dim", "keepdim"), "amin": ("input", "dim", "keepdim"), "max": ("input", "dim", "keepdim"),
    "min": ("input", "dim", "keepdim"), "argmax": ("input", "dim", "keepdim"), "argmin": ("input", "dim", "keepdim"),
    "max_pool1d": ("input", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"),
    "max_pool2d": ("input", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"),
    "max_pool3d": ("input", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"),
    "avg_pool1d": ("input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"),
    "avg_pool2d": ("input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"),
    "avg_pool3d": ("input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"),
    "pad": ("input", "pad", "mode", "value"),
    "conv2d": ("input", "weight", "bias", "stride", "padding", "dilation", "groups"),
    "conv3d": ("input", "weight", "bias", "stride", "padding", "dilation", "groups"),
}
LIBRARY = {"linear": "torch.nn.functional.linear", "matmul": "torch.matmul", "mm": "torch.mm", "bmm": "torch.bmm",
           "addmm": "torch.addmm", "baddbmm": "torch.baddbmm", "einsum": "torch.einsum",
           "conv1d": "torch.nn.functional.conv1d", "conv2d": "torch.nn.functional.conv2d",
           "conv3d": "torch.nn.functional.conv3d", "conv_transpose1d": "torch.nn.functional.conv_transpose1d",
           "conv_transpose2d": "torch.nn.functional.conv_transpose2d",
           "conv_transpose3d": "torch.nn.functional.conv_transpose3d"}
# operator.<name> rendered as Python infix, for an op left to PyTorch: on sizes, and on tensors (a
# causal mask's `self.bias == 0`), where the operator calls what the reference's operator calls.
INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%", "pow": "**",
         "neg": "-", "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "and_": "&",
         "or_": "|", "xor": "^", "invert": "~"}
VIEWS = {"view", "reshape", "flatten", "permute", "transpose", "t", "unsqueeze", "squeeze", "expand",
         "contiguous", "getitem", "size", "dim", "getattr", "view_as", "expand_as", "movedim"}
IDENTITY = {"identity", "clone", "float", "detach"}


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


@dataclass
class Step:
    """One statement of the generated forward."""

    family: str  # "pointwise" | "rows" | "reduce" | "total" | "pool" | "stencil" | "group_norm" | "library"
    targets: list[str]  # variables it assigns
    exprs: list[Expr] = field(default_factory=list)  # pointwise/rows: the values computed
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
        """The template leading this lowering, or None when no kernel fuses anything."""
        present = {FAMILY_OF_STEP[s.family] for s in self.kernel_steps
                   if s.family != "pointwise" or fused_op_count(s) >= 2}
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
                  "group_norm": "row_reduction", "total": "row_reduction", "pool": "pooling", "stencil": "stencil"}


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


# ---- graph records ---------------------------------------------------------------------------

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


# ---- the lowering ----------------------------------------------------------------------------

@dataclass
class PyValue:
    """A non-tensor value of the forward (an int from x.size(0), a tuple...), by its Python expr."""

    expr: str


@dataclass
class TupleOfReduction:
    """torch.max/min(x, dim): values and indices, resolved by the getitem that follows."""

    op: str  # "max" | "min"
    input: Expr
    dim: int
    keepdim: bool
    covers: str


@dataclass(frozen=True)
class PaddedGrid:
    """F.pad(x) by one zero on each side of its last `rank` dims: a grid read through shifted windows
    (padded for real, by its own torch call, only where something reads it otherwise)."""

    source: Expr
    rank: int
    name: str  # the pad's FX node


@dataclass
class StencilSum:
    """sum over taps of coefficient * `source` shifted by the tap's offset along its last `rank`
    dims, zero outside: what slices of a zero-padded grid add up to, a stencil however it is spelled."""

    source: Expr
    rank: int
    taps: dict  # offset tuple, e.g. (0, -1, 0) -> coefficient
    covers: list[str]

    def scaled(self, factor: float, cover: str) -> StencilSum:
        return StencilSum(self.source, self.rank, {o: c * factor for o, c in self.taps.items()}, self.covers + [cover])

    def plus(self, other: StencilSum, factor: float, cover: str) -> StencilSum:
        taps = dict(self.taps)
        for offset, coefficient in other.taps.items():
            taps[offset] = taps.get(offset, 0.0) + factor * coefficient
        return StencilSum(self.source, self.rank, taps, list(dict.fromkeys(self.covers + other.covers + [cover])))


class Lowerer:
    def __init__(self, ops: list[Op], resolver: Resolver):
        self.ops = ops
        self.resolver = resolver
        self.values: dict[str, Any] = {}
        self.steps: list[Step] = []
        self.materialized: dict[Expr, str] = {}
        self.covers: dict[Expr, str] = {}  # expression -> FX node it was built for
        self.contracts: list[str] = []
        self.fallbacks: dict[str, str] = {}
        self.stencils: dict[int, Expr] = {}  # id(StencilSum or PaddedGrid) -> its materialized value

    def run(self) -> Lowering:
        inputs: list[str] = []
        returns = "None"
        for op in self.ops:
            if op.op == "placeholder":
                inputs.append(op.target)
                self.values[op.name] = self._tensor_leaf(op, op.target)
            elif op.op == "get_attr":
                if op.target.startswith("_tensor_constant"):  # made by FX while tracing: not on the module
                    raise Unsupported(f"{op.name}: a tensor the trace made ({op.target}), which the module lacks")
                self.values[op.name] = self._tensor_leaf(op, attr_expr(op.target))
            elif op.op == "output":
                returns = self._render(op.args[0], materialize=True)
            else:
                try:
                    self._lower(op)
                except Unsupported as why:
                    self.values[op.name] = self._leave_to_pytorch(op, why)
        self._fuse_group_norm_epilogues(returns)
        return Lowering(self.steps, returns, inputs, self.contracts, self.fallbacks)

    def _leave_to_pytorch(self, op: Op, why: Unsupported) -> Any:
        """The node as the reference computes it (its own torch call on the values at hand), where no
        template handles it; raises `why` again where that is not sound: an in-place method (the
        lowering's values are not the reference's tensors), or a call that cannot be written out."""
        if op.op == "call_method" and op.fn.endswith("_"):
            raise why
        if op.op == "call_module":
            call = f"{attr_expr(op.target)}({self._call_args(op.args, op.kwargs)})"
        elif op.op == "call_method":
            receiver, *rest = op.args
            call = f"{self._render(receiver, materialize=True)}.{op.target}({self._call_args(rest, op.kwargs)})"
        elif op.target.startswith(("torch.", "math.")):  # math: the reference imports it to call it
            call = f"{op.target}({self._call_args(op.args, op.kwargs)})"
        elif op.target == "operator.getitem" and len(op.args) == 2 and not op.kwargs:
            call = f"{self._render(op.args[0], materialize=True)}[{self._render(op.args[1], materialize=True)}]"
        elif op.target.startswith("operator.") and op.fn in INFIX and not op.kwargs and 1 <= len(op.args) <= 2:
            operands = [self._render(a, materialize=True) for a in op.args]
            call = (f"({INFIX[op.fn]}{operands[0]})" if len(operands) == 1
                    else f"({operands[0]} {INFIX[op.fn]} {operands[1]})")
        else:
            raise why
        out = self._new_var(op.name)
        self.steps.append(Step("library", [out], call=call, covers=[op.name]))
        self.fallbacks[op.name] = str(why)
        if op.shape is None or op.dtype != "float32":
            return PyValue(out)
        return leaf(out, op.shape)

    def _fuse_group_norm_epilogues(self, returns: str) -> None:
        """A pointwise kernel that only transforms a group norm's output (GroupNorm + SiLU) runs in
        the group norm's normalising pass instead: one read and one write of the tensor fewer."""
        for norm in [s for s in self.steps if s.family == "group_norm"]:
            (target,) = norm.targets
            readers = [s for s in self.steps if s is not norm and _reads(s, target)]
            if len(readers) != 1 or mentions(returns, target):
                continue
            (step,) = readers
            if step.family != "pointwise" or len(step.exprs) != 1:
                continue
            (expr,) = step.exprs
            outputs = leaves_in([expr])
            if [e.params[0] for e in outputs] != [target] or expr.shape != outputs[0].shape:
                continue
            norm.config["epilogue"] = substitute(expr, {outputs[0]: leaf(GROUP_NORM_OUTPUT, expr.shape)})
            norm.targets = step.targets
            norm.covers = norm.covers + step.covers
            self.steps.remove(step)

    # -- node handlers --------------------------------------------------------------------------
    def _lower(self, op: Op) -> None:
        fn = op.fn
        if op.op == "call_method" and fn.endswith("_"):
            raise Unsupported(f"in-place method {fn} ({op.name}) has no template")
        if op.dtype not in (None, "float32") and fn not in ("argmax", "argmin", "max", "min", "getitem", "size",
                                                           "dim", "getattr"):
            raise Unsupported(f"{op.name} is {op.dtype}: the templates handle float32 only")
        args = bind(op, self.resolver)
        if fn == "dropout" and op.op == "call_module" and not getattr(self.resolver.module(op.target), "training", False):
            self.values[op.name] = self._value(args["input"])  # the task's inference contract: eval mode
        elif fn in IDENTITY or (fn == "contiguous" and isinstance(self._value(args["input"]), Expr)
                              and self._value(args["input"]).op != "leaf"):
            self.values[op.name] = self._value(args["input"])
        elif fn == "pad":
            self.values[op.name] = self._pad(op, args)
        elif fn == "getitem" and isinstance(self._value(op.args[0]), PaddedGrid):
            self.values[op.name] = self._window(op, self._value(op.args[0]), op.args[1])
        elif (fn in ("add", "sub", "rsub", "mul", "div", "neg")
              and (combined := self._stencil_arithmetic(op, fn, args)) is not None):
            self.values[op.name] = combined
        elif fn in POINTWISE or fn in ("clamp_min", "clamp_max", "rsub"):
            self.values[op.name] = self._pointwise(op, fn, args)
        elif fn in ("softmax", "log_softmax"):
            self.values[op.name] = self._softmax(op, fn, args)
        elif fn == "layer_norm":
            self.values[op.name] = self._layer_norm(op, args)
        elif fn == "rms_norm":
            self.values[op.name] = self._rms_norm(op, args)
        elif fn == "batch_norm":
            self.values[op.name] = self._batch_norm(op, args)
        elif fn == "group_norm":
            self.values[op.name] = self._group_norm(op, args)
        elif fn == "mse_loss":
            self.values[op.name] = self._mse_loss(op, args)
        elif fn in ("sum", "mean", "amax", "amin", "argmax", "argmin", "max", "min"):
            self.values[op.name] = self._reduction(op, fn, args)
        elif fn == "getitem" and isinstance(self._value(op.args[0]), TupleOfReduction):
            self.values[op.name] = self._tuple_item(op, self._value(op.args[0]), op.args[1])
        elif fn.startswith(("max_pool", "avg_pool")):
            self.values[op.name] = self._pool(op, fn, args)
        elif fn in ("conv2d", "conv3d") and (stencil := self._stencil_config(op, args)) is not None:
            self.values[op.name] = self._stencil(op, args, stencil)
        elif fn in LIBRARY or fn in VIEWS:
            self.values[op.name] = self._library(op, fn)
        else:
            raise Unsupported(f"{fn} ({op.name}) has no template")

    def _pointwise(self, op: Op, fn: str, args: dict) -> Expr:
        x = self._operand(args["input"])
        if fn in ("add", "sub", "rsub"):
            alpha = float(args.get("alpha", 1) or 1)
            other = self._operand(args["other"])
            if fn == "rsub":
                x, other = other, x
            return self._node(op, "add" if fn == "add" else "sub", (x, other), (alpha,))
        if fn == "div" and args.get("rounding_mode") is not None:
            raise Unsupported(f"division with rounding_mode ({op.name}) has no template")
        if fn == "pow":
            exponent = args["exponent"]
            if isinstance(exponent, (int, float)) and exponent in (2, 3, 0.5):
                square = self._node(op, "square", (x,))
                if exponent == 2:
                    return square
                return self._node(op, "mul", (square, x)) if exponent == 3 else self._node(op, "sqrt", (x,))
            return self._node(op, "pow", (x, self._operand(exponent)))
        if fn in ("clamp", "clamp_min", "clamp_max"):
            low = args.get("min") if fn != "clamp_max" else None
            high = args.get("max") if fn != "clamp_min" else None
            if isinstance(low, Ref) or isinstance(high, Ref):
                return self._tensor_clamp(op, x, low, high)
            return self._node(op, "clamp", (x,), (-math.inf if low is None else float(low),
                                                  math.inf if high is None else float(high)))
        if fn == "gelu":
            return self._node(op, "gelu_tanh" if args.get("approximate", "none") == "tanh" else "gelu", (x,))
        defaults = {"leaky_relu": ("negative_slope", 0.01), "elu": ("alpha", 1.0), "celu": ("alpha", 1.0)}
        if fn in defaults:
            key, default = defaults[fn]
            return self._node(op, fn, (x,), (float(args.get(key, default)),))
        if fn == "hardtanh":
            return self._node(op, fn, (x,), (float(args.get("min_val", -1.0)), float(args.get("max_val", 1.0))))
        if fn == "softplus":
            return self._node(op, fn, (x,), (float(args.get("beta", 1.0)), float(args.get("threshold", 20.0))))
        if fn == "threshold":
            return self._node(op, fn, (x,), (float(args["threshold"]), float(args["value"])))
        if fn in ("addcmul", "addcdiv"):
            return self._node(op, fn, (x, self._operand(args["tensor1"]), self._operand(args["tensor2"])),
                              (float(args.get("value", 1.0)),))
        if fn == "lerp":
            return self._node(op, fn, (x, self._operand(args["end"]), self._operand(args["weight"])))
        if POINTWISE[fn][0] == 2:
            return self._node(op, fn, (x, self._operand(args["other"])))
        return self._node(op, fn, (x,))

    # -- stencils spelled with slices of a zero-padded grid ------------------------------------------
    def _pad(self, op: Op, args: dict) -> PaddedGrid:
        pads = args.get("pad")
        if not (isinstance(pads, (list, tuple)) and len(pads) in (4, 6) and all(p == 1 for p in pads)):
            raise Unsupported(f"pad ({op.name}) by {pads!r}: the stencil template pads each side of 2 or 3 dims by one")
        if args.get("mode", "constant") not in (None, "constant") or args.get("value") not in (None, 0, 0.0):
            raise Unsupported(f"pad ({op.name}) other than with zeros has no template")
        x = self._lazy(args["input"])
        rank = len(pads) // 2
        if len(x.shape) < rank:
            raise Unsupported(f"pad ({op.name}) of a rank-{len(x.shape)} tensor over {rank} dims")
        return PaddedGrid(x, rank, op.name)

    def _materialize_pad(self, grid: PaddedGrid) -> Expr:
        if id(grid) not in self.stencils:
            (source,) = self.materialize([grid.source])
            out = self._new_var(grid.name)
            self.steps.append(Step("library", [out], call=f"torch.nn.functional.pad({source}, {(1, 1) * grid.rank!r})",
                                   covers=[grid.name]))
            self.stencils[id(grid)] = leaf(out, tuple(grid.source.shape[:-grid.rank])
                                           + tuple(size + 2 for size in grid.source.shape[-grid.rank:]))
        return self.stencils[id(grid)]

    def _window(self, op: Op, grid: PaddedGrid, index) -> StencilSum:
        """A slice of the padded grid as large as the grid itself: the grid shifted by (start - 1)."""
        shape = grid.source.shape
        items = list(index) if isinstance(index, (list, tuple)) else [index]
        if any(_is_ellipsis(item) for item in items):
            at = next(i for i, item in enumerate(items) if _is_ellipsis(item))
            items[at:at + 1] = [slice(None)] * (len(shape) - len(items) + 1)
        items += [slice(None)] * (len(shape) - len(items))
        bounds = [_slice_bounds(item) for item in items]
        if len(bounds) != len(shape) or any(b is None for b in bounds):
            raise Unsupported(f"{op.name}: a window of the padded grid other than plain slices has no template")
        offsets = []
        for dim, ((start, stop, step), size) in enumerate(zip(bounds, shape)):
            padded = dim >= len(shape) - grid.rank
            length = size + 2 if padded else size
            start = 0 if start is None else start + length if start < 0 else start
            stop = length if stop is None else stop + length if stop < 0 else min(stop, length)
            if step not in (None, 1) or stop - start != size or (not padded and start != 0):
                raise Unsupported(f"{op.name}: a window of the padded grid that is not the grid shifted by at most "
                                  f"one point has no template")
            if padded:
                offsets.append(start - 1)
        return StencilSum(grid.source, grid.rank, {tuple(offsets): 1.0}, [op.name])

    def _stencil_arithmetic(self, op: Op, fn: str, args: dict) -> StencilSum | None:
        """A linear combination of stencil sums (and of the grid itself, the centre tap) with constant
        factors, or None when this op is not one (the sums then become values for the op's kernel)."""
        def resolved(value):
            """A sum already computed by a kernel is that kernel's output from then on."""
            value = self._value(value) if isinstance(value, Ref) else value
            return self.stencils.get(id(value), value) if isinstance(value, StencilSum) else value

        def as_sum(value, like: StencilSum) -> StencilSum | None:
            value = resolved(value)
            if isinstance(value, StencilSum):
                return value
            factor = _multiple_of(value, like.source) if isinstance(value, Expr) else None
            if factor is None:
                return None
            return StencilSum(like.source, like.rank, {(0,) * like.rank: factor}, [])

        x, other_value = resolved(args.get("input")), resolved(args.get("other"))
        sums = [v for v in (x, other_value) if isinstance(v, StencilSum)]
        if not sums:
            return None
        like = sums[0]
        if fn == "neg":
            return like.scaled(-1.0, op.name)
        if fn in ("mul", "div"):
            number = other_value if isinstance(x, StencilSum) else x
            if isinstance(number, bool) or not isinstance(number, (int, float)) or (fn == "div" and not number):
                return None
            if fn == "div" and not isinstance(x, StencilSum):
                return None  # number / stencil is not linear
            return like.scaled(float(number) if fn == "mul" else 1.0 / float(number), op.name)
        a, b = as_sum(x, like), as_sum(other_value, like)
        if a is None or b is None or a.source != b.source or a.rank != b.rank:
            return None
        alpha = float(args.get("alpha", 1) or 1)
        if fn == "rsub":
            a, b = b, a
        return a.plus(b, alpha if fn == "add" else -alpha, op.name)

    def _materialize_stencil(self, total: StencilSum) -> Expr:
        if id(total) in self.stencils:
            return self.stencils[id(total)]
        import itertools

        (source,) = self.materialize([total.source])
        offsets = list(itertools.product((-1, 0, 1), repeat=total.rank))
        coefficients = tuple(float(total.taps.get(o, 0.0)) for o in offsets)
        taps = [o for o, c in zip(offsets, coefficients) if c != 0.0] or [(0,) * total.rank]
        out = self._new_var(total.covers[-1] if total.covers else "stencil")
        config = {"rank": total.rank, "taps": taps, "pruned": True, "coefficients": coefficients,
                  "width": total.source.shape[-1]}
        self.steps.append(Step("stencil", [out], inputs=[source], covers=list(total.covers), config=config))
        value = self.stencils[id(total)] = leaf(out, total.source.shape)
        return value

    def _tensor_clamp(self, op: Op, x: Expr, low, high) -> Expr:
        result = x
        if low is not None:
            result = self._node(op, "maximum", (result, self._operand(low)))
        if high is not None:
            result = self._node(op, "minimum", (result, self._operand(high)))
        return result

    def _softmax(self, op: Op, fn: str, args: dict) -> Expr:
        x = self._lazy(args["input"])
        self._require_last_dim(op, x, args.get("dim"))
        peak = Expr("rmax", (x,), shape=x.shape[:-1] + (1,))
        shifted = Expr("sub", (x, peak), (1.0,), x.shape)
        total = Expr("rsum", (Expr("exp", (shifted,), shape=x.shape),), shape=peak.shape)
        if fn == "softmax":
            return self._node(op, "div", (Expr("exp", (shifted,), shape=x.shape), total))
        return self._node(op, "sub", (shifted, Expr("log", (total,), shape=peak.shape)), (1.0,))

    def _layer_norm(self, op: Op, args: dict) -> Expr:
        x = self._lazy(args["input"])
        if op.op == "call_module":
            module = self.resolver.module(op.target)
            shape = tuple(module.normalized_shape) if module is not None else x.shape[-1:]
            eps = float(module.eps) if module is not None else 1e-5
            prefix = attr_expr(op.target)
            has_weight = module is None or module.weight is not None
            has_bias = module is None or module.bias is not None
            weight = leaf(f"{prefix}.weight", x.shape[-1:]) if has_weight else None
            bias = leaf(f"{prefix}.bias", x.shape[-1:]) if has_bias else None
        else:
            shape = tuple(args["normalized_shape"]) if isinstance(args["normalized_shape"], (list, tuple)) \
                else (args["normalized_shape"],)
            eps = float(args.get("eps", 1e-5))
            weight = self._operand(args["weight"]) if args.get("weight") is not None else None
            bias = self._operand(args["bias"]) if args.get("bias") is not None else None
        if len(shape) != 1:
            raise Unsupported(f"layer_norm over {len(shape)} dims ({op.name}): the row template normalizes the last dim")
        n = x.shape
        mean = Expr("mul", (Expr("rsum", (x,), shape=n[:-1] + (1,)), Expr("inv_n")), shape=n[:-1] + (1,))
        centred = Expr("sub", (x, mean), (1.0,), n)
        var = Expr("mul", (Expr("rsum", (Expr("square", (centred,), shape=n),), shape=mean.shape), Expr("inv_n")),
                   shape=mean.shape)
        return self._cover(op, normalized(centred, var, eps, weight, bias))

    def _rms_norm(self, op: Op, args: dict) -> Expr:
        x = self._lazy(args["input"])
        if op.op == "call_module":
            module = self.resolver.module(op.target)
            eps = module.eps if module is not None else None
            has_weight = module is None or module.weight is not None
            weight = leaf(f"{attr_expr(op.target)}.weight", x.shape[-1:]) if has_weight else None
            ndims = len(module.normalized_shape) if module is not None else 1
        else:
            eps = args.get("eps")
            weight = self._operand(args["weight"]) if args.get("weight") is not None else None
            shape = args["normalized_shape"]
            ndims = len(shape) if isinstance(shape, (list, tuple)) else 1
        if ndims != 1:
            raise Unsupported(f"rms_norm over {ndims} dims ({op.name}): the row template normalizes the last dim")
        eps = 1.1920928955078125e-07 if eps is None else float(eps)  # torch.finfo(float32).eps
        n = x.shape
        mean_square = Expr("mul", (Expr("rsum", (Expr("square", (x,), shape=n),), shape=n[:-1] + (1,)),
                                   Expr("inv_n")), shape=n[:-1] + (1,))
        scale = Expr("rsqrt", (Expr("add", (mean_square, const(eps)), (1.0,), mean_square.shape),),
                     shape=mean_square.shape)
        result = Expr("mul", (x, scale), shape=n)
        if weight is not None:
            result = Expr("mul", (result, weight), shape=n)
        return self._cover(op, result)

    def _batch_norm(self, op: Op, args: dict) -> Expr:
        """Inference batch norm: a per-channel affine map of the running statistics, so a pointwise
        op (fused with its neighbours, e.g. the epilogue of a library conv). The statistics are read
        at run time, viewed as (C, 1, ...) to broadcast over (N, C, ...)."""
        x = self._lazy(args["input"])
        if len(x.shape) < 2:
            raise Unsupported(f"batch_norm of a {len(x.shape)}-d tensor ({op.name}): needs (N, C, ...)")
        per_channel = (x.shape[1],) + (1,) * (len(x.shape) - 2)
        view = f".view(-1{', 1' * (len(x.shape) - 2)})"
        if op.op == "call_module":
            module = self.resolver.module(op.target)
            training = module is not None and (module.training or module.running_mean is None)
            if training or args.get("training"):
                raise Unsupported(f"batch_norm {op.target} normalizes by batch statistics (training mode): "
                                  "the templates fold running statistics only")
            prefix = attr_expr(op.target)
            eps = float(module.eps) if module is not None else 1e-5
            paths = {name: f"{prefix}.{name}{view}" for name in ("running_mean", "running_var", "weight", "bias")
                     if self.resolver.tensor_kind(f"{op.target}.{name}") is not None
                     or (module is not None and getattr(module, name, None) is not None)}
            if "running_mean" not in paths or "running_var" not in paths:
                raise Unsupported(f"batch_norm {op.target} keeps no running statistics")
            mean, var = (leaf(paths[name], per_channel) for name in ("running_mean", "running_var"))
            weight = leaf(paths["weight"], per_channel) if "weight" in paths else None
            bias = leaf(paths["bias"], per_channel) if "bias" in paths else None
        else:
            if args.get("training", False) is not False:
                raise Unsupported(f"batch_norm ({op.name}) with training={args.get('training')!r}: "
                                  "the templates fold running statistics only")
            eps = float(args.get("eps", 1e-5))

            def per_channel_leaf(name: str) -> Expr | None:
                tensor = self._tensor_argument(op, args, name)
                return leaf(tensor.params[0] + view, per_channel) if tensor is not None else None

            mean, var = per_channel_leaf("running_mean"), per_channel_leaf("running_var")
            if mean is None or var is None:
                raise Unsupported(f"batch_norm ({op.name}) without running statistics")
            weight, bias = per_channel_leaf("weight"), per_channel_leaf("bias")
        self.contracts.append(f"contract: batch norm {op.target if op.op == 'call_module' else op.name} normalizes "
                              "by its running statistics (inference, as the reference is specified): in training "
                              "mode it neither uses batch statistics nor updates the running ones")
        return self._cover(op, normalized(Expr("sub", (x, mean), (1.0,), x.shape), var, eps, weight, bias))

    def _group_norm(self, op: Op, args: dict) -> Expr:
        """Group norm of a materialized (N, C, ...) tensor by its own two-kernel template (a group's
        statistics span channels and space: no row of the row kernels)."""
        x = self._lazy(args["input"])
        if len(x.shape) < 2:
            raise Unsupported(f"group_norm of a {len(x.shape)}-d tensor ({op.name}): needs (N, C, ...)")
        if op.op == "call_module":
            module = self.resolver.module(op.target)
            prefix = attr_expr(op.target)
            # Planning knows parameters but not the group count: 1 stands in until generation.
            groups = module.num_groups if module is not None else 1
            eps = float(module.eps) if module is not None else 1e-5
            affine = (module.affine if module is not None
                      else self.resolver.tensor_kind(f"{op.target}.weight") is not None)
            weight, bias = (f"{prefix}.weight", f"{prefix}.bias") if affine else (None, None)
        else:
            groups, eps = args.get("num_groups"), float(args.get("eps", 1e-5))
            if not isinstance(groups, int):
                raise Unsupported(f"group_norm ({op.name}) with a group count computed in the graph")
            weight, bias = (tensor.params[0] if (tensor := self._tensor_argument(op, args, name)) is not None else None
                            for name in ("weight", "bias"))
        (source_var,) = self.materialize([x])
        out = self._new_var(op.name)
        self.steps.append(Step("group_norm", [out], inputs=[source_var], covers=[op.name],
                               config={"groups": groups, "eps": eps, "weight": weight, "bias": bias}))
        return leaf(out, op.shape or x.shape)

    def _tensor_argument(self, op: Op, args: dict, name: str) -> Expr | None:
        """The tensor passed as `name` (a leaf: an input, parameter or buffer), None when not given."""
        if args.get(name) is None:
            return None
        value = self._value(args[name])
        if not isinstance(value, Expr) or value.op != "leaf":
            raise Unsupported(f"{op.fn} ({op.name}): its {name} is computed in the graph, not a tensor")
        return value

    def _total(self, op: Op, x: Expr, mean: bool) -> Expr:
        """Sum or mean of every element of x: its pointwise expression is computed and summed in one
        kernel (never written), a second adds the per-block partials."""
        if reductions_in([x]):
            (name,) = self.materialize([x])
            x = leaf(name, x.shape)
        if not leaves_in([x]):
            raise Unsupported(f"a reduction of a constant ({op.name}) has no template")
        out = self._new_var(op.name)
        covers = [self.covers[node] for node in x.walk() if node in self.covers] + [op.name]
        self.steps.append(Step("total", [out], exprs=[x], covers=list(dict.fromkeys(covers)), config={"mean": mean}))
        return leaf(out, ())

    def _mse_loss(self, op: Op, args: dict) -> Expr:
        if args.get("size_average") is not None or args.get("reduce") is not None:
            raise Unsupported(f"mse_loss ({op.name}) with the deprecated size_average/reduce arguments")
        module = self.resolver.module(op.target) if op.op == "call_module" else None
        reduction = module.reduction if module is not None else args.get("reduction", "mean")
        prediction, target = self._lazy(args["input"]), self._lazy(args["target"])
        if prediction.shape != target.shape:
            raise Unsupported(f"mse_loss ({op.name}) of differently shaped tensors (broadcast) has no template")
        error = self._cover(op, Expr("square", (Expr("sub", (prediction, target), (1.0,), prediction.shape),),
                                     shape=prediction.shape))
        if reduction == "none":
            return error
        if reduction not in ("mean", "sum"):
            raise Unsupported(f"mse_loss ({op.name}) with reduction={reduction!r}")
        return self._total(op, error, reduction == "mean")

    def _reduction(self, op: Op, fn: str, args: dict):
        dim = args.get("dim")
        if dim is None and fn in ("sum", "mean") and not args.get("keepdim") and args.get("dtype") is None:
            return self._total(op, self._lazy(args["input"]), fn == "mean")
        if isinstance(dim, (list, tuple)) and len(dim) == 1:
            dim = dim[0]
        if not isinstance(dim, int):
            raise Unsupported(f"{fn} over {dim!r} ({op.name}): the templates reduce one given dim")
        if args.get("dtype") is not None:
            raise Unsupported(f"{fn} with a dtype ({op.name}) has no template")
        keepdim = bool(args.get("keepdim", False))
        x = self._lazy(args["input"])
        rank = len(x.shape)
        dim = dim % rank if rank else 0
        if fn in ("max", "min"):
            return TupleOfReduction(fn, x, dim, keepdim, op.name)
        if fn in ("argmax", "argmin"):
            return self._reduce_step(op, fn, x, dim, keepdim)
        if dim != rank - 1:
            return self._reduce_step(op, fn, x, dim, keepdim)
        kept = x.shape[:-1] + (1,)
        value = Expr({"sum": "rsum", "mean": "rsum", "amax": "rmax", "amin": "rmin"}[fn], (x,), shape=kept)
        if fn == "mean":
            value = Expr("mul", (value, Expr("inv_n")), shape=kept)
        if not keepdim:
            value = Expr("dropdim", (value,), shape=x.shape[:-1])
        return self._cover(op, value)

    def _tuple_item(self, op: Op, pair: TupleOfReduction, index) -> Any:
        fake = Op(pair.covers, "call_function", pair.op, pair.op, None, [], {}, op.shape, op.dtype)
        if index == 0:
            return self._reduction(fake, "a" + pair.op, {"input": pair.input, "dim": pair.dim, "keepdim": pair.keepdim})
        return self._reduce_step(fake, "arg" + pair.op, pair.input, pair.dim, pair.keepdim)

    def _reduce_step(self, op: Op, fn: str, x: Expr, dim: int, keepdim: bool) -> Expr | PyValue:
        (source,) = self.materialize([x])
        out = self._new_var(op.name)
        self.steps.append(Step("reduce", [out], inputs=[source], covers=[op.name],
                               config={"op": fn, "dim": dim, "keepdim": keepdim}))
        return PyValue(out) if fn.startswith("arg") else leaf(out, op.shape or ())

    def _pool(self, op: Op, fn: str, args: dict) -> Expr:
        x = self._lazy(args["input"])
        rank = int(fn[-2])
        module = self.resolver.module(op.target) if op.op == "call_module" else None
        if op.op == "call_module" and module is None:  # planning: a placeholder, attributes come at generation
            config = {"kind": fn[:3], "rank": rank, "kernel": (1,) * rank, "stride": (1,) * rank,
                      "padding": (0,) * rank, "dilation": (1,) * rank, "ceil_mode": False,
                      "count_include_pad": True, "divisor_override": None}
        else:
            source = {k: getattr(module, k) for k in ("kernel_size", "stride", "padding", "dilation", "ceil_mode",
                                                       "count_include_pad", "divisor_override", "return_indices")
                      if hasattr(module, k)} if module is not None else args
            config = pool_config(fn, rank, source)
        if config is None:
            raise Unsupported(f"{fn} ({op.name}) with return_indices has no template")
        if len(x.shape) not in (rank + 1, rank + 2):
            raise Unsupported(f"{fn} ({op.name}) on a rank-{len(x.shape)} input")
        (source_var,) = self.materialize([x])
        out = self._new_var(op.name)
        self.steps.append(Step("pool", [out], inputs=[source_var], covers=[op.name], config=config))
        return leaf(out, op.shape or ())

    def _stencil_config(self, op: Op, args: dict) -> dict | None:
        """Stencil parameters when this conv is a depthwise/single-channel 3^d stencil, else None."""
        rank = int(op.fn[-2])
        x_shape = self._shape_of(args.get("input"))
        if op.op == "call_module":
            module = self.resolver.module(op.target)
            weight_path, bias_path = f"{op.target}.weight", f"{op.target}.bias"
            if module is not None:
                if module.padding_mode != "zeros":
                    return None
                conv = {"stride": module.stride, "padding": module.padding, "dilation": module.dilation,
                        "groups": module.groups}
                bias_present = module.bias is not None
            else:
                conv = {"stride": 1, "padding": 1, "dilation": 1, "groups": None}
                bias_present = self.resolver.tensor_kind(bias_path) is not None
        else:
            weight_ref, bias_ref = args.get("weight"), args.get("bias")
            weight_op = self._op(weight_ref)
            if weight_op is None or weight_op.op != "get_attr":
                return None
            weight_path = weight_op.target
            bias_op = self._op(bias_ref)
            if bias_ref is not None and (bias_op is None or bias_op.op != "get_attr"):
                return None
            bias_path = bias_op.target if bias_op is not None else None
            bias_present = bias_op is not None
            conv = {k: args.get(k, default) for k, default in
                    (("stride", 1), ("padding", 0), ("dilation", 1), ("groups", 1))}
        weight_shape = self._param_shape(weight_path)
        if x_shape is None or weight_shape is None or len(x_shape) != rank + 2:
            return None
        channels = x_shape[1]
        if tuple(weight_shape) != (channels, 1) + (3,) * rank:
            return None
        if not (_all_equal(conv["stride"], 1, rank) and _all_equal(conv["dilation"], 1, rank)
                and (conv["padding"] == "same" or _all_equal(conv["padding"], 1, rank))):
            return None
        if conv["groups"] not in (None, channels) and channels != 1:
            return None
        return {"rank": rank, "weight": attr_expr(weight_path), "weight_path": weight_path,
                "bias": attr_expr(bias_path) if bias_present else None, "channels": channels,
                "width": x_shape[-1]}

    def _stencil(self, op: Op, args: dict, config: dict) -> Expr:
        weight = self.resolver.tensor(config["weight_path"])
        if weight is not None:  # generation: the taps (planning does not need them)
            pruned = self.resolver.tensor_kind(config["weight_path"]) == "buffer"
            config["taps"] = stencil_taps(weight, config["rank"], pruned)
            config["pruned"] = pruned
        (source,) = self.materialize([self._lazy(args["input"])])
        inputs = [source, config["weight"]] + ([config["bias"]] if config["bias"] else [])
        out = self._new_var(op.name)
        self.steps.append(Step("stencil", [out], inputs=inputs, covers=[op.name], config=config))
        return leaf(out, op.shape or ())

    def _library(self, op: Op, fn: str) -> Any:
        if op.op == "call_module":
            call = self._module_call(op, fn)
        elif op.op == "call_method":
            receiver, *rest = op.args
            call = f"{self._render(receiver, materialize=True)}.{op.target}({self._call_args(rest, op.kwargs)})"
        elif fn == "getitem":
            call = f"{self._render(op.args[0], materialize=True)}[{self._render(op.args[1], materialize=True)}]"
        elif fn == "getattr":
            call = f"{self._render(op.args[0], materialize=True)}.{op.args[1]}"
        else:
            function = LIBRARY.get(fn) or (op.target if op.target.startswith("torch.") else f"torch.{fn}")
            call = f"{function}({self._call_args(op.args, op.kwargs)})"
        out = self._new_var(op.name)
        self.steps.append(Step("library", [out], call=call, covers=[op.name]))
        if op.shape is None or op.dtype not in ("float32",):
            return PyValue(out)
        return leaf(out, op.shape)

    def _module_call(self, op: Op, fn: str) -> str:
        (x,) = op.args
        source = self._render(x, materialize=True)
        module = self.resolver.module(op.target)
        path = attr_expr(op.target)
        if fn == "linear":
            return f"torch.nn.functional.linear({source}, {path}.weight, {path}.bias)"
        if fn in ("conv1d", "conv2d", "conv3d"):
            if module is not None and module.padding_mode != "zeros":
                raise Unsupported(f"{op.name}: convolution with padding_mode={module.padding_mode!r}")
            return (f"torch.nn.functional.{fn}({source}, {path}.weight, {path}.bias, {path}.stride, "
                    f"{path}.padding, {path}.dilation, {path}.groups)")
        if fn.startswith("conv_transpose"):
            if module is not None and module.padding_mode != "zeros":
                raise Unsupported(f"{op.name}: transposed convolution with padding_mode={module.padding_mode!r}")
            return (f"torch.nn.functional.{fn}({source}, {path}.weight, {path}.bias, {path}.stride, {path}.padding, "
                    f"{path}.output_padding, {path}.groups, {path}.dilation)")
        if fn == "flatten":
            return f"torch.flatten({source}, {path}.start_dim, {path}.end_dim)"
        raise Unsupported(f"module {op.module_type} ({op.name}) has no template")

    # -- materialization ------------------------------------------------------------------------
    def materialize(self, exprs: list[Expr]) -> list[str]:
        """Python expressions holding the values of `exprs`, emitting kernels for the lazy ones."""
        pending = [e for e in dict.fromkeys(exprs) if e.op != "leaf" and e not in self.materialized]
        plain = [e for e in pending if not reductions_in([e])]
        with_rows = [e for e in pending if e not in plain]
        for group in _group_by(plain, lambda e: e.shape):
            self._emit_kernel("pointwise", group)
        for e in with_rows:  # row kernels one value at a time: each may need its own splitting
            if e not in self.materialized:
                self._emit_rows(e)
        return [e.params[0] if e.op == "leaf" else self.materialized[e] for e in exprs]

    def _emit_rows(self, e: Expr) -> None:
        reds = reductions_in([e])
        if not leaves_in([e]) or any(not leaves_in([r]) for r in reds):
            raise Unsupported("a reduction of a constant has no template")
        row_shape = next((r.args[0].shape for r in reds
                          if e.shape in (r.args[0].shape, r.shape, r.args[0].shape[:-1])), None)
        # What one row kernel cannot compute in place: reductions over another row shape, and
        # dropped-dim results (dropdim) unless the whole value is per row. They become leaves,
        # computed first by their own kernels, innermost first.
        bad = [n for n in e.walk() if (n.is_reduction and n.args[0].shape != row_shape)
               or (n.op == "dropdim" and (row_shape is None or e.shape != row_shape[:-1]))]
        if not bad:
            self._emit_kernel("rows", [e])
            return
        innermost = [n for n in bad if not any(m in bad for m in n.args[0].walk())]
        names = self.materialize(innermost)
        replaced = substitute(e, {n: leaf(name, n.shape) for n, name in zip(innermost, names)})
        self.materialized[e] = self.materialize([replaced])[0]

    def _emit_kernel(self, family: str, exprs: list[Expr]) -> None:
        targets = [self._new_var(self.covers.get(e, "value")) for e in exprs]
        covers = [self.covers[node] for e in exprs for node in e.walk() if node in self.covers]
        self.steps.append(Step(family, targets, exprs=exprs, covers=list(dict.fromkeys(covers))))
        for e, target in zip(exprs, targets):
            self.materialized[e] = target

    # -- helpers --------------------------------------------------------------------------------
    def _node(self, op: Op, fn: str, operands: tuple, params: tuple = ()) -> Expr:
        return self._cover(op, Expr(fn, operands, params, tuple(op.shape) if op.shape is not None else ()))

    def _cover(self, op: Op, e: Expr) -> Expr:
        self.covers.setdefault(e, op.name)
        return e

    def _tensor_leaf(self, op: Op, python_expr: str) -> Expr | PyValue:
        if op.shape is None or op.dtype not in (None, "float32"):
            # Not a float32 tensor (an int64 index buffer, say): only ops left to PyTorch read it.
            return PyValue(python_expr)
        return leaf(python_expr, op.shape)

    def _value(self, ref):
        return self.values[ref.name] if isinstance(ref, Ref) else ref

    def _computed(self, value):
        """`value`, a stencil sum or a padded grid computed (by its kernel, or its pad) where something
        reads it other than through the stencil arithmetic."""
        if isinstance(value, StencilSum):
            return self._materialize_stencil(value)
        if isinstance(value, PaddedGrid):
            return self._materialize_pad(value)
        return value

    def _lazy(self, ref) -> Expr:
        value = self._computed(self._value(ref))
        if not isinstance(value, Expr):
            raise Unsupported(f"{ref!r} is not a float tensor")
        return value

    def _operand(self, ref) -> Expr:
        if isinstance(ref, (bool, int, float)):
            return const(float(ref))
        return self._lazy(ref)

    def _op(self, ref) -> Op | None:
        return next((o for o in self.ops if isinstance(ref, Ref) and o.name == ref.name), None)

    def _shape_of(self, ref) -> tuple | None:
        value = self._value(ref) if isinstance(ref, Ref) else None
        return value.shape if isinstance(value, Expr) else None

    def _param_shape(self, path: str) -> tuple | None:
        owner = next((o for o in self.ops if o.op == "get_attr" and o.target == path), None)
        if owner is not None and owner.shape is not None:
            return owner.shape
        return self.resolver.tensor_shape(path)

    def _require_last_dim(self, op: Op, x: Expr, dim) -> None:
        rank = len(x.shape)
        if dim is None and op.op == "call_module" and self.resolver.module(op.target) is None:
            return  # planning: the module's dim is checked when the candidate is generated
        if not isinstance(dim, int) or rank == 0 or dim % rank != rank - 1:
            raise Unsupported(f"{op.fn} over dim {dim!r} ({op.name}): the row template handles the last dim")

    def _render(self, value, materialize: bool) -> str:
        if isinstance(value, Ref):
            resolved = self._computed(self.values[value.name])
            if isinstance(resolved, PyValue):
                return resolved.expr
            if isinstance(resolved, Expr):
                return self.materialize([resolved])[0]
            raise Unsupported(f"{value.name} cannot be used here")
        if isinstance(value, (list, tuple)):
            inner = ", ".join(self._render(v, materialize) for v in value)
            return f"({inner}{',' if len(value) == 1 else ''})" if isinstance(value, tuple) else f"[{inner}]"
        if isinstance(value, float) and not math.isfinite(value):
            return f"float({str(value)!r})"  # repr gives inf / nan, which are not Python names
        return repr(value)

    def _call_args(self, args: list, kwargs: dict) -> str:
        parts = [self._render(a, True) for a in args] + [f"{k}={self._render(v, True)}" for k, v in kwargs.items()]
        return ", ".join(parts)

    def _new_var(self, name: str) -> str:
        base = "v_" + "".join(c if c.isalnum() else "_" for c in name)
        taken = {t for s in self.steps for t in s.targets}
        candidate, index = base, 1
        while candidate in taken:
            index += 1
            candidate = f"{base}_{index}"
        return candidate


def lower(ops: list[Op], resolver: Resolver) -> Lowering:
    return Lowerer(ops, resolver).run()


def normalized(centred: Expr, var: Expr, eps: float, weight: Expr | None, bias: Expr | None) -> Expr:
    """centred * rsqrt(var + eps), then * weight and + bias where given (layer and batch norm)."""
    n = centred.shape
    result = Expr("mul", (centred, Expr("rsqrt", (Expr("add", (var, const(eps)), (1.0,), var.shape),),
                                         shape=var.shape)), shape=n)
    if weight is not None:
        result = Expr("mul", (result, weight), shape=n)
    if bias is not None:
        result = Expr("add", (result, bias), (1.0,), n)
    return result


def _reads(step: Step, name: str) -> bool:
    """Whether `step` reads the variable `name`."""
    texts = [step.call, *step.inputs, *(e.params[0] for e in leaves_in(step.exprs))]
    texts += [value for value in step.config.values() if isinstance(value, str)]
    return any(mentions(text, name) for text in texts)


def substitute(e: Expr, mapping: dict[Expr, Expr]) -> Expr:
    memo: dict[Expr, Expr] = {}

    def rebuild(node: Expr) -> Expr:
        if node in mapping:
            return mapping[node]
        if node not in memo:
            memo[node] = Expr(node.op, tuple(rebuild(a) for a in node.args), node.params, node.shape)
        return memo[node]

    return rebuild(e)


def attr_expr(path: str) -> str:
    """`self.a.0.b` as Python: `self.a[0].b` (nn.Sequential / ModuleList children are indexed)."""
    text = "self"
    for part in path.split("."):
        text += f"[{part}]" if part.isdigit() else f".{part}"
    return text


def pool_config(fn: str, rank: int, args: dict) -> dict | None:
    if args.get("return_indices"):
        return None

    def expand(value, default):
        value = default if value is None else value
        return tuple(value) if isinstance(value, (list, tuple)) else (int(value),) * rank

    kernel = expand(args.get("kernel_size"), 1)
    return {"kind": fn[:3], "rank": rank, "kernel": kernel,
            "stride": expand(args.get("stride") or None, kernel), "padding": expand(args.get("padding"), 0),
            "dilation": expand(args.get("dilation"), 1), "ceil_mode": bool(args.get("ceil_mode", False)),
            "count_include_pad": bool(args.get("count_include_pad", True)),
            "divisor_override": args.get("divisor_override")}


def stencil_taps(weight, rank: int, pruned: bool) -> list[tuple[int, ...]]:
    """Offsets (dz, dy, dx) (or (dy, dx)) of the taps; with `pruned`, only those nonzero in any channel."""
    import itertools

    offsets = list(itertools.product((-1, 0, 1), repeat=rank))
    if not pruned:
        return offsets
    flat = weight.detach().reshape(weight.shape[0], -1).abs().amax(dim=0).tolist()
    return [o for o, magnitude in zip(offsets, flat) if magnitude != 0.0]


def _multiple_of(e: Expr, source: Expr) -> float | None:
    """c when `e` is c * source (source itself, -source, source * c, c * source, source / c): the
    grid's own value is the stencil's centre tap."""
    if e == source:
        return 1.0
    if e.op == "neg" and e.args[0] == source:
        return -1.0
    if e.op in ("mul", "div") and len(e.args) == 2:
        a, b = e.args
        if a == source and b.op == "const" and (e.op == "mul" or b.params[0]):
            return b.params[0] if e.op == "mul" else 1.0 / b.params[0]
        if e.op == "mul" and b == source and a.op == "const":
            return a.params[0]
    return None


def _is_ellipsis(item) -> bool:
    return item is Ellipsis or item == "Ellipsis"


def _slice_bounds(item) -> tuple | None:
    """(start, stop, step) of a slice, as FX holds it or as the spec's JSON writes it ("slice(1, -1, None)")."""
    if isinstance(item, slice):
        return item.start, item.stop, item.step
    if isinstance(item, str) and item.startswith("slice(") and item.endswith(")"):
        parts = [p.strip() for p in item[len("slice("):-1].split(",")]
        try:
            values = tuple(None if p == "None" else int(p) for p in parts)
        except ValueError:
            return None
        return values if len(values) == 3 else None
    return None


def _all_equal(value, expected: int, rank: int) -> bool:
    values = tuple(value) if isinstance(value, (list, tuple)) else (value,) * rank
    return all(v == expected for v in values)


def _group_by(items, key):
    groups: dict = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return list(groups.values())

"""Lowerings of the ops kernels leave to PyTorch: library calls (cuBLAS/cuDNN through F.linear,
F.conv*, torch.matmul...), views and indexing, each one explicit step of the forward, and the
identities (clone, eval-mode dropout...), which are their input. Pure (no torch).

Some names mean more than a call when their input is a family's value: a getitem of a padded grid
is a stencil's window, and a getitem (or `.values`/`.indices`) of torch.max/min's pair a reduction;
a conv2d/conv3d that is a depthwise 3^d stencil gets the stencil template; `contiguous` of a lazy
expression is the kernel's contiguous output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hiera_core.spaces.codegen import mentions
from hiera_core.spaces.custom_cuda.expr import Expr, leaf, leaves_in, substitute
from hiera_core.spaces.custom_cuda.graph import Op, Ref, Step, Unsupported, attr_expr
from hiera_core.spaces.custom_cuda.lower_reductions import TupleOfReduction, tuple_item
from hiera_core.spaces.custom_cuda.lower_stencil import PaddedGrid, conv_stencil, stencil_config, window
from hiera_core.spaces.custom_cuda.lowering import (
    STEP_PASSES,
    Deferred,
    Lowerer,
    no_template,
    reads,
    register_lowering,
)

LIBRARY = {"linear": "torch.nn.functional.linear", "matmul": "torch.matmul", "mm": "torch.mm", "bmm": "torch.bmm",
           "addmm": "torch.addmm", "baddbmm": "torch.baddbmm", "einsum": "torch.einsum",
           "conv1d": "torch.nn.functional.conv1d", "conv2d": "torch.nn.functional.conv2d",
           "conv3d": "torch.nn.functional.conv3d", "conv_transpose1d": "torch.nn.functional.conv_transpose1d",
           "conv_transpose2d": "torch.nn.functional.conv_transpose2d",
           "conv_transpose3d": "torch.nn.functional.conv_transpose3d"}
VIEWS = {"view", "reshape", "flatten", "permute", "transpose", "t", "unsqueeze", "squeeze", "expand",
         "contiguous", "getitem", "size", "dim", "getattr", "view_as", "expand_as", "movedim"}
IDENTITY = {"identity", "clone", "float", "detach"}
_CHOOSING = {"conv2d", "conv3d", "getitem", "getattr", "contiguous", "matmul", "mm"}  # registered below, each choosing


@register_lowering(*sorted((LIBRARY.keys() | VIEWS) - _CHOOSING))
def library(lw: Lowerer, op: Op, args: dict) -> Any:
    fn = op.fn
    if op.op == "call_module":
        call = _module_call(lw, op)
    elif op.op == "call_method":
        receiver, *rest = op.args
        call = f"{lw.render(receiver, materialize=True)}.{op.target}({lw.call_args(rest, op.kwargs)})"
    elif fn == "getitem":
        call = f"{lw.render(op.args[0], materialize=True)}[{lw.render(op.args[1], materialize=True)}]"
    elif fn == "getattr":
        call = f"{lw.render(op.args[0], materialize=True)}.{op.args[1]}"
    else:
        function = LIBRARY.get(fn) or (op.target if op.target.startswith("torch.") else f"torch.{fn}")
        call = f"{function}({lw.call_args(op.args, op.kwargs)})"
    out = lw.new_var(op.name)
    config = _linear_bias(lw, op, args) if fn == "linear" else {}
    lw.steps.append(Step("library", [out], call=call, covers=[op.name], config=config))
    return lw.result_value(op, out)


def _linear_bias(lw: Lowerer, op: Op, args: dict) -> dict:
    """A Linear's bias (a parameter of the module, known) and its call without it, for
    `unfuse_linear_bias`; {} where there is none or it is not known."""
    if op.op == "call_module":
        module = lw.resolver.module(op.target)
        if getattr(module, "bias", None) is None:
            return {}
        path = attr_expr(op.target)
        x = lw.render(op.args[0], materialize=True)
        return {"bias": f"{path}.bias", "without_bias": _linear(x, f"{path}.weight")}
    bias = lw.value(args["bias"]) if isinstance(args.get("bias"), Ref) else None
    if not (isinstance(bias, Expr) and bias.op == "leaf" and len(bias.shape) == 1):
        return {}
    x, weight = (lw.render(args[name], materialize=True) for name in ("input", "weight"))
    return {"bias": bias.params[0], "without_bias": _linear(x, weight)}


def _linear(x: str, weight: str, bias: str | None = None) -> str:
    return f"torch.nn.functional.linear({x}, {weight}{f', {bias}' if bias else ''})"


def unfuse_linear_bias(steps: list[Step], returns: str) -> None:
    """A Linear's bias added by the kernels that read its output instead of by cuBLAS, where every
    reader is a generated kernel reading the whole output (Inductor's rule too): with its bias
    epilogue cuBLASLt picked slower float32 GEMM kernels (H100, torch 2.11: 82 us against 49 us for
    nanoGPT's MLP projection, 94 against 78 us for its c_fc), while a kernel reads a bias vector
    at the cost of a broadcast load."""
    for step in steps:
        if step.family != "library" or "bias" not in step.config:
            continue
        (target,) = step.targets
        readers = [s for s in steps if s is not step and reads(s, target)]
        if not readers or mentions(returns, target) or not all(_reads_whole(s, target) for s in readers):
            continue
        for reader in readers:
            outputs = {e for e in leaves_in(reader.exprs) if e.params[0] == target}
            reader.exprs = [substitute(e, {out: Expr("add", (out, leaf(step.config["bias"], out.shape[-1:])), (1.0,),
                                                     out.shape) for out in outputs}) for e in reader.exprs]
        step.call = step.config.pop("without_bias")
        step.config.pop("bias")


def _reads_whole(step: Step, target: str) -> bool:
    """Whether `step` is a generated kernel that reads `target` only as a whole tensor leaf."""
    if step.family not in ("pointwise", "rows", "total", "scan") or step.inputs or mentions(step.call, target) \
            or any(isinstance(v, str) and mentions(v, target) for v in step.config.values()):
        return False
    return all(e.params[0] == target for e in leaves_in(step.exprs) if mentions(e.params[0], target))


STEP_PASSES.append(unfuse_linear_bias)


def _module_call(lw: Lowerer, op: Op) -> str:
    fn = op.fn
    (x,) = op.args
    source = lw.render(x, materialize=True)
    module = lw.resolver.module(op.target)
    path = attr_expr(op.target)
    if fn == "linear":
        return _linear(source, f"{path}.weight", f"{path}.bias")
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


@register_lowering("conv2d", "conv3d")
def conv(lw: Lowerer, op: Op, args: dict) -> Any:
    if (config := stencil_config(lw, op, args)) is not None:
        return conv_stencil(lw, op, args, config)
    return library(lw, op, args)


@dataclass
class DiagonalMatrix(Deferred):
    """torch.diag(vector): kept symbolic, since a product with it scales the other factor's rows or
    columns (one pointwise kernel, no GEMM and no n*n matrix); made by torch.diag where anything else
    reads it."""

    vector: Expr
    name: str  # the FX node that makes it

    def computed(self, lw: Lowerer) -> Expr:
        return self.made_by_torch(lw, self.vector, "torch.diag({})", self.vector.shape * 2, self.name)


@register_lowering("diag")
def diag(lw: Lowerer, op: Op, args: dict) -> Any:
    vector = lw.value(args["input"])
    if isinstance(vector, Expr) and len(vector.shape) == 1 and args.get("diagonal", 0) == 0:
        return DiagonalMatrix(vector, op.name)
    return library(lw, op, args)  # a matrix's diagonal, or an offset one


@register_lowering("matmul", "mm")
def matmul(lw: Lowerer, op: Op, args: dict) -> Any:
    """A product of a matrix (or a batch of them) with a diagonal matrix is a scaling: diag(v) @ B
    scales B's rows, B @ diag(v) its columns; one pointwise kernel instead of a GEMM over an n*n
    matrix. The scaling vector's read covers the diag node: the kernel computes both."""
    other_name = "other" if op.fn == "matmul" else "mat2"
    left, right = lw.value(args["input"]), lw.value(args[other_name])
    for diagonal, matrix, unsqueezed in ((left, args[other_name], -1), (right, args["input"], 0)):
        if not isinstance(diagonal, DiagonalMatrix) or isinstance(lw.value(matrix), DiagonalMatrix):
            continue
        other = lw.lazy(matrix)
        if len(other.shape) < 2:
            break
        (vector,) = lw.materialize([diagonal.vector])
        (n,) = diagonal.vector.shape
        scale = leaf(f"{vector}.unsqueeze({unsqueezed})", (n, 1) if unsqueezed else (1, n))
        lw.covers.setdefault(scale, diagonal.name)
        return lw.node(op, "mul", (scale, other) if unsqueezed else (other, scale))
    return library(lw, op, args)


@register_lowering("getitem")
def getitem(lw: Lowerer, op: Op, args: dict) -> Any:
    source = lw.value(op.args[0])
    if isinstance(source, PaddedGrid):
        return window(op, source, op.args[1])
    if isinstance(source, TupleOfReduction):
        return tuple_item(lw, op, source, op.args[1])
    return library(lw, op, args)


@register_lowering("getattr")
def attribute(lw: Lowerer, op: Op, args: dict) -> Any:
    """`.values` and `.indices` of torch.max/min(x, dim)'s pair are its items 0 and 1."""
    source = lw.value(op.args[0])
    if isinstance(source, TupleOfReduction) and op.args[1] in ("values", "indices"):
        return tuple_item(lw, op, source, ("values", "indices").index(op.args[1]))
    return library(lw, op, args)


@register_lowering("contiguous")
def contiguous(lw: Lowerer, op: Op, args: dict) -> Any:
    value = lw.value(args["input"])
    if isinstance(value, Expr) and value.op != "leaf":
        return value
    return library(lw, op, args)


@register_lowering(*IDENTITY)
def identity(lw: Lowerer, op: Op, args: dict) -> Any:
    value = lw.value(args["input"])
    if op.fn == "float" and not isinstance(value, Expr):  # an int64 tensor's .float() is a real cast
        raise no_template(op)
    return value


# What `.to(...)` may say besides a dtype and still be a cast: no device, layout or copy.
_CAST_KWARGS = {"dtype", "non_blocking"}


@register_lowering("to", "type_as")
def cast(lw: Lowerer, op: Op, args: dict) -> Any:
    """A cast to the dtype its input already has is its input (as torch returns the tensor itself):
    the float32 round trip of Hugging Face norms (`x.to(torch.float32)` ... `.to(input_dtype)`) or a
    `type_as` of a float32 tensor, which would otherwise end the fused kernel at the cast. A mask
    cast to float32 is its 0.0/1.0 values, as kernels read it. Any other cast, or a `.to` that may
    name a device or copy, has no template."""
    source, *rest = op.args
    producer = lw.ops_by_name.get(source.name) if isinstance(source, Ref) else None
    if (producer is None or producer.dtype not in ("float32", "bool") or op.dtype != "float32"
            or producer.shape != op.shape):
        raise no_template(op)
    if op.fn == "to" and (set(op.kwargs) - _CAST_KWARGS or len(rest) > 1
                          or any(not _names_a_dtype(lw, argument) for argument in rest)):
        raise no_template(op)
    return lw.value(source)


def _names_a_dtype(lw: Lowerer, argument: Any) -> bool:
    """`torch.float32` as the trace writes it, or a tensor's `.dtype` read in the forward."""
    if isinstance(argument, str):
        return argument.startswith("torch.") and not argument.startswith("torch.device")
    producer = lw.ops_by_name.get(argument.name) if isinstance(argument, Ref) else None
    return producer is not None and producer.fn == "getattr" and producer.args[1:] == ["dtype"]


@register_lowering("dropout")
def dropout(lw: Lowerer, op: Op, args: dict) -> Any:
    if op.op == "call_module" and not getattr(lw.resolver.module(op.target), "training", False):
        return lw.value(args["input"])  # the task's inference contract: eval mode
    raise no_template(op)

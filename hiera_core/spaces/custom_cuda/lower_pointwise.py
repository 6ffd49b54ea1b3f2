"""Lowerings of the elementwise ops: each a lazy expression node (`expr.Expr`), fused with its
neighbours into one pointwise or row kernel when something needs the value. Pure (no torch).
"""

from __future__ import annotations

import math

from hiera_core.spaces.custom_cuda.expr import POINTWISE, Expr, const
from hiera_core.spaces.custom_cuda.graph import Op, Ref, Unsupported
from hiera_core.spaces.custom_cuda.lower_stencil import StencilSum, stencil_arithmetic
from hiera_core.spaces.custom_cuda.lowering import Lowerer, register_lowering


@register_lowering(*POINTWISE, "clamp_min", "clamp_max", "rsub")
def pointwise(lw: Lowerer, op: Op, args: dict) -> Expr | StencilSum:
    fn = op.fn
    # Linear arithmetic on windows of a padded grid builds a stencil rather than a kernel's value.
    if (fn in ("add", "sub", "rsub", "mul", "div", "neg")
            and (combined := stencil_arithmetic(lw, op, fn, args)) is not None):
        return combined
    if fn == "where":
        if "input" not in args or "other" not in args:
            raise Unsupported(f"where with only a condition ({op.name}) gives indices: no template")
        return lw.node(op, fn, (lw.lazy(args["condition"]), lw.operand(args["input"]), lw.operand(args["other"])))
    x = lw.operand(args["input"])
    if fn in ("add", "sub", "rsub"):
        alpha = float(args.get("alpha", 1) or 1)
        other = lw.operand(args["other"])
        if fn == "rsub":
            x, other = other, x
        return lw.node(op, "add" if fn == "add" else "sub", (x, other), (alpha,))
    if fn == "div" and args.get("rounding_mode") is not None:
        raise Unsupported(f"division with rounding_mode ({op.name}) has no template")
    if fn == "pow":
        exponent = args["exponent"]
        if isinstance(exponent, (int, float)) and exponent in (2, 3, 0.5):
            square = lw.node(op, "square", (x,))
            if exponent == 2:
                return square
            return lw.node(op, "mul", (square, x)) if exponent == 3 else lw.node(op, "sqrt", (x,))
        return lw.node(op, "pow", (x, lw.operand(exponent)))
    if fn in ("clamp", "clamp_min", "clamp_max"):
        low = args.get("min") if fn != "clamp_max" else None
        high = args.get("max") if fn != "clamp_min" else None
        if isinstance(low, Ref) or isinstance(high, Ref):
            return _tensor_clamp(lw, op, x, low, high)
        return lw.node(op, "clamp", (x,), (-math.inf if low is None else float(low),
                                           math.inf if high is None else float(high)))
    if fn == "gelu":
        return lw.node(op, "gelu_tanh" if args.get("approximate", "none") == "tanh" else "gelu", (x,))
    defaults = {"leaky_relu": ("negative_slope", 0.01), "elu": ("alpha", 1.0), "celu": ("alpha", 1.0)}
    if fn in defaults:
        key, default = defaults[fn]
        return lw.node(op, fn, (x,), (float(args.get(key, default)),))
    if fn == "hardtanh":
        return lw.node(op, fn, (x,), (float(args.get("min_val", -1.0)), float(args.get("max_val", 1.0))))
    if fn == "softplus":
        return lw.node(op, fn, (x,), (float(args.get("beta", 1.0)), float(args.get("threshold", 20.0))))
    if fn == "threshold":
        return lw.node(op, fn, (x,), (float(args["threshold"]), float(args["value"])))
    if fn in ("addcmul", "addcdiv"):
        return lw.node(op, fn, (x, lw.operand(args["tensor1"]), lw.operand(args["tensor2"])),
                       (float(args.get("value", 1.0)),))
    if fn == "lerp":
        return lw.node(op, fn, (x, lw.operand(args["end"]), lw.operand(args["weight"])))
    if POINTWISE[fn][0] == 2:
        return lw.node(op, fn, (x, lw.operand(args["other"])))
    return lw.node(op, fn, (x,))


def _tensor_clamp(lw: Lowerer, op: Op, x: Expr, low, high) -> Expr:
    result = x
    if low is not None:
        result = lw.node(op, "maximum", (result, lw.operand(low)))
    if high is not None:
        result = lw.node(op, "minimum", (result, lw.operand(high)))
    return result


@register_lowering("masked_fill")
def masked_fill(lw: Lowerer, op: Op, args: dict) -> Expr:
    """x.masked_fill(mask, value): value where the mask is set (a causal mask's -inf before softmax)."""
    return lw.node(op, "where", (lw.lazy(args["mask"]), lw.operand(args["value"]), lw.lazy(args["input"])))


# Operators on bool tensors (masks) are logical; on integers they are bitwise, which kernels do not do.
_LOGICAL = {"invert": "logical_not", "and_": "logical_and", "or_": "logical_or", "xor": "logical_xor"}


@register_lowering(*_LOGICAL)
def logical(lw: Lowerer, op: Op, args: dict) -> Expr:
    if op.dtype != "bool":
        raise Unsupported(f"bitwise {op.fn} ({op.name}) of a {op.dtype} tensor has no template")
    operands = (lw.lazy(args["input"]),) + ((lw.lazy(args["other"]),) if "other" in args else ())
    return lw.node(op, _LOGICAL[op.fn], operands)


@register_lowering("bool")
def as_mask(lw: Lowerer, op: Op, args: dict) -> Expr:
    """x.bool(): set where x is nonzero."""
    return lw.node(op, "ne", (lw.lazy(args["input"]), const(0.0)))

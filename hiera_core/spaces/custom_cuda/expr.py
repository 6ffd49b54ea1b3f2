"""Element expressions: the IR the pointwise and row kernels are generated from. Pure (no torch).

An `Expr` is a node of a DAG over *leaves* (tensors the kernel reads, named by the Python
expression that holds them in the generated forward), constants, *scalars* (Python numbers the
forward computes, float arguments of the kernel), supported pointwise functions, and row
reductions (`rsum`/`rmax`/`rmin` over one dim of their argument, the last unless the node names
another, keeping the dim; `dropdim` drops it again, an identity on values). A bool tensor (a mask:
a comparison, a bool input or buffer) is a value of 0.0 or 1.0, as torch promotes it in float
arithmetic. Frozen dataclasses, so structurally equal sub-expressions compare and hash equal:
that is what CSE and the online-softmax match rely on.

`Emitter` turns expressions into CUDA C statements for one element, memoised, with PyTorch's
float32 semantics (NaN propagation of relu/clamp/maximum, exact erf GELU, softplus threshold...).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

REDUCTIONS = ("rsum", "rmax", "rmin")


@dataclass(frozen=True)
class Expr:
    op: str  # "leaf" | "const" | "scalar" | "inv_n" | a POINTWISE name | a REDUCTIONS name
    args: tuple[Expr, ...] = ()
    # leaf: (python_expr, *flags); scalar: (python_expr,); const: (value,); function parameters otherwise
    params: tuple = ()
    shape: tuple[int, ...] = ()

    @property
    def is_reduction(self) -> bool:
        return self.op in REDUCTIONS

    def walk(self, seen: set | None = None):
        """Every distinct node, children before parents."""
        seen = set() if seen is None else seen
        if self in seen:
            return
        seen.add(self)
        for arg in self.args:
            yield from arg.walk(seen)
        yield self


def row_reduction(op: str, x: Expr, dim: int | None = None) -> Expr:
    """`op` ("rsum" | "rmax" | "rmin") of x along `dim` (default: the last), the dim kept as 1. Over
    another dim than the last the node carries it (params), so nodes over different dims differ."""
    rank = len(x.shape)
    d = rank - 1 if dim is None else dim % rank
    return Expr(op, (x,), () if d == rank - 1 else (d,), x.shape[:d] + (1,) + x.shape[d + 1:])


def reduced_dim(r: Expr) -> int:
    """The dim a row reduction node reduces."""
    return r.params[0] if r.params else len(r.args[0].shape) - 1


def without_dim(shape: tuple, dim: int) -> tuple:
    return shape[:dim] + shape[dim + 1:]


def leaf(python_expr: str, shape, mask: bool = False, strided: bool = False) -> Expr:
    """A tensor a kernel reads; `mask`: a bool tensor, read as 0.0 or 1.0; `strided`: a view that
    may have rows apart in memory (a chunk or slice of the last dim), read in place through its mode."""
    flags = (("bool",) if mask else ()) + (("strided",) if strided else ())
    return Expr("leaf", params=(python_expr, *flags), shape=tuple(shape))


def renamed(e: Expr, python_expr: str, shape) -> Expr:
    """Leaf e's flags on another tensor (a view of it)."""
    return Expr("leaf", params=(python_expr, *e.params[1:]), shape=tuple(shape))


def scalar(python_expr: str) -> Expr:
    """A Python number the forward computes (`1 / math.sqrt(k.size(-1))`): a float argument of the
    kernel, its value taken on each call."""
    return Expr("scalar", params=(python_expr,))


def scalars_in(exprs) -> list[Expr]:
    """The scalar arguments of `exprs`, in first-seen order."""
    seen: set = set()
    return [node for e in exprs for node in e.walk(seen) if node.op == "scalar"]


def is_mask(e: Expr) -> bool:
    """Whether `e` is a mask leaf (a bool tensor)."""
    return e.op == "leaf" and "bool" in e.params[1:]


def rolled_by(e: Expr) -> tuple[int, int] | None:
    """(dim, shift) where leaf e is read rolled (torch.roll), else None."""
    return next(((flag[1], flag[2]) for flag in e.params[1:] if isinstance(flag, tuple) and flag[0] == "roll"), None)


def read_full(e: Expr, shape) -> bool:
    """Whether kernels over `shape` read leaf `e` directly as floats (FULL), without the mode switch:
    a float leaf of that shape. A mask (bytes) or a strided view (rows apart) is read through its mode."""
    return e.shape == tuple(shape) and e.params[1:] == ()


def const(value: float) -> Expr:
    return Expr("const", params=(float(value),))


def reductions_in(exprs) -> list[Expr]:
    seen: set = set()
    return [node for e in exprs for node in e.walk(seen) if node.is_reduction]


def leaves_in(exprs, stop_at_reductions: bool = False) -> list[Expr]:
    """Leaves in first-seen order; with stop_at_reductions, not those only under a reduction."""
    found: list[Expr] = []
    seen: set = set()

    def visit(e: Expr) -> None:
        if e in seen or (stop_at_reductions and e.is_reduction):
            return
        seen.add(e)
        if e.op == "leaf":
            found.append(e)
        for arg in e.args:
            visit(arg)

    for e in exprs:
        visit(e)
    return found


def c_float(value: float) -> str:
    """A CUDA float literal equal to `value` rounded to float32 (how PyTorch applies a Python scalar)."""
    value = struct.unpack("f", struct.pack("f", value))[0] if math.isfinite(value) and abs(value) < 3.5e38 else value
    if math.isnan(value):
        return "__int_as_float(0x7fc00000)"
    if math.isinf(value):
        return "__int_as_float(0xff800000)" if value < 0 else "__int_as_float(0x7f800000)"
    text = repr(value)
    return text + ("f" if any(c in text for c in ".e") else ".0f")


# name -> (number of tensor/scalar operands, C template over a0, a1, ... and params p0, p1, ...)
POINTWISE: dict[str, tuple[int, str]] = {
    "add": (2, "{a0} + {p0} * {a1}"),  # p0: alpha
    "sub": (2, "{a0} - {p0} * {a1}"),
    "mul": (2, "{a0} * {a1}"),
    "div": (2, "{a0} / {a1}"),
    "neg": (1, "-{a0}"),
    "abs": (1, "fabsf({a0})"),
    "exp": (1, "expf({a0})"),
    "exp2": (1, "exp2f({a0})"),
    "expm1": (1, "expm1f({a0})"),
    "log": (1, "logf({a0})"),
    "log2": (1, "log2f({a0})"),
    "log1p": (1, "log1pf({a0})"),
    "sqrt": (1, "sqrtf({a0})"),
    "rsqrt": (1, "rsqrtf({a0})"),
    "reciprocal": (1, "1.0f / {a0}"),
    "square": (1, "{a0} * {a0}"),
    "pow": (2, "powf({a0}, {a1})"),
    "sin": (1, "sinf({a0})"),
    "cos": (1, "cosf({a0})"),
    "tanh": (1, "tanhf({a0})"),
    "erf": (1, "erff({a0})"),
    "sigmoid": (1, "1.0f / (1.0f + expf(-{a0}))"),
    "relu": (1, "({a0} <= 0.0f ? 0.0f : {a0})"),  # keeps NaN, as torch.relu does
    "relu6": (1, "({a0} <= 0.0f ? 0.0f : ({a0} >= 6.0f ? 6.0f : {a0}))"),
    "clamp": (1, "({a0} < {p0} ? {p0} : ({a0} > {p1} ? {p1} : {a0}))"),  # p0/p1: +-inf when absent
    "maximum": (2, "(({a0} != {a0} || {a0} > {a1}) ? {a0} : {a1})"),
    "minimum": (2, "(({a0} != {a0} || {a0} < {a1}) ? {a0} : {a1})"),
    "gelu": (1, "0.5f * {a0} * (1.0f + erff({a0} * 0.70710678118654752f))"),
    "gelu_tanh": (1, "0.5f * {a0} * (1.0f + tanhf(0.79788456080286536f * ({a0} + 0.044715f * {a0} * {a0} * {a0})))"),
    "silu": (1, "{a0} / (1.0f + expf(-{a0}))"),
    "mish": (1, "{a0} * tanhf({a0} > 20.0f ? {a0} : log1pf(expf({a0})))"),
    "softplus": (1, "({a0} * {p0} > {p1} ? {a0} : log1pf(expf({a0} * {p0})) / {p0})"),  # beta, threshold
    "elu": (1, "({a0} > 0.0f ? {a0} : {p0} * expm1f({a0}))"),
    "celu": (1, "({a0} > 0.0f ? {a0} : {p0} * expm1f({a0} / {p0}))"),
    "selu": (1, "1.0507009873554805f * ({a0} > 0.0f ? {a0} : 1.6732632423543772f * expm1f({a0}))"),
    "leaky_relu": (1, "({a0} > 0.0f ? {a0} : {a0} * {p0})"),
    "hardtanh": (1, "({a0} <= {p0} ? {p0} : ({a0} >= {p1} ? {p1} : {a0}))"),
    "hardsigmoid": (1, "fminf(fmaxf({a0} + 3.0f, 0.0f), 6.0f) / 6.0f"),
    "hardswish": (1, "{a0} * fminf(fmaxf({a0} + 3.0f, 0.0f), 6.0f) / 6.0f"),
    "softsign": (1, "{a0} / (1.0f + fabsf({a0}))"),
    "logsigmoid": (1, "(fminf({a0}, 0.0f) - log1pf(expf(-fabsf({a0}))))"),
    "tanhshrink": (1, "{a0} - tanhf({a0})"),
    "threshold": (1, "({a0} > {p0} ? {a0} : {p1})"),
    "addcmul": (3, "{a0} + {p0} * {a1} * {a2}"),
    "addcdiv": (3, "{a0} + {p0} * {a1} / {a2}"),
    "lerp": (3, "{a0} + {a2} * ({a1} - {a0})"),
    "dropdim": (1, "{a0}"),  # a shape change only: a dropped reduction dim
    # Masks: a bool tensor is 0.0 or 1.0 in a kernel (NaN compares false, except ne, as in torch)
    "gt": (2, "({a0} > {a1} ? 1.0f : 0.0f)"),
    "ge": (2, "({a0} >= {a1} ? 1.0f : 0.0f)"),
    "lt": (2, "({a0} < {a1} ? 1.0f : 0.0f)"),
    "le": (2, "({a0} <= {a1} ? 1.0f : 0.0f)"),
    "eq": (2, "({a0} == {a1} ? 1.0f : 0.0f)"),
    "ne": (2, "({a0} != {a1} ? 1.0f : 0.0f)"),
    "logical_not": (1, "({a0} == 0.0f ? 1.0f : 0.0f)"),
    "logical_and": (2, "(({a0} != 0.0f && {a1} != 0.0f) ? 1.0f : 0.0f)"),
    "logical_or": (2, "(({a0} != 0.0f || {a1} != 0.0f) ? 1.0f : 0.0f)"),
    "logical_xor": (2, "((({a0} != 0.0f) != ({a1} != 0.0f)) ? 1.0f : 0.0f)"),
    "where": (3, "({a0} != 0.0f ? {a1} : {a2})"),  # a0: the condition, a mask
    "sign": (1, "({a0} > 0.0f ? 1.0f : ({a0} < 0.0f ? -1.0f : {a0}))"),  # 0 and NaN stay as they are
}


@dataclass
class Emitter:
    """Emits C statements computing expressions for one element; each node once (CSE)."""

    names: dict[Expr, str] = field(default_factory=dict)  # pre-bound values: leaves, row scalars
    lines: list[str] = field(default_factory=list)
    prefix: str = "t"

    def emit(self, e: Expr) -> str:
        if e in self.names:
            return self.names[e]
        if e.op == "const":
            return c_float(e.params[0])
        if e.op == "inv_n":
            return "inv_n"
        if e.op in ("leaf", "scalar") or e.is_reduction:
            raise KeyError(f"unbound {e.op} in element expression")
        operands = {f"a{i}": self.emit(arg) for i, arg in enumerate(e.args)}
        params = {f"p{i}": c_float(p) for i, p in enumerate(e.params)}
        template = POINTWISE[e.op][1]
        if e.op in ("add", "sub") and e.params == (1.0,):
            template = "{a0} + {a1}" if e.op == "add" else "{a0} - {a1}"
        name = f"{self.prefix}{len(self.names)}"
        self.lines.append(f"const float {name} = {template.format(**operands, **params)};")
        self.names[e] = name
        return name


def substitute(e: Expr, mapping: dict[Expr, Expr]) -> Expr:
    """`e` with each subexpression that is a key of `mapping` replaced by its value."""
    memo: dict[Expr, Expr] = {}

    def rebuild(node: Expr) -> Expr:
        if node in mapping:
            return mapping[node]
        if node not in memo:
            memo[node] = Expr(node.op, tuple(rebuild(a) for a in node.args), node.params, node.shape)
        return memo[node]

    return rebuild(e)

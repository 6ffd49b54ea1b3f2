"""Lower a traced forward into steps: generated kernels plus explicit library calls. Pure (no torch).

The same lowering serves the planner (`applies`, from the spec's graph summary, where module
attributes and tensor values are unknown) and the worker (`generate`, from the real FX graph and
module). Pointwise nodes and row reductions stay *lazy* expressions (`expr.Expr`) until something
needs their value: a library call (cuBLAS/cuDNN through F.linear/F.conv*, torch.matmul...), a view,
a template that reads a tensor (dim reduction, stencil; pooling beyond its prologue) or the output. Then they are
*materialized* by one generated kernel: a pointwise kernel, or a row kernel when the expression
holds reductions over the last dim (softmax, layernorm, rmsnorm, `x * rsqrt(mean(x^2) + eps)`...).

Each op is lowered by the handler `LOWERINGS` holds for its normalized function name, registered
with `@register_lowering` by its family's module (`lower_pointwise`, `lower_norms`,
`lower_reductions`, `lower_stencil`, `lower_library`; importing the package registers them all),
the way Inductor registers its lowerings. An op no handler takes, or whose handler raises
`Unsupported`, is left to PyTorch where that is sound.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hiera_core.spaces.codegen import mentions
from hiera_core.spaces.custom_cuda.expr import (
    Expr,
    const,
    is_mask,
    leaf,
    leaves_in,
    reduced_dim,
    reductions_in,
    renamed,
    scalar,
    scalars_in,
    substitute,
    without_dim,
)
from hiera_core.spaces.custom_cuda.fused import TEMPLATE_OUTPUT
from hiera_core.spaces.custom_cuda.graph import Lowering, Op, Ref, Resolver, Step, Unsupported, attr_expr, bind

# operator.<name> rendered as Python infix, for an op left to PyTorch: on sizes, and on tensors (a
# causal mask's `self.bias == 0`), where the operator calls what the reference's operator calls.
INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%", "pow": "**",
         "neg": "-", "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "and_": "&",
         "or_": "|", "xor": "^", "invert": "~"}

# An op's handler: the value of its node (an Expr, a PyValue, a Deferred...); raises Unsupported.
Handler = Callable[["Lowerer", Op, dict], Any]
EPILOGUE_FAMILIES = ("group_norm", "scan")  # templates that apply a pointwise epilogue as they store (and
# a convolution's stencil step: `takes_epilogue`)
# Views that take a part of a tensor: rows may lie apart in memory (`_hiera_leaf`'s pitched mode).
PART_VIEWS = {"getitem", "narrow", "select"}
# Ops whose bool result (a mask) kernels compute: 0.0 or 1.0 in the element expression.
MASK_FUNCTIONS = {"gt", "ge", "lt", "le", "eq", "ne", "logical_not", "logical_and", "logical_or", "logical_xor",
                  "invert", "and_", "or_", "xor", "bool"}
LOWERINGS: dict[str, Handler] = {}  # normalized function name -> its handler
# Passes over the finished steps (the forward's returns at hand), in registration order: fusions
# across steps that no single op's handler sees (a stencil step feeding the next, fused in time).
STEP_PASSES: list[Callable[[list[Step], str], None]] = []


def register_lowering(*fns: str) -> Callable[[Handler], Handler]:
    """Register the decorated handler for the ops named `fns` (their normalized function names)."""

    def decorate(handler: Handler) -> Handler:
        for fn in fns:
            if fn in LOWERINGS:  # one handler per name: one that declines an op calls the next itself
                raise ValueError(f"{fn} has two lowerings: {LOWERINGS[fn].__name__} and {handler.__name__}")
            LOWERINGS[fn] = handler
        return handler

    return decorate


def no_template(op: Op) -> Unsupported:
    return Unsupported(f"{op.fn} ({op.name}) has no template")


@dataclass
class PyValue:
    """A non-tensor value of the forward (an int from x.size(0), a tuple...), by its Python expr."""

    expr: str


class Deferred:
    """A value its family keeps symbolic past its node (a padded grid, a stencil sum) while only
    the family's own ops read it; computed, by `computed`, when anything else does."""

    def computed(self, lw: Lowerer) -> Expr:
        raise NotImplementedError

    def made_by_torch(self, lw: Lowerer, source: Expr, call: str, shape: tuple, node: str) -> Expr:
        """Its value as one PyTorch call on `source` computed makes it (`call` with `{}` where the
        source goes), once per lowering; the step covers `node`."""
        if id(self) not in lw.deferred_values:
            (held,) = lw.materialize([source])
            out = lw.new_var(node)
            lw.steps.append(Step("library", [out], call=call.format(held), covers=[node]))
            lw.deferred_values[id(self)] = leaf(out, shape)
        return lw.deferred_values[id(self)]


class Lowerer:
    """One lowering's state (each node's value so far, the steps emitted, the expressions
    materialized) and the helpers the handlers build values with."""

    def __init__(self, ops: list[Op], resolver: Resolver):
        self.ops = ops
        self.ops_by_name = {op.name: op for op in ops}  # each node's shape and dtype as traced
        self.resolver = resolver
        self.values: dict[str, Any] = {}
        self.steps: list[Step] = []
        self.materialized: dict[Expr, str] = {}
        self.covers: dict[Expr, str] = {}  # expression -> FX node it was built for
        self.contracts: list[str] = []
        self.fallbacks: dict[str, str] = {}
        self.bools: dict[Expr, str] = {}  # mask expression -> the bool tensor made of it (as_bool)
        self.reduced: dict[tuple, Expr] = {}  # (fn, expression, dims) -> dims_reduction's, reused
        self.deferred_values: dict[int, Expr] = {}  # id(a Deferred: stencil sum, padded grid, flip) -> its value

    def run(self) -> Lowering:
        inputs: list[str] = []
        returns = "None"
        for op in self.ops:
            if op.op == "placeholder":
                inputs.append(op.target)
                self.values[op.name] = self._tensor_leaf(op, op.target)
            elif op.op == "get_attr":
                if op.target.startswith("_tensor_constant"):  # made by FX while tracing: not on the module
                    self.values[op.name] = self._traced_constant(op)
                    continue
                self.values[op.name] = self._tensor_leaf(op, attr_expr(op.target))
            elif op.op == "output":
                returns = self.render(op.args[0], materialize=True)
            else:
                try:
                    self._lower(op)
                except Unsupported as why:
                    self.values[op.name] = self._leave_to_pytorch(op, why)
        self._fuse_epilogues(returns)
        for step_pass in STEP_PASSES:
            step_pass(self.steps, returns)
        return Lowering(self.steps, returns, inputs, self.contracts, self.fallbacks)

    def _leave_to_pytorch(self, op: Op, why: Unsupported) -> Any:
        """The node as the reference computes it (its own torch call on the values at hand), where no
        template handles it; raises `why` again where that is not sound: an in-place method (the
        lowering's values are not the reference's tensors), or a call that cannot be written out."""
        if op.op == "call_method" and op.fn.endswith("_"):
            raise why
        if op.op == "call_module":
            call = f"{attr_expr(op.target)}({self.call_args(op.args, op.kwargs)})"
        elif op.op == "call_method":
            receiver, *rest = op.args
            call = f"{self.render(receiver, materialize=True)}.{op.target}({self.call_args(rest, op.kwargs)})"
        elif op.target.startswith(("torch.", "math.")):  # math: the reference imports it to call it
            call = f"{op.target}({self.call_args(op.args, op.kwargs)})"
        elif op.target == "operator.getitem" and len(op.args) == 2 and not op.kwargs:
            call = f"{self.render(op.args[0], materialize=True)}[{self.render(op.args[1], materialize=True)}]"
        elif op.target.startswith("operator.") and op.fn in INFIX and not op.kwargs and 1 <= len(op.args) <= 2:
            operands = [self.render(a, materialize=True) for a in op.args]
            call = (f"({INFIX[op.fn]}{operands[0]})" if len(operands) == 1
                    else f"({operands[0]} {INFIX[op.fn]} {operands[1]})")
        else:
            raise why
        out = self.new_var(op.name)
        self.steps.append(Step("library", [out], call=call, covers=[op.name]))
        self.fallbacks[op.name] = str(why)
        return self.result_value(op, out)

    def _fuse_epilogues(self, returns: str) -> None:
        """A pointwise kernel that only transforms a group norm's, a scan's or a depthwise
        convolution's output (GroupNorm + SiLU, a scaled cumsum, a depthwise conv + ReLU6) runs in that
        template's store instead: one read and one write of the tensor fewer. A convolution's
        epilogue may also read per-channel tensors (its batch norm and activation)."""
        for producer in [s for s in self.steps if takes_epilogue(s)]:
            (target,) = producer.targets
            readers = [s for s in self.steps if s is not producer and reads(s, target)]
            if len(readers) != 1 or mentions(returns, target):
                continue
            (step,) = readers
            if step.family != "pointwise" or len(step.exprs) != 1:
                continue
            (expr,) = step.exprs
            leaves = leaves_in([expr])
            outputs = [e for e in leaves if e.params[0] == target]
            others = [e for e in leaves if e.params[0] != target]
            if len(outputs) != 1 or expr.shape != outputs[0].shape or scalars_in([expr]):
                continue
            if others and not (producer.family == "stencil" and all(self.per_channel(e, expr.shape) for e in others)):
                continue
            producer.config["epilogue"] = substitute(expr, {outputs[0]: leaf(TEMPLATE_OUTPUT, expr.shape)})
            if others:  # the depthwise kernel reads their value of each grid's channel
                producer.config["per_channel"] = others
            producer.targets = step.targets
            producer.covers = producer.covers + step.covers
            self.steps.remove(step)

    def per_channel(self, e: Expr, shape: tuple) -> bool:
        """A plain tensor of the module (a batch norm's statistics viewed (C, 1, 1)) that broadcasts to
        (N, C, *spatial) `shape` along C only, and no step of the forward computes."""
        dims = (1,) * (len(shape) - len(e.shape)) + tuple(e.shape)
        return (len(shape) >= 3 and len(e.params) == 1 and dims[1] == shape[1] and dims.count(1) == len(shape) - 1
                and not any(mentions(e.params[0], target) for step in self.steps for target in step.targets))

    # -- dispatch -------------------------------------------------------------------------------
    def _lower(self, op: Op) -> None:
        fn = op.fn
        if op.op == "call_method" and fn.endswith("_"):
            raise Unsupported(f"in-place method {fn} ({op.name}) has no template")
        if (op.dtype not in (None, "float32") and fn not in ("argmax", "argmin", "max", "min", "getitem", "size",
                                                            "dim", "getattr")
                and not (op.dtype == "bool" and fn in MASK_FUNCTIONS)):
            raise Unsupported(f"{op.name} is {op.dtype}: the templates handle float32 (and masks) only")
        args = bind(op, self.resolver)
        if fn not in LOWERINGS:
            raise no_template(op)
        self.values[op.name] = LOWERINGS[fn](self, op, args)

    # -- materialization ------------------------------------------------------------------------
    def materialize(self, exprs: list[Expr]) -> list[str]:
        """Python expressions holding the values of `exprs`, emitting kernels for the lazy ones."""
        # A mask leaf is a bool tensor: where a float value is needed, a kernel makes it one.
        pending = [e for e in dict.fromkeys(exprs) if (e.op != "leaf" or is_mask(e)) and e not in self.materialized]
        for e in [e for e in pending if not leaves_in([e])]:  # no tensor to run a kernel over
            if e.op != "const":
                raise Unsupported("a tensor computed from constants only has no template")
            # a traced constant read by PyTorch: a CPU tensor, as the reference's torch.tensor(c) made it
            self.materialized[e] = f"torch.full({e.shape!r}, {self.render(e.params[0], materialize=False)})"
            pending.remove(e)
        plain = [e for e in pending if not reductions_in([e])]
        with_rows = [e for e in pending if e not in plain]
        for group in _group_by(plain, lambda e: e.shape):
            self._emit_kernel("pointwise", group)
        for e in with_rows:  # row kernels one value at a time: each may need its own splitting
            if e not in self.materialized:
                self._emit_rows(e)
        return [e.params[0] if e.op == "leaf" and not is_mask(e) else self.materialized[e] for e in exprs]

    def _emit_rows(self, e: Expr) -> None:
        reds = reductions_in([e])
        if not leaves_in([e]) or any(not leaves_in([r]) for r in reds):
            raise Unsupported("a reduction of a constant has no template")
        # The rows of the outermost reduction that fits e's shape (walk order is children first): the
        # inner ones over other rows are computed first, so each recursion is on a smaller value.
        rows = next(((r.args[0].shape, reduced_dim(r)) for r in reversed(reds)
                     if e.shape in (r.args[0].shape, r.shape, without_dim(r.args[0].shape, reduced_dim(r)))), None)
        # What one row kernel cannot compute in place: reductions over other rows (another shape or
        # dim), and dropped-dim results (dropdim) unless the whole value is per row. They become
        # leaves, computed first by their own kernels, innermost first.
        bad = [n for n in e.walk() if (n.is_reduction and (n.args[0].shape, reduced_dim(n)) != rows)
               or (n.op == "dropdim" and (rows is None or e.shape != without_dim(*rows)))]
        if not bad:
            viewed = self._per_row_views(e, *rows)
            self._emit_kernel("rows", [viewed])
            self.materialized[e] = self.materialized[viewed]
            return
        innermost = [n for n in bad if not any(m in bad for m in n.args[0].walk())]
        if e in innermost:
            raise Unsupported(f"{self.covers.get(e, 'a value')} is no row kernel's result: reduced over other rows")
        names = self.materialize(innermost)
        mapping = {n: leaf(name, n.shape) for n, name in zip(innermost, names)}
        for node in e.walk():  # a computed row value's dropped dim: a view of it without that dim
            if node.op == "dropdim" and node.args[0] in mapping:
                mapping[node] = self._view(mapping[node.args[0]], node.shape)
        self.materialized[e] = self.materialize([substitute(e, mapping)])[0]

    def _view(self, e: Expr, shape: tuple) -> Expr:
        """Leaf e viewed with `shape`, one dim of size 1 dropped (squeeze) or added (unsqueeze)."""
        dropped = len(shape) < len(e.shape)
        longer, shorter = (e.shape, shape) if dropped else (shape, e.shape)
        dim = next(d for d in range(len(longer)) if longer[d] == 1 and longer[:d] + longer[d + 1:] == shorter)
        out = self.new_var(f"{e.params[0].removeprefix('v_')}_view")
        self.steps.append(Step("library", [out], call=f"{e.params[0]}.{'squeeze' if dropped else 'unsqueeze'}({dim})"))
        return renamed(e, out, shape)

    def _per_row_views(self, e: Expr, row_shape: tuple, dim: int) -> Expr:
        """e with the leaves its per-row part reads (one value a row, of the rows' dropped shape, as
        `x.amax(-1) - torch.std(x, -1, keepdim=True).squeeze(-1)` reads the squeezed std) viewed
        with the row dim kept: the kernel reads them by broadcast like any per-row value."""
        dropped = without_dim(row_shape, dim)
        if not dropped:
            return e
        kept = row_shape[:dim] + (1,) + row_shape[dim + 1:]
        views: dict[Expr, Expr] = {}

        def rebuild(node: Expr) -> Expr:
            if node.op == "leaf" or node.is_reduction:
                return node
            args = []
            for arg in node.args:
                if arg.op == "leaf" and arg.shape == dropped and node.shape == dropped:
                    if arg not in views:
                        views[arg] = self._view(arg, kept)
                    args.append(views[arg])
                else:
                    args.append(rebuild(arg))
            rebuilt = Expr(node.op, tuple(args), node.params, node.shape)
            if node in self.covers:  # the kernel covers the nodes it computes, viewed leaves or not
                self.covers.setdefault(rebuilt, self.covers[node])
            return rebuilt

        return rebuild(e)

    def _emit_kernel(self, family: str, exprs: list[Expr]) -> None:
        targets = [self.new_var(self.covers.get(e, "value")) for e in exprs]
        covers = [self.covers[node] for e in exprs for node in e.walk() if node in self.covers]
        self.steps.append(Step(family, targets, exprs=exprs, covers=list(dict.fromkeys(covers))))
        for e, target in zip(exprs, targets):
            self.materialized[e] = target

    # -- helpers the handlers build with --------------------------------------------------------
    def node(self, op: Op, fn: str, operands: tuple, params: tuple = ()) -> Expr:
        e = Expr(fn, operands, params, tuple(op.shape) if op.shape is not None else ())
        if not leaves_in([e]) and scalars_in([e]):
            raise Unsupported(f"{fn} ({op.name}) of Python numbers is Python's arithmetic")
        return self.cover(op, e)

    def cover(self, op: Op, e: Expr) -> Expr:
        self.covers.setdefault(e, op.name)
        return e

    @staticmethod
    def _traced_constant(op: Op) -> Expr:
        """A one-element float32 tensor FX made while tracing is its value (a stand-in while planning,
        where the value is not known); a larger one is not on the module, so nothing can read it."""
        if op.dtype != "float32" or op.shape is None or math.prod(op.shape) != 1:
            raise Unsupported(f"{op.name}: a tensor the trace made ({op.target}), which the module lacks")
        return Expr("const", params=(op.constant if op.constant is not None else 1.0,), shape=tuple(op.shape))

    def _tensor_leaf(self, op: Op, python_expr: str) -> Expr | PyValue:
        if op.dtype is None and op.shape is not None:
            return leaf(python_expr, op.shape)
        return self.result_value(op, python_expr)

    @staticmethod
    def result_value(op: Op, python_expr: str) -> Expr | PyValue:
        """The value of node `op` held by `python_expr`: a leaf kernels read when it is a float32
        tensor or a mask (bool), in place through its mode when it is a part of another tensor
        (`gates.chunk(3, 1)[0]`, `x[..., :h]`, narrow); anything else (an int64 index tensor, a
        size) only ops left to PyTorch read."""
        if op.shape is None or op.dtype not in ("float32", "bool"):
            return PyValue(python_expr)
        return leaf(python_expr, op.shape, mask=op.dtype == "bool", strided=op.fn in PART_VIEWS)

    def value(self, ref):
        return self.values[ref.name] if isinstance(ref, Ref) else ref

    def computed(self, value):
        """`value`, a stencil sum or a padded grid computed (by its kernel, or its pad) where something
        reads it other than through the stencil arithmetic."""
        return value.computed(self) if isinstance(value, Deferred) else value

    def lazy(self, ref) -> Expr:
        value = self.computed(self.value(ref))
        if not isinstance(value, Expr):
            raise Unsupported(f"{ref!r} is not a float tensor")
        return value

    def operand(self, ref) -> Expr:
        """An operand of arithmetic: a constant, a Python number the forward computes (a scalar
        argument of the kernel), or a tensor's expression."""
        if isinstance(ref, (bool, int, float)):
            return const(float(ref))
        value = self.value(ref)
        if isinstance(value, PyValue) and isinstance(ref, Ref) and self.ops_by_name[ref.name].shape is None:
            return scalar(value.expr)
        return self.lazy(ref)

    def render(self, value, materialize: bool) -> str:
        if isinstance(value, Ref):
            resolved = self.computed(self.values[value.name])
            if isinstance(resolved, PyValue):
                return resolved.expr
            if isinstance(resolved, Expr):
                if self.ops_by_name[value.name].dtype == "bool":
                    return self.as_bool(resolved)
                return self.materialize([resolved])[0]
            raise Unsupported(f"{value.name} cannot be used here")
        if isinstance(value, slice):
            return f"slice({', '.join(self.render(v, materialize) for v in (value.start, value.stop, value.step))})"
        if isinstance(value, (list, tuple)):
            inner = ", ".join(self.render(v, materialize) for v in value)
            return f"({inner}{',' if len(value) == 1 else ''})" if isinstance(value, tuple) else f"[{inner}]"
        if isinstance(value, float) and not math.isfinite(value):
            return f"float({str(value)!r})"  # repr gives inf / nan, which are not Python names
        return repr(value)

    def as_bool(self, e: Expr) -> str:
        """A bool tensor holding mask `e`: the tensor itself for a mask leaf, else the kernel's 0/1
        output compared to 0 (a reader left to PyTorch, or the forward's result, wants a bool)."""
        if is_mask(e):
            return e.params[0]
        if e not in self.bools:
            (values,) = self.materialize([e])
            self.bools[e] = self.new_var(f"{self.covers.get(e, 'mask')}_bool")
            self.steps.append(Step("library", [self.bools[e]], call=f"({values} != 0)",
                                   covers=[self.covers[e]] if e in self.covers else []))
        return self.bools[e]

    def call_args(self, args: list, kwargs: dict) -> str:
        parts = [self.render(a, True) for a in args] + [f"{k}={self.render(v, True)}" for k, v in kwargs.items()]
        return ", ".join(parts)

    def new_var(self, name: str) -> str:
        base = "v_" + "".join(c if c.isalnum() else "_" for c in name)
        taken = {t for s in self.steps for t in s.targets}
        candidate, index = base, 1
        while candidate in taken:
            index += 1
            candidate = f"{base}_{index}"
        return candidate


def lower(ops: list[Op], resolver: Resolver) -> Lowering:
    return Lowerer(ops, resolver).run()


def takes_epilogue(step: Step) -> bool:
    return step.family in EPILOGUE_FAMILIES or (step.family == "stencil" and "weight" in step.config)


def reads(step: Step, name: str) -> bool:
    """Whether `step` reads the variable `name`."""
    texts = [step.call, *step.inputs, *(e.params[0] for e in leaves_in(step.exprs))]
    texts += [value for value in step.config.values() if isinstance(value, str)]
    return any(mentions(text, name) for text in texts)


def _group_by(items, key):
    groups: dict = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return list(groups.values())

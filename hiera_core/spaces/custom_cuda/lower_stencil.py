"""Lowerings of stencils: depthwise or single-channel 3^d convolutions, and stencils spelled with
slices of a zero-padded grid (`F.pad` by one, then shifted windows combined linearly), both to the
stencil template. Pure (no torch).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from hiera_core.spaces.codegen import mentions
from hiera_core.spaces.custom_cuda.columns_template import takes_columns
from hiera_core.spaces.custom_cuda.depthwise_template import DEPTHWISE_KERNELS
from hiera_core.spaces.custom_cuda.expr import Expr, leaf
from hiera_core.spaces.custom_cuda.graph import Op, Ref, Step, Unsupported, attr_expr
from hiera_core.spaces.custom_cuda.lowering import STEP_PASSES, Deferred, Lowerer, reads, register_lowering
from hiera_core.spaces.custom_cuda.stencil_steps_template import STENCIL_STEPS_MAX
from hiera_core.spaces.custom_cuda.stencil_template import nonzero_taps


@dataclass(frozen=True)
class PaddedGrid(Deferred):
    """F.pad(x) by one zero on each side of its last `rank` dims: a grid read through shifted windows
    (padded for real, by its own torch call, only where something reads it otherwise)."""

    source: Expr
    rank: int
    name: str  # the pad's FX node

    def computed(self, lw: Lowerer) -> Expr:
        shape = tuple(self.source.shape[:-self.rank]) + tuple(size + 2 for size in self.source.shape[-self.rank:])
        return self.made_by_torch(lw, self.source, f"torch.nn.functional.pad({{}}, {(1, 1) * self.rank!r})", shape,
                                  self.name)


@dataclass
class StencilSum(Deferred):
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

    def computed(self, lw: Lowerer) -> Expr:
        if id(self) in lw.deferred_values:
            return lw.deferred_values[id(self)]
        (source,) = lw.materialize([self.source])
        coefficients = tuple(float(self.taps.get(o, 0.0)) for o in itertools.product((-1, 0, 1), repeat=self.rank))
        taps = nonzero_taps(coefficients, self.rank) or [(0,) * self.rank]
        out = lw.new_var(self.covers[-1] if self.covers else "stencil")
        config = {"rank": self.rank, "taps": taps, "pruned": True, "coefficients": coefficients,
                  "width": self.source.shape[-1]}
        lw.steps.append(Step("stencil", [out], inputs=[source], covers=list(self.covers), config=config))
        value = lw.deferred_values[id(self)] = leaf(out, self.source.shape)
        return value


def fuse_steps_in_time(steps: list[Step], returns: str) -> None:
    """Constant 2D stencils that feed only the next one (Jacobi or heat sweeps, each padding its
    input with zeros) become one kernel of up to STENCIL_STEPS_MAX steps: the grid is read and
    written once instead of once per step."""
    index = 0
    while index < len(steps):
        first = steps[index]
        if not _time_fusable(first):
            index += 1
            continue
        (target,) = first.targets
        readers = [s for s in steps if s is not first and reads(s, target)]
        if (len(readers) != 1 or not _time_fusable(readers[0]) or readers[0].inputs != [target]
                or mentions(returns, target) or len(_steps_of(first)) + len(_steps_of(readers[0])) > STENCIL_STEPS_MAX):
            index += 1
            continue
        (second,) = readers
        second.config = {"rank": 2, "steps": _steps_of(first) + _steps_of(second), "width": first.config["width"]}
        second.inputs = list(first.inputs)
        second.covers = list(dict.fromkeys(first.covers + second.covers))
        steps.remove(first)  # the second is checked again: it may feed a third


def _time_fusable(step: Step) -> bool:
    return step.family == "stencil" and step.config.get("rank") == 2 and ("coefficients" in step.config
                                                                          or "steps" in step.config)


def _steps_of(step: Step) -> list[tuple[float, ...]]:
    return list(step.config["steps"]) if "steps" in step.config else [tuple(step.config["coefficients"])]


STEP_PASSES.append(fuse_steps_in_time)


# -- stencils spelled with slices of a zero-padded grid ----------------------------------------
@register_lowering("pad")
def pad(lw: Lowerer, op: Op, args: dict) -> PaddedGrid:
    pads = args.get("pad")
    if not (isinstance(pads, (list, tuple)) and len(pads) in (4, 6) and all(p == 1 for p in pads)):
        raise Unsupported(f"pad ({op.name}) by {pads!r}: the stencil template pads each side of 2 or 3 dims by one")
    if args.get("mode", "constant") not in (None, "constant") or args.get("value") not in (None, 0, 0.0):
        raise Unsupported(f"pad ({op.name}) other than with zeros has no template")
    x = lw.lazy(args["input"])
    rank = len(pads) // 2
    if len(x.shape) < rank:
        raise Unsupported(f"pad ({op.name}) of a rank-{len(x.shape)} tensor over {rank} dims")
    return PaddedGrid(x, rank, op.name)


def window(op: Op, grid: PaddedGrid, index) -> StencilSum:
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


def stencil_arithmetic(lw: Lowerer, op: Op, fn: str, args: dict) -> StencilSum | None:
    """A linear combination of stencil sums (and of the grid itself, the centre tap) with constant
    factors, or None when this op is not one (the sums then become values for the op's kernel)."""
    def resolved(value):
        """A sum already computed by a kernel is that kernel's output from then on."""
        value = lw.value(value) if isinstance(value, Ref) else value
        return lw.deferred_values.get(id(value), value) if isinstance(value, StencilSum) else value

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


# -- convolutions that are stencils ------------------------------------------------------------
def stencil_config(lw: Lowerer, op: Op, args: dict) -> dict | None:
    """Stencil parameters when this conv is a depthwise/single-channel 3^d stencil (or a 2D one of a
    wider odd kernel, DEPTHWISE_KERNELS), else None: same padding, or less (to none) where the column
    kernel takes the window (its `crop`: the rows and columns a side that the padding leaves out)."""
    rank = int(op.fn[-2])
    x_shape = _shape_of(lw, args.get("input"))
    if op.op == "call_module":
        module = lw.resolver.module(op.target)
        weight_path, bias_path = f"{op.target}.weight", f"{op.target}.bias"
        if module is not None:
            if module.padding_mode != "zeros":
                return None
            conv = {"stride": module.stride, "padding": module.padding, "dilation": module.dilation,
                    "groups": module.groups}
            bias_present = module.bias is not None
        else:  # planning from the spec: stride 1 takes its padding from how much smaller the output is
            conv = {"stride": 1, "shrink": _traced_shrink(op, x_shape, rank), "dilation": 1, "groups": None}
            bias_present = lw.resolver.tensor_kind(bias_path) is not None
    else:
        weight_ref, bias_ref = args.get("weight"), args.get("bias")
        weight_op = _op_of(lw, weight_ref)
        if weight_op is None or weight_op.op != "get_attr":
            return None
        weight_path = weight_op.target
        bias_op = _op_of(lw, bias_ref)
        if bias_ref is not None and (bias_op is None or bias_op.op != "get_attr"):
            return None
        bias_path = bias_op.target if bias_op is not None else None
        bias_present = bias_op is not None
        conv = {k: args.get(k, default) for k, default in
                (("stride", 1), ("padding", 0), ("dilation", 1), ("groups", 1))}
    weight_shape = _param_shape(lw, weight_path)
    if x_shape is None or weight_shape is None or len(x_shape) != rank + 2 or len(weight_shape) != rank + 2:
        return None
    channels, window = x_shape[1], tuple(weight_shape[2:])
    if tuple(weight_shape[:2]) != (channels, 1) or any(k % 2 == 0 for k in window):
        return None
    square = len(set(window)) == 1
    if square and not (window[0] == 3 or (rank == 2 and window[0] in DEPTHWISE_KERNELS)):
        return None
    if not square and (rank != 2 or max(window) > max(DEPTHWISE_KERNELS)):
        return None
    radii = tuple(k // 2 for k in window)
    paddings = _paddings(conv, radii)
    if not (_all_equal(conv["stride"], 1, rank) and _all_equal(conv["dilation"], 1, rank) and paddings is not None):
        return None
    crops = tuple(r - p for r, p in zip(radii, paddings))
    kernel = window[0] if square else window
    if (any(crops) or not square) and not takes_columns(rank, kernel, x_shape[-1]):
        return None
    if conv["groups"] not in (None, channels) and channels != 1:
        return None
    config = {"rank": rank, "kernel": kernel, "weight": attr_expr(weight_path), "weight_path": weight_path,
              "bias": attr_expr(bias_path) if bias_present else None, "channels": channels, "width": x_shape[-1]}
    if any(crops):
        config["crop"] = crops[0] if len(set(crops)) == 1 else crops
    return config


def _paddings(conv: dict, radii: tuple[int, ...]) -> tuple[int, ...] | None:
    """A stride-1 convolution's zero padding on each axis, where each is from none to its radius (the
    window's centre stays inside the map); else None. From the traced shapes where planning from the
    spec: an output 2 * (radius - p) smaller on an axis is padded by p there."""
    if "shrink" in conv:
        shrink = conv["shrink"]
        if shrink is None or any(s % 2 or not 0 <= s // 2 <= r for s, r in zip(shrink, radii)):
            return None
        return tuple(r - s // 2 for s, r in zip(shrink, radii))
    padding = conv["padding"]
    if padding in ("same", "valid"):
        return radii if padding == "same" else (0,) * len(radii)
    paddings = tuple(padding) if isinstance(padding, (list, tuple)) else (padding,) * len(radii)
    if len(paddings) != len(radii) or not all(isinstance(p, int) and 0 <= p <= r for p, r in zip(paddings, radii)):
        return None
    return paddings


def _traced_shrink(op: Op, x_shape: tuple | None, rank: int) -> tuple[int, ...] | None:
    """How much smaller a convolution's traced output is than its input on each of its `rank` axes."""
    if op.shape is None or x_shape is None:
        return None
    return tuple(x - o for x, o in zip(x_shape[-rank:], op.shape[-rank:]))


def conv_stencil(lw: Lowerer, op: Op, args: dict, config: dict) -> Expr:
    weight = lw.resolver.tensor(config["weight_path"])
    if weight is not None and config["kernel"] == 3:  # generation: the taps (planning does not need them)
        pruned = lw.resolver.tensor_kind(config["weight_path"]) == "buffer"
        config["taps"] = stencil_taps(weight, config["rank"], pruned)
        config["pruned"] = pruned
    (source,) = lw.materialize([lw.lazy(args["input"])])
    inputs = [source, config["weight"]] + ([config["bias"]] if config["bias"] else [])
    out = lw.new_var(op.name)
    lw.steps.append(Step("stencil", [out], inputs=inputs, covers=[op.name], config=config))
    return leaf(out, op.shape or ())


def stencil_taps(weight, rank: int, pruned: bool) -> list[tuple[int, ...]]:
    """Offsets (dz, dy, dx) (or (dy, dx)) of the taps; with `pruned`, only those nonzero in any channel."""
    offsets = list(itertools.product((-1, 0, 1), repeat=rank))
    if not pruned:
        return offsets
    flat = weight.detach().reshape(weight.shape[0], -1).abs().amax(dim=0).tolist()
    return [o for o, magnitude in zip(offsets, flat) if magnitude != 0.0]


def _op_of(lw: Lowerer, ref) -> Op | None:
    return next((o for o in lw.ops if isinstance(ref, Ref) and o.name == ref.name), None)


def _shape_of(lw: Lowerer, ref) -> tuple | None:
    value = lw.value(ref) if isinstance(ref, Ref) else None
    return value.shape if isinstance(value, Expr) else None


def _param_shape(lw: Lowerer, path: str) -> tuple | None:
    owner = next((o for o in lw.ops if o.op == "get_attr" and o.target == path), None)
    if owner is not None and owner.shape is not None:
        return owner.shape
    return lw.resolver.tensor_shape(path)


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

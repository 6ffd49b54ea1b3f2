"""Lowerings of softmax and the norms. Pure (no torch).

Named ops are expanded into expressions: softmax(x) = exp(x - max) / sum(exp(x - max)) (the row
kernel recognises the pair and computes it online in one pass), layer_norm, rms_norm; inference
batch norm is a per-channel affine map (pointwise). Group norm, whose statistics span channels and
space, gets its own template.
"""

from __future__ import annotations

import math

from hiera_core.spaces.custom_cuda.expr import Expr, const, leaf, row_reduction
from hiera_core.spaces.custom_cuda.graph import Op, Step, Unsupported, attr_expr
from hiera_core.spaces.custom_cuda.lowering import Lowerer, register_lowering


@register_lowering("softmax", "log_softmax")
def softmax(lw: Lowerer, op: Op, args: dict) -> Expr:
    """Over the last dim a block a row; over another (softmax over channels) a thread a row."""
    x = lw.lazy(args["input"])
    dim = row_dim(lw, op, x, args.get("dim"))
    peak = row_reduction("rmax", x, dim)
    shifted = Expr("sub", (x, peak), (1.0,), x.shape)
    total = row_reduction("rsum", Expr("exp", (shifted,), shape=x.shape), dim)
    if op.fn == "softmax":
        return lw.node(op, "div", (Expr("exp", (shifted,), shape=x.shape), total))
    return lw.node(op, "sub", (shifted, Expr("log", (total,), shape=peak.shape)), (1.0,))


@register_lowering("layer_norm")
def layer_norm(lw: Lowerer, op: Op, args: dict) -> Expr:
    x = lw.lazy(args["input"])
    if op.op == "call_module":
        module = lw.resolver.module(op.target)
        shape = tuple(module.normalized_shape) if module is not None else x.shape[-1:]
        eps = float(module.eps) if module is not None else 1e-5
        prefix = attr_expr(op.target)
        has_weight = module is None or module.weight is not None
        has_bias = module is None or module.bias is not None
        if len(shape) > 1:
            return _layer_norm_over_dims(lw, op, x, shape, eps, f"{prefix}.weight" if has_weight else None,
                                         f"{prefix}.bias" if has_bias else None)
        weight = leaf(f"{prefix}.weight", x.shape[-1:]) if has_weight else None
        bias = leaf(f"{prefix}.bias", x.shape[-1:]) if has_bias else None
    else:
        shape = tuple(args["normalized_shape"]) if isinstance(args["normalized_shape"], (list, tuple)) \
            else (args["normalized_shape"],)
        eps = float(args.get("eps", 1e-5))
        if len(shape) > 1:
            return _layer_norm_over_dims(lw, op, x, shape, eps, *_affine_paths(lw, op, args))
        weight = lw.operand(args["weight"]) if args.get("weight") is not None else None
        bias = lw.operand(args["bias"]) if args.get("bias") is not None else None
    n = x.shape
    mean = Expr("mul", (Expr("rsum", (x,), shape=n[:-1] + (1,)), Expr("inv_n")), shape=n[:-1] + (1,))
    centred = Expr("sub", (x, mean), (1.0,), n)
    var = Expr("mul", (Expr("rsum", (Expr("square", (centred,), shape=n),), shape=mean.shape), Expr("inv_n")),
               shape=mean.shape)
    return lw.cover(op, normalized(centred, var, eps, weight, bias))


def _layer_norm_over_dims(lw: Lowerer, op: Op, x: Expr, shape: tuple, eps: float, weight: str | None,
                          bias: str | None) -> Expr:
    """Layer norm over several trailing dims (LayerNorm([C, H, W])) by the group-norm template: each
    row of the input viewed as (rows, points, 1) is one group whose "channels" are its points, so the
    per-channel affine is the per-point weight and bias, flattened. Its statistics are spread over
    many blocks: such rows are long (C * H * W points) and few."""
    if tuple(x.shape[-len(shape):]) != shape:
        raise Unsupported(f"layer_norm ({op.name}) over {shape}: the input's trailing dims are {x.shape[-len(shape):]}")
    (source_var,) = lw.materialize([x])
    out = lw.new_var(op.name)
    flat = [f"{path}.reshape(-1)" if path is not None else None for path in (weight, bias)]
    lw.steps.append(Step("group_norm", [out], inputs=[source_var], covers=[op.name],
                         config={"groups": 1, "eps": eps, "weight": flat[0], "bias": flat[1],
                                 "view": (-1, math.prod(shape), 1)}))
    return leaf(out, op.shape or x.shape)


@register_lowering("rms_norm")
def rms_norm(lw: Lowerer, op: Op, args: dict) -> Expr:
    x = lw.lazy(args["input"])
    if op.op == "call_module":
        module = lw.resolver.module(op.target)
        eps = module.eps if module is not None else None
        has_weight = module is None or module.weight is not None
        weight = leaf(f"{attr_expr(op.target)}.weight", x.shape[-1:]) if has_weight else None
        ndims = len(module.normalized_shape) if module is not None else 1
    else:
        eps = args.get("eps")
        weight = lw.operand(args["weight"]) if args.get("weight") is not None else None
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
    return lw.cover(op, result)


@register_lowering("batch_norm")
def batch_norm(lw: Lowerer, op: Op, args: dict) -> Expr:
    """Inference batch norm: a per-channel affine map of the running statistics, so a pointwise
    op (fused with its neighbours, e.g. the epilogue of a library conv). The statistics are read
    at run time, viewed as (C, 1, ...) to broadcast over (N, C, ...)."""
    x = lw.lazy(args["input"])
    if len(x.shape) < 2:
        raise Unsupported(f"batch_norm of a {len(x.shape)}-d tensor ({op.name}): needs (N, C, ...)")
    per_channel = (x.shape[1],) + (1,) * (len(x.shape) - 2)
    view = f".view(-1{', 1' * (len(x.shape) - 2)})"
    if op.op == "call_module":
        module = lw.resolver.module(op.target)
        training = module is not None and (module.training or module.running_mean is None)
        if training or args.get("training"):
            raise Unsupported(f"batch_norm {op.target} normalizes by batch statistics (training mode): "
                              "the templates fold running statistics only")
        prefix = attr_expr(op.target)
        eps = float(module.eps) if module is not None else 1e-5
        paths = {name: f"{prefix}.{name}{view}" for name in ("running_mean", "running_var", "weight", "bias")
                 if lw.resolver.tensor_kind(f"{op.target}.{name}") is not None
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
            tensor = _tensor_argument(lw, op, args, name)
            return leaf(tensor.params[0] + view, per_channel) if tensor is not None else None

        mean, var = per_channel_leaf("running_mean"), per_channel_leaf("running_var")
        if mean is None or var is None:
            raise Unsupported(f"batch_norm ({op.name}) without running statistics")
        weight, bias = per_channel_leaf("weight"), per_channel_leaf("bias")
    lw.contracts.append(f"contract: batch norm {op.target if op.op == 'call_module' else op.name} normalizes "
                        "by its running statistics (inference, as the reference is specified): in training "
                        "mode it neither uses batch statistics nor updates the running ones")
    return lw.cover(op, normalized(Expr("sub", (x, mean), (1.0,), x.shape), var, eps, weight, bias))


@register_lowering("group_norm")
def group_norm(lw: Lowerer, op: Op, args: dict) -> Expr:
    """Group norm of a materialized (N, C, ...) tensor by its own two-kernel template (a group's
    statistics span channels and space: no row of the row kernels)."""
    x = lw.lazy(args["input"])
    if len(x.shape) < 2:
        raise Unsupported(f"group_norm of a {len(x.shape)}-d tensor ({op.name}): needs (N, C, ...)")
    if op.op == "call_module":
        module = lw.resolver.module(op.target)
        prefix = attr_expr(op.target)
        # Planning knows parameters but not the group count: 1 stands in until generation.
        groups = module.num_groups if module is not None else 1
        eps = float(module.eps) if module is not None else 1e-5
        affine = (module.affine if module is not None
                  else lw.resolver.tensor_kind(f"{op.target}.weight") is not None)
        weight, bias = (f"{prefix}.weight", f"{prefix}.bias") if affine else (None, None)
    else:
        groups, eps = args.get("num_groups"), float(args.get("eps", 1e-5))
        if not isinstance(groups, int):
            raise Unsupported(f"group_norm ({op.name}) with a group count computed in the graph")
        weight, bias = _affine_paths(lw, op, args)
    (source_var,) = lw.materialize([x])
    out = lw.new_var(op.name)
    lw.steps.append(Step("group_norm", [out], inputs=[source_var], covers=[op.name],
                         config={"groups": groups, "eps": eps, "weight": weight, "bias": bias}))
    return leaf(out, op.shape or x.shape)


@register_lowering("instance_norm")
def instance_norm(lw: Lowerer, op: Op, args: dict) -> Expr:
    """Instance norm (each sample's channel by its own statistics) is a group norm with one channel
    a group: the same two-kernel template, the per-channel affine where given."""
    x = lw.lazy(args["input"])
    if len(x.shape) < 3:
        raise Unsupported(f"instance_norm of a {len(x.shape)}-d tensor ({op.name}): needs (N, C, ...)")
    if op.op == "call_module":
        module = lw.resolver.module(op.target)
        if module is not None and module.track_running_stats:
            raise Unsupported(f"{op.target} tracks running statistics: in eval mode it normalizes by them")
        affine = (module.affine if module is not None
                  else lw.resolver.tensor_kind(f"{op.target}.weight") is not None)
        prefix = attr_expr(op.target)
        weight, bias = (f"{prefix}.weight", f"{prefix}.bias") if affine else (None, None)
        eps = float(module.eps) if module is not None else 1e-5
    else:
        if args.get("running_mean") is not None or args.get("use_input_stats") is False:
            raise Unsupported(f"instance_norm ({op.name}) by running statistics has no template")
        weight, bias = _affine_paths(lw, op, args)
        eps = float(args.get("eps", 1e-5))
    (source_var,) = lw.materialize([x])
    out = lw.new_var(op.name)
    lw.steps.append(Step("group_norm", [out], inputs=[source_var], covers=[op.name],
                         # one group a channel, however many channels the input has
                         config={"groups": f"{source_var}.shape[1]", "eps": eps, "weight": weight, "bias": bias}))
    return leaf(out, op.shape or x.shape)


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


def _tensor_argument(lw: Lowerer, op: Op, args: dict, name: str) -> Expr | None:
    """The tensor passed as `name` (a leaf: an input, parameter or buffer), None when not given."""
    if args.get(name) is None:
        return None
    value = lw.value(args[name])
    if not isinstance(value, Expr) or value.op != "leaf":
        raise Unsupported(f"{op.fn} ({op.name}): its {name} is computed in the graph, not a tensor")
    return value


def _affine_paths(lw: Lowerer, op: Op, args: dict) -> tuple[str | None, str | None]:
    """The paths of the tensors a functional norm got as `weight` and `bias`, None where not given."""
    return tuple(tensor.params[0] if (tensor := _tensor_argument(lw, op, args, name)) is not None else None
                 for name in ("weight", "bias"))


def is_last_dim(x: Expr, dim) -> bool:
    """Whether `dim` (an int or a one-element list) names x's last dim."""
    if isinstance(dim, (list, tuple)) and len(dim) == 1:
        dim = dim[0]
    rank = len(x.shape)
    return isinstance(dim, int) and rank > 0 and dim % rank == rank - 1


def row_dim(lw: Lowerer, op: Op, x: Expr, dim) -> int | None:
    """The one dim a row op reduces, non-negative (None: the last, also while planning a module
    whose dim is not known yet)."""
    if dim is None and op.op == "call_module" and lw.resolver.module(op.target) is None:
        return None
    if isinstance(dim, (list, tuple)) and len(dim) == 1:
        dim = dim[0]
    rank = len(x.shape)
    if not isinstance(dim, int) or not rank or not -rank <= dim < rank:
        raise Unsupported(f"{op.fn} over {dim!r} ({op.name}): the row templates reduce one given dim")
    return None if dim % rank == rank - 1 else dim % rank

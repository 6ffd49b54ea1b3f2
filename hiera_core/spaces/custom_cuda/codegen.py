"""A lowering rendered as a proposal: the inlined runtime, the kernel sources and `ModelNew`."""

from __future__ import annotations

from dataclasses import dataclass

from hiera_core.cuda.proposal import runtime_source
from hiera_core.spaces.custom_cuda.columns_template import columns_source, square_taps, takes_columns
from hiera_core.spaces.custom_cuda.depthwise_template import depthwise_source, depthwise_tile
from hiera_core.spaces.custom_cuda.expr import reduced_dim, reductions_in, rolled_by, scalars_in
from hiera_core.spaces.custom_cuda.fused import pointwise_source, total_source
from hiera_core.spaces.custom_cuda.fused_rows import row_split, rows_source
from hiera_core.spaces.custom_cuda.fused_scan import scan_source
from hiera_core.spaces.custom_cuda.graph import Lowering, Step
from hiera_core.spaces.custom_cuda.stencil_steps_template import stencil_steps_source, stencil_steps_tile
from hiera_core.spaces.custom_cuda.stencil_template import (
    nonzero_taps,
    stencil_launch_tile,
    stencil_source,
    stencil_tile,
)
from hiera_core.spaces.custom_cuda.templates import group_norm_source, pool_source, reduce_source

_HELPER = {"pointwise": "_hiera_pointwise", "rows": "_hiera_rows", "reduce": "_hiera_reduce",
           "pool": "_hiera_pool", "stencil": "_hiera_stencil", "group_norm": "_hiera_group_norm",
           "total": "_hiera_total", "scan": "_hiera_scan"}


@dataclass
class Rendered:
    code: str
    sources: list[str]


def render(lowering: Lowering, reference_class: str, title: str, notes: list[str]) -> Rendered:
    sources: list[str] = []
    constants: list[str] = []
    body: list[str] = []
    for step in lowering.steps:
        if step.family == "library":
            body.append(f"{step.targets[0]} = {step.call}")
            continue
        name = f"hiera_{step.family}{len(sources)}"
        constant = f"_HIERA_SRC_{len(sources)}"
        source, call = _kernel_call(step, name, constant)
        sources.append(source)
        constants.append(f'{constant} = r"""\n{source}"""')
        body.append(f"# {step.family} kernel: {', '.join(step.covers)}")
        body.append(call)
    helpers = {_helper_of(s) for s in lowering.kernel_steps}
    header = [f"# ---- HIERA custom_cuda: {title} ----",
              *(f"# {line}" for line in notes),
              "# Kernels compile with NVRTC (cuda.core) on first use and launch on torch's current stream."]
    forward = [f"class ModelNew({reference_class}):",
               f"    def forward(self, {', '.join(lowering.inputs)}):",
               *(f"        {line}" for line in body),
               f"        return {lowering.returns}"]
    code = "\n".join(header) + "\n" + runtime_source(helpers) + "\n\n" + "\n\n".join(constants) + "\n\n\n" \
        + "\n".join(forward) + "\n"
    return Rendered(code, sources)


def _values(per_channel: list) -> str:
    """A convolution's (a pool's) last argument: the tensors its epilogue (prologue) reads per channel, if any."""
    return f", ({''.join(e.params[0] + ', ' for e in per_channel)})" if per_channel else ""


def _wide_window(config: dict) -> bool:
    """A stencil's window wider than 3x3, or not square: `_hiera_depthwise`'s, not `_hiera_stencil`'s."""
    kernel = config.get("kernel", 3)
    return not isinstance(kernel, int) or kernel > 3


def _helper_of(step: Step) -> str:
    """The runtime entry point a kernel step calls."""
    if step.family == "stencil" and "steps" in step.config:
        return "_hiera_stencil_steps"
    if step.family == "stencil" and _wide_window(step.config):
        return "_hiera_depthwise"
    if step.family == "stencil" and "coefficients" in step.config:
        return "_hiera_stencil_constant"
    return _HELPER[step.family]


EXPRESSION_FAMILIES = ("pointwise", "rows", "total", "scan")  # kernels generated from element expressions


def reads_argument(leaves: list, full: list[bool]) -> tuple:
    """How the runtime reads each leaf: in full (True), through its mode (False), or rolled
    ((dim, shift), a torch.roll read in place)."""
    return tuple(rolled_by(e) or flag for e, flag in zip(leaves, full))


def _kernel_call(step: Step, name: str, constant: str) -> tuple[str, str]:
    if step.family in EXPRESSION_FAMILIES:
        return _expression_kernel_call(step, name, constant)
    return _template_call(step, name, constant)


def _expression_kernel_call(step: Step, name: str, constant: str) -> tuple[str, str]:
    """A kernel generated from element expressions: its runtime entry takes the leaves, how each is
    read, the family's own arguments and the Python numbers the expressions read (`scalars=`)."""
    targets = ", ".join(step.targets) + ","
    if step.family == "pointwise":
        kernel, leaves, full = pointwise_source(name, step.exprs)
        entry, own = f"{targets} = _hiera_pointwise", f"{len(step.exprs)}"
    elif step.family == "rows":
        first = reductions_in(step.exprs)[0]
        row_shape, dim = first.args[0].shape, reduced_dim(first)
        kernel, leaves, full, cached, kinds = rows_source(name, step.exprs, row_shape, dim)
        along = f", split={row_split(step.exprs)}" if dim == len(row_shape) - 1 else f", dim={dim}"
        entry, own = f"{targets} = _hiera_rows", f"{tuple(kinds)!r}, {cached}{along}"
    elif step.family == "total":
        kernel, leaves, full = total_source(name, step.exprs[0])
        entry, own = f"{step.targets[0]} = _hiera_total", f"{step.config['divide']!r}"
    else:
        kernel, leaves, full = scan_source(name, step.exprs[0], step.config["op"], step.config.get("epilogue"))
        entry, own = f"{step.targets[0]} = _hiera_scan", f"{step.config['dim']}, {step.config['reverse']}"
    reads = ", ".join(e.params[0] for e in leaves)
    numbers = scalars_in(step.exprs)  # in the order the generators declare them (s0, s1...)
    scalars = f", scalars=({''.join(f'{e.params[0]}, ' for e in numbers)})" if numbers else ""
    return kernel.source, (f"{entry}({constant}, {name!r}, ({reads},), {reads_argument(leaves, full)!r}, "
                           f"{own}{scalars})")


def _template_call(step: Step, name: str, constant: str) -> tuple[str, str]:
    (target,) = step.targets
    config = step.config
    if step.family == "reduce":
        kernel = reduce_source(name, config["op"])
        return kernel.source, (f"{target} = _hiera_reduce({constant}, {name!r}, {step.inputs[0]}, {config['dim']}, "
                               f"{config['keepdim']}, {config['op'].startswith('arg')})")
    if step.family == "pool":
        kernel = pool_source(name, config)
        dilation = config["dilation"] if config["kind"] == "max" else (1,) * config["rank"]
        return kernel.source, (f"{target} = _hiera_pool({constant}, {name!r}, {step.inputs[0]}, {config['rank']}, "
                               f"{config['kernel']}, {config['stride']}, {config['padding']}, {dilation}, "
                               f"{config['ceil_mode']}{_values(config.get('per_channel', []))})")
    if step.family == "group_norm":
        kernel = group_norm_source(name, config.get("epilogue"))
        source, shaped = step.inputs[0], ""
        if "view" in config:  # a layer norm over several dims: the input viewed as (rows, points, 1)
            source, shaped = f"{source}.reshape{tuple(config['view'])}", f".view_as({source})"
        return kernel.source, (f"{target} = _hiera_group_norm({constant}, {name!r}, {source}, {config['groups']}, "
                               f"{config['weight']}, {config['bias']}, {config['eps']!r}){shaped}")
    if "steps" in config:  # constant 2D stencils fused in time
        tile = stencil_steps_tile(len(config["steps"]))
        kernel = stencil_steps_source(name, [nonzero_taps(c, 2) for c in config["steps"]], tile)
        return kernel.source, (f"{target} = _hiera_stencil_steps({constant}, {name!r}, {step.inputs[0]}, "
                               f"{tuple(map(tuple, config['steps']))!r}, {(tile['tw'], tile['th'])})")
    bias = step.inputs[2] if len(step.inputs) > 2 else "None"
    per_channel = config.get("per_channel", [])
    size = config.get("kernel", 3)
    if takes_columns(config["rank"], size, config.get("width")):  # a 2D window: a thread per column
        kernel = columns_source(name, size, config.get("taps") or square_taps(size), config.get("epilogue"), per_channel,
                                config.get("crop", 0))
        launch = "'columns'"
    elif _wide_window(config):  # a wider depthwise convolution
        tile = depthwise_tile(config.get("width"))
        kernel = depthwise_source(name, size, tile, config.get("epilogue"), per_channel)
        launch = repr((tile["bx"], tile["by"], tile["ry"]))
    else:  # a 3D one
        tile = stencil_tile(config.get("width"))
        kernel = stencil_source(name, config["taps"], tile, config.get("epilogue"), per_channel)
        launch = repr(stencil_launch_tile(tile))
    if "coefficients" in config:  # spelled with slices of a padded grid: the graph's own constants
        return kernel.source, (f"{target} = _hiera_stencil_constant({constant}, {name!r}, {step.inputs[0]}, "
                               f"{config['coefficients']!r}, {config['rank']}, {launch})")
    entry = "_hiera_depthwise" if _wide_window(config) else "_hiera_stencil"
    crop = f", crop={config['crop']!r}" if config.get("crop") else ""  # a convolution padded less than its radius
    return kernel.source, (f"{target} = {entry}({constant}, {name!r}, {step.inputs[0]}, {step.inputs[1]}, "
                           f"{bias}, {launch}{_values(per_channel)}{crop})")


"""Building the contract-augmented spec by running (or meta-tracing) the reference.

Imports torch: runs in worker processes only. When the task's inputs, parameters and outputs
would not fit comfortably in this machine's (or GPU's) memory, everything is taken from a
meta-device trace instead (shapes, FLOPs, bytes, op mix, FX graph) and the spec says which
fields were not measured.
"""

from __future__ import annotations

import math
import platform
from dataclasses import dataclass
from typing import Any

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.spec import gpus
from hiera_core.spec.memory import fits_in_memory, tensor_bytes
from hiera_core.spec.model import OpShare, ParamInfo, Roofline, ScalarInfo, Spec, TensorInfo, Tolerance, ValueStats
from hiera_core.spec.opkinds import kind_of_module, kind_of_name
from hiera_core.store import iso_time
from hiera_core.task.load import Task, check_outputs, outputs_as_list
from hiera_core.verify.inputs import clone_inputs, forward_parameter_names, tensors_equal

LAUNCH_OVERHEAD_MS = {"cuda": 0.004, "cpu": 0.002}

# Tolerances relative to the output's RMS (atol) and to each element (rtol), by numerics.
TOLERANCES = {
    "float64": (1e-7, 1e-7, "float64"),
    "float32": (1e-4, 1e-4, "float32, strict"),
    "tf32": (5e-3, 5e-3, "float32 with TF32 tensor-core math"),
    "float16": (1e-2, 1e-2, "float16"),
    "bfloat16": (2e-2, 2e-2, "bfloat16"),
}


def dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "")


def tensor_info(name: str, tensor, with_stats: bool) -> TensorInfo:
    import torch

    stats = None
    if with_stats and tensor.device.type != "meta" and tensor.numel():
        values = tensor.detach()
        values = values.float() if values.is_floating_point() else values.to(torch.float64)
        finite = bool(values.isfinite().all())
        clean = values[values.isfinite()] if not finite else values
        stats = ValueStats(min=float(clean.min()) if clean.numel() else math.nan,
                           max=float(clean.max()) if clean.numel() else math.nan,
                           mean=float(clean.mean()) if clean.numel() else math.nan,
                           std=float(clean.std()) if clean.numel() > 1 else 0.0,
                           zero_fraction=int((values == 0).sum()) / values.numel(),
                           nonnegative=bool((clean >= 0).all()) if clean.numel() else True,
                           finite=finite)
    return TensorInfo(name=name, shape=list(tensor.shape), dtype=dtype_name(tensor.dtype),
                      stride=list(tensor.stride()), contiguous=tensor.is_contiguous(),
                      device=tensor.device.type, stats=stats)


def describe_inputs(task: Task, inputs: list, with_stats: bool) -> list:
    import torch

    names = forward_parameter_names(task)
    described = []
    for index, value in enumerate(inputs):
        name = names[index] if index < len(names) else f"arg{index}"
        if isinstance(value, torch.Tensor):
            described.append(tensor_info(name, value, with_stats))
        else:
            described.append(ScalarInfo(name=name, type=type(value).__name__, value=repr(value)[:200]))
    return described


# ---- op recording ------------------------------------------------------------------------------

# FLOPs per element for ops the flop counter does not count (it counts matmul/conv/attention).
ELEMENTWISE_FLOPS = {"pointwise": 1, "reduction": 1, "pool": 1, "softmax": 5, "norm": 5}


def record_ops(model, inputs: list) -> tuple[Any, dict[str, dict], float]:
    """Run forward once recording every aten op (count, bytes touched, FLOPs).

    FLOPs: exact for matmul/conv/attention (torch.utils.flop_counter); estimated per element for
    pointwise, reduction, pooling, softmax and norm ops (ELEMENTWISE_FLOPS x the larger of the
    op's input and output element counts)."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils.flop_counter import FlopCounterMode

    ops: dict[str, dict] = {}

    class Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            name = func.overloadpacket._qualified_op_name if hasattr(func, "overloadpacket") else str(func)
            flat_in = [t for t in torch.utils._pytree.tree_leaves((args, kwargs or {})) if isinstance(t, torch.Tensor)]
            flat_out = [t for t in torch.utils._pytree.tree_leaves(out) if isinstance(t, torch.Tensor)]
            entry = ops.setdefault(name, {"count": 0, "bytes": 0.0, "flops": 0.0})
            entry["count"] += 1
            entry["bytes"] += tensor_bytes(flat_in) + tensor_bytes(flat_out)
            per_element = ELEMENTWISE_FLOPS.get(kind_of_name(name), 0)
            if per_element:
                entry["flops"] += per_element * max([t.numel() for t in flat_in + flat_out] or [0])
            return out

    counter = FlopCounterMode(display=False)
    with torch.no_grad(), counter, Recorder():
        out = model(*inputs)
    for op, flops in counter.get_flop_counts().get("Global", {}).items():
        name = op._qualified_op_name if hasattr(op, "_qualified_op_name") else str(op)
        ops.setdefault(name, {"count": 1, "bytes": 0.0, "flops": 0.0})["flops"] += float(flops)
    return out, ops, sum(entry["flops"] for entry in ops.values())


def measured_shares(model, inputs: list, device: str) -> dict[str, float]:
    """Time per aten op from the profiler over three calls (GPU kernel time on CUDA). Inclusive
    times: the ops recorded by the dispatch mode are the outermost ones, and e.g. the cuDNN
    kernels of aten::convolution run inside nested aten ops."""
    import torch

    from hiera_core.profile.harness import op_profiler

    with torch.no_grad():
        model(*inputs)
        with op_profiler(cuda=device == "cuda") as prof:
            for _ in range(3):
                model(*inputs)
            if device == "cuda":
                torch.cuda.synchronize()
    times: dict[str, float] = {}
    for event in prof.key_averages():
        if not event.key.startswith("aten::"):
            continue
        value = event.device_time_total if device == "cuda" else event.cpu_time_total
        if value > 0:
            times[event.key] = times.get(event.key, 0.0) + value
    return times


# ---- the FX graph summary ------------------------------------------------------------------------

def _jsonable(value):
    import torch.fx

    if isinstance(value, torch.fx.Node):
        return {"node": value.name}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def function_target(target) -> str:
    module = getattr(target, "__module__", None) or "torch"
    module = {"_operator": "operator", "torch._C._nn": "torch.nn.functional",
              "torch._C._VariableFunctions": "torch", "torch.functional": "torch"}.get(module, module)
    return f"{module}.{getattr(target, '__name__', repr(target))}"


def trace_graph(model, inputs: list, specialise: bool = True):
    """(GraphModule with shape metadata, JSON summary) or (None, summary saying why not).
    `specialise`: whether the graph may be specialised to the inputs' shapes where symbolic tracing
    fails (spec.trace)."""
    import torch
    from torch.fx.passes.shape_prop import ShapeProp

    from hiera_core.spec.trace import trace_forward

    try:
        graph_module, traced = trace_forward(model, inputs, specialise)
        with torch.no_grad():
            ShapeProp(graph_module).propagate(*inputs)
    except Exception as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return None, {"traceable": False, "reason": f"torch.fx cannot trace forward: {first[:300]}", "nodes": []}
    modules = dict(graph_module.named_modules())
    nodes = []
    for node in graph_module.graph.nodes:
        module_type = None
        if node.op == "call_function":
            target = function_target(node.target)
            kind = kind_of_name(target)
        elif node.op == "call_module":
            target = str(node.target)
            module_type = type(modules[node.target]).__name__
            kind = kind_of_module(module_type)
        elif node.op == "call_method":
            target = str(node.target)
            kind = kind_of_name(target)
        else:
            target = str(node.target)
            kind = node.op
        meta = node.meta.get("tensor_meta")
        shape = list(meta.shape) if meta is not None and hasattr(meta, "shape") else None
        dtype = dtype_name(meta.dtype) if meta is not None and hasattr(meta, "dtype") else None
        summary = {"name": node.name, "op": node.op, "target": target, "module_type": module_type,
                   "kind": kind, "args": _jsonable(node.args), "kwargs": _jsonable(node.kwargs),
                   "shape": shape, "dtype": dtype}
        if module_type is not None:  # its hyperparameters (a GELU's `approximate`, a conv's stride...)
            module = modules[node.target]
            summary["constants"] = {name: _jsonable(getattr(module, name))
                                    for name in getattr(type(module), "__constants__", []) if hasattr(module, name)}
        nodes.append(summary)
    return graph_module, {"traceable": True, "reason": "", "traced": traced, "nodes": nodes}


# ---- the spec ------------------------------------------------------------------------------------

@dataclass
class Prepared:
    """The reference, ready for the implementers: model, example inputs, graph, spec."""

    task: Task
    spec: Spec
    model: Any
    inputs: list
    graph: Any
    meta_only: bool


def environment(device: str) -> dict:
    import torch

    env = {"python": platform.python_version(), "torch": torch.__version__,
           "cuda": torch.version.cuda, "platform": platform.platform(terse=True)}
    if device == "cuda":
        env["device_name"] = torch.cuda.get_device_name()
        env["cudnn"] = torch.backends.cudnn.version()
    else:
        env["device_name"] = platform.processor() or platform.machine()
        env["threads"] = torch.get_num_threads()
    return env


def precision_notes(device: str, op_kinds: set[str]) -> list[str]:
    import torch

    notes = []
    if device == "cuda":
        if "conv" in op_kinds and torch.backends.cudnn.allow_tf32:
            notes.append("reference convolutions use TF32 (torch.backends.cudnn.allow_tf32 is on by default)")
        if op_kinds & {"matmul", "attention"} and torch.backends.cuda.matmul.allow_tf32:
            notes.append("reference matmuls use TF32 (torch.backends.cuda.matmul.allow_tf32 is on)")
    return notes


def tolerance_for(output: TensorInfo, rms: float | None, precision: str, notes: list[str]) -> Tolerance:
    numerics = output.dtype
    if output.dtype == "float32" and (precision == "tf32" or notes):
        numerics = "tf32"
    elif output.dtype == "float32" and precision in ("bf16", "fp16"):
        numerics = "bfloat16" if precision == "bf16" else "float16"
    rtol, atol_rel, label = TOLERANCES.get(numerics, (0.0, 0.0, f"{output.dtype}: exact"))
    scale = rms if rms and math.isfinite(rms) and rms > 0 else 1.0
    return Tolerance(rtol=rtol, atol_rel=atol_rel, atol=atol_rel * scale,
                     note=f"{label}; atol = {atol_rel:g} x output RMS ({scale:.3g})")


def classify(op_work_ms: float, launches: int, device: str, limiter: str, host_bound: bool = False) -> str:
    """Launch-bound when the reference was measured host-bound on the GPU (its host time per call
    beyond its GPU time), or when launching the ops costs more than the work they do as launched
    (each op reading and writing its own tensors); else by which roofline term limits."""
    if host_bound or launches * LAUNCH_OVERHEAD_MS[device] >= op_work_ms:
        return "launch-bound"
    return f"{limiter}-bound"


def prepare(task: Task, device: str, gpu: str | None = None, force_meta: bool = False,
            measure: bool = True, seconds: dict | None = None) -> Prepared:
    """Run the reference (or meta-trace it) and build the spec; `seconds` receives the wall seconds
    of its costlier parts (events.stopwatch)."""
    import torch

    from hiera_core.events import stopwatch

    seconds = {} if seconds is None else seconds

    if device == "cuda" and not torch.cuda.is_available():
        raise HieraError("--device cuda was asked for, but torch sees no CUDA GPU", kind=ErrorKind.USAGE,
                         hint="use --device cpu, or run on a machine with a GPU")
    not_measured: list[str] = []
    with stopwatch(seconds, "fits"):  # on a GPU, also where its context is created
        fits, why = (False, "--meta was given") if force_meta else fits_in_memory(task, device)
    meta_only = not fits
    run_device = "meta" if meta_only else device
    with stopwatch(seconds, "build"):
        model = task.build_model(run_device, seed=0)
        inputs = task.make_inputs(run_device, seed=0)
    originals = None if meta_only else clone_inputs(inputs)
    try:
        with stopwatch(seconds, "record_ops"):
            out, ops, flops = record_ops(model, inputs)
    except Exception as error:
        raise task.user_error(error, f"{task.class_name}.forward", task.site.line,
                              "fix forward() or the inputs it is given", ErrorKind.FORWARD) from None
    check_outputs(out, task)
    task_outputs = outputs_as_list(out)
    if meta_only:
        not_measured = [f"value statistics, mutation, determinism, reference time, op time shares: {why}; "
                        "taken from a meta-device trace"]
    mutated = None
    deterministic = None
    reference_ms = reference_gpu_ms = reference_bound = None
    shares: dict[str, float] = {}
    if not meta_only:
        with stopwatch(seconds, "determinism"):
            mutated = [info.name for info, before, after in zip(describe_inputs(task, inputs, False), originals, inputs)
                       if isinstance(before, torch.Tensor) and not tensors_equal(before, after)]
            second = outputs_as_list(task.run_forward(model, clone_inputs(originals)))
            deterministic = all(tensors_equal(a, b) for a, b in zip(task_outputs, second))
        if measure:
            from hiera_core.profile.timing import time_module

            with stopwatch(seconds, "reference_time"):
                timed = time_module(model, originals, device, profile=False)
            reference_ms = timed.median_ms
            if device == "cuda":
                reference_gpu_ms, reference_bound = timed.gpu_median_ms, timed.bound
            with stopwatch(seconds, "op_shares"):
                shares = measured_shares(model, originals, device)
        else:
            not_measured.append("reference time and op time shares: skipped (--no-measure)")
    with stopwatch(seconds, "trace"):
        graph_module, graph = trace_graph(model, originals if originals is not None else inputs,
                                          specialise=not task.directives.dynamic)

    peaks = gpus.lookup(gpu) if gpu else (gpus.match_name(torch.cuda.get_device_name()) or
                                           gpus.lookup(torch.cuda.get_device_name())
                                           if device == "cuda" else gpus.TABLE["cpu"])
    params = [ParamInfo(name, list(p.shape), dtype_name(p.dtype), "parameter") for name, p in model.named_parameters()]
    params += [ParamInfo(name, list(b.shape), dtype_name(b.dtype), "buffer") for name, b in model.named_buffers()]
    bytes_min = float(tensor_bytes(inputs) + tensor_bytes(list(model.parameters()) + list(model.buffers()))
                      + tensor_bytes(task_outputs))
    input_infos = describe_inputs(task, originals if originals is not None else inputs, not meta_only)
    output_infos = [tensor_info(f"out{i}" if len(task_outputs) > 1 else "out", t, not meta_only)
                    for i, t in enumerate(task_outputs)]
    op_list = []
    for name, entry in ops.items():
        kind = kind_of_name(name)
        op_list.append((name, kind, entry))
    kinds = sorted({kind for _, kind, _ in op_list if kind not in ("view", "other")})
    notes = precision_notes(device, set(kinds))
    precision = task.directives.precision
    main_dtype = next((o.dtype for o in output_infos), "float32")
    # On a GPU a reference whose float32 convolutions or matmuls run on TF32 tensor cores (torch's
    # flags) is bounded by the TF32 peak, not the CUDA-core one, or cuDNN itself would beat the "bound".
    tf32_reference = peaks.key != "cpu" and main_dtype == "float32" and bool(precision_notes("cuda", set(kinds)))
    peak_flops = peaks.flops_for(main_dtype, "tf32" if tf32_reference else precision)
    compute_ms = 1000 * flops / peak_flops if flops else 0.0
    memory_ms = 1000 * bytes_min / peaks.mem_bw
    roofline = Roofline(device=peaks.key, device_name=peaks.name, peak_flops=peak_flops,
                        peak_bw=peaks.mem_bw, compute_ms=compute_ms, memory_ms=memory_ms,
                        bound_ms=max(compute_ms, memory_ms), limiter="compute" if compute_ms > memory_ms else "memory")
    launches = sum(entry["count"] for _, kind, entry in op_list if kind != "view")
    total_measured = sum(shares.get(name, 0.0) for name in ops)
    work_ms = {name: 1000 * max(entry["flops"] / roofline.peak_flops, entry["bytes"] / peaks.mem_bw)
               for name, kind, entry in op_list if kind != "view"}
    estimated = {name: work_ms.get(name, 0.0) + entry["count"] * LAUNCH_OVERHEAD_MS[device]
                 for name, _, entry in op_list}
    total_estimated = sum(estimated.values()) or 1.0
    op_shares = [OpShare(op=name, kind=kind, count=entry["count"], flops=entry["flops"], bytes=entry["bytes"],
                         share=(shares.get(name, 0.0) / total_measured) if total_measured
                         else estimated[name] / total_estimated)
                 for name, kind, entry in op_list if kind != "view"]
    op_shares.sort(key=lambda op: -op.share)
    tolerance = {}
    for info, tensor in zip(output_infos, task_outputs):
        rms = None
        if not meta_only and tensor.is_floating_point():
            rms = finite_rms(tensor)
        tolerance[info.name] = tolerance_for(info, rms, precision, notes)
    if meta_only:
        not_measured.append("tolerance scale: output RMS unknown, atol uses scale 1")
    spec = Spec(
        file=task.path, class_name=task.class_name, task_format=task.task_format,
        source_sha256=task.info.sha256, device=device, inputs=input_infos, outputs=output_infos,
        init_args=[repr(a)[:200] for a in task.make_init()], parameters=params, precision=precision,
        dynamic_dims=[[n, d] for n, d in task.directives.dynamic], tolerance=tolerance, flops=flops,
        bytes_min=bytes_min, intensity=flops / bytes_min if bytes_min else 0.0, roofline=roofline,
        ops=op_shares, op_kinds=kinds, kernel_launches=launches,
        workload_class=classify(sum(work_ms.values()), launches, device, roofline.limiter,
                                host_bound=reference_bound == "host"), graph=graph,
        mutated_inputs=mutated, deterministic=deterministic, reference_ms=reference_ms,
        reference_gpu_ms=reference_gpu_ms, reference_bound=reference_bound,
        reference_precision_notes=notes, measured=not meta_only, not_measured=not_measured,
        environment={**environment(device), "created": iso_time()})
    return Prepared(task=task, spec=spec, model=model, inputs=originals if originals is not None else inputs,
                    graph=graph_module, meta_only=meta_only)


RMS_CHUNK = 1 << 24  # elements summed at a time: 128 MiB in float64


def finite_rms(tensor) -> float | None:
    """The root mean square of a tensor's finite values (None when it has none), summed in float64 a
    chunk at a time: a float64 copy of a whole output took 17 GB for a 2.2-billion-element one."""
    flat = tensor.detach().reshape(-1)
    total, count = 0.0, 0
    for chunk in flat.split(RMS_CHUNK):
        finite = chunk[chunk.isfinite()].double()
        total += float(finite.pow(2).sum())
        count += finite.numel()
    return math.sqrt(total / count) if count else None

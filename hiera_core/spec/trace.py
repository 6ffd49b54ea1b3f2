"""The reference's forward as a torch.fx graph of torch-level ops (what the planner, the region
partition and the graph-rewriting strategies read), by the first tracer that manages:

1. symbolic tracing with the buffers forward reads as graph nodes (BufferTracer);
2. plain symbolic tracing, which runs ops on buffers at trace time and bakes them in as constants;
3. tracing beside the example inputs (ShapeTracer): every node's value is computed as it is
   recorded, so sizes, lengths and truth values of non-tensors read in forward are the example's
   Python values, and the graph is specialised to the example's shapes. Real model code reads sizes
   in Python (`self.cos_cached[:x.shape[1]]`, `torch.ones(n, n, device=x.device)`, `assert L == H * W`,
   a loop over `.chunk(3)`), which plain symbolic tracing cannot follow. Not for tasks with dynamic
   dims: the specialised graph would be wrong at any other size.

Forward parameters the inputs leave at their defaults (`attention_mask=None`) are traced at those
defaults in every tracer, instead of as inputs that `if mask is not None` then takes as present.

Imports torch: runs in worker processes only.
"""

from __future__ import annotations

import inspect
from typing import Any

# Tensor methods whose Python result is the tensor's metadata, which the specialised graph takes as
# the example's. Any other op that turns a tensor into a Python value (`.item()`, `torch.equal`)
# reads its values: a graph fixed to the example's values would be wrong on the next input, so the
# trace stops there.
METADATA_METHODS = ("size", "dim", "ndimension", "numel", "nelement", "stride", "element_size", "get_device",
                    "is_contiguous", "is_floating_point", "is_complex")
# Tensor factories recorded as graph nodes while tracing beside the inputs, instead of run at trace
# time and baked in as constants a candidate cannot read (a causal mask built from a size).
FACTORIES = ("ones", "zeros", "full", "empty", "arange", "eye", "tril_indices", "triu_indices", "linspace")


def trace_forward(model, inputs: list | None, specialise: bool = True):
    """(GraphModule, how it was traced: "symbolic", "symbolic, buffers baked in" or "specialised to the
    example's shapes"); raises the last tracer's error when none manages. `specialise`: whether the
    third tracer may be tried (not with dynamic dims)."""
    import torch.fx

    defaults = absent_defaults(model, inputs)

    class BufferTracer(torch.fx.Tracer):
        proxy_buffer_attributes = True

    attempts = [lambda: _traced(BufferTracer(), model, defaults), lambda: _traced(torch.fx.Tracer(), model, defaults)]
    labels = ["symbolic", "symbolic, buffers baked in"]
    if specialise and inputs is not None:
        attempts.append(lambda: _traced(shape_tracer(model, inputs, defaults), model, defaults))
        labels.append("specialised to the example's shapes")
    last_error = None
    for attempt, label in zip(attempts, labels):
        try:
            return attempt(), label
        except Exception as error:  # any tracer failure means: try the next one
            last_error = error  # the most permissive tracer's says what really stops tracing
    raise last_error


class _module_state_kept:
    """Each submodule's attributes as they were before tracing: a forward that stores a tensor on its
    module (`self.hidden = ...`) stores a proxy there while traced, which broke the module's next call
    and the graph's reads of it. What tracing added (FX's `_tensor_constant`s) stays, but proxies."""

    TABLES = ("_parameters", "_buffers", "_modules")

    def __init__(self, model):
        self.saved = [(module, {name: dict(getattr(module, name)) for name in self.TABLES}, dict(module.__dict__))
                      for module in model.modules()]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        from torch.fx import Proxy

        for module, tables, attributes in self.saved:
            for name, saved in tables.items():
                table = getattr(module, name)
                added = {key: value for key, value in table.items() if key not in saved and not isinstance(value, Proxy)}
                table.clear()
                table.update(saved | added)
            for key in [key for key, value in module.__dict__.items() if key not in attributes and isinstance(value, Proxy)]:
                del module.__dict__[key]
            module.__dict__.update({key: value for key, value in attributes.items() if key not in self.TABLES})
        return False


def absent_defaults(model, inputs: list | None) -> dict[str, Any]:
    """forward's parameters after the inputs given, with their defaults: traced as those constants."""
    if inputs is None:
        return {}
    try:
        parameters = list(inspect.signature(model.forward).parameters.values())
    except (TypeError, ValueError):
        return {}
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return {p.name: p.default for p in positional[len(inputs):] if p.default is not p.empty}


def _traced(tracer, model, defaults: dict[str, Any]):
    import torch.fx
    from torch.fx._symbolic_trace import _assert_is_none

    with _module_state_kept(model):  # before the GraphModule copies the attributes the graph reads
        graph = tracer.trace(model, concrete_args=defaults or None)
    # A default traced as a constant leaves an assertion that no other value is passed: candidates
    # are called with the task's inputs only, and the assertion is no op of the model's.
    for node in list(graph.nodes):
        if node.op == "call_function" and node.target is _assert_is_none and not node.users:
            graph.erase_node(node)
    return torch.fx.GraphModule(tracer.root, graph, type(model).__name__)


def shape_tracer(model, inputs: list, defaults: dict[str, Any]):
    """A tracer that computes each node's value from the example inputs as it records it (see the
    module's doc)."""
    import torch
    import torch.fx
    from torch.fx import Proxy
    from torch.fx.node import map_aggregate

    # Placeholders come in forward's parameter order; torch.fx renames those of parameters traced
    # at a default (`mask` -> `mask_1`), so they are matched by position, not by name.
    parameters = list(inspect.signature(model.forward).parameters)
    example = dict(zip([name for name in parameters if name not in defaults], inputs)) | defaults

    class ValueProxy(Proxy):
        """A proxy whose sizes, lengths and non-tensor attributes are its value's."""

        def __getattr__(self, name: str):
            tracer = self.__dict__.get("tracer")
            value = tracer.values.get(self.node) if tracer is not None else None
            if isinstance(value, torch.Tensor) and name in ("shape", "ndim", "is_cuda", "layout"):
                return getattr(value, name)
            return super().__getattr__(name)

        def __len__(self) -> int:
            return len(self.tracer.values[self.node])

    class ShapeTracer(torch.fx.Tracer):
        proxy_buffer_attributes = True

        def __init__(self):
            super().__init__()
            self.values: dict[torch.fx.Node, Any] = {}
            self.evaluating = False  # running the model's own code: factories run, not recorded
            self.placeholders = 0

        def proxy(self, node):
            return ValueProxy(node, self)

        def value_of(self, argument):
            if isinstance(argument, Proxy):
                return self.values[argument.node]
            return argument

        def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None, proxy_factory_fn=None):
            proxy = super().create_proxy(kind, target, args, kwargs, name, type_expr, proxy_factory_fn)
            operands = map_aggregate((args, kwargs), self.value_of)
            self.evaluating = True
            try:
                value = self.evaluate(kind, target, *operands)
            finally:
                self.evaluating = False
            self.values[proxy.node] = value
            # An attribute read stays a node (a device, once used); a size, a length or arithmetic on
            # them is the example's value, not a node.
            if kind in ("call_function", "call_method") and target is not getattr and not _holds_tensors(value):
                if _holds_tensors(operands) and not (kind == "call_method" and target in METADATA_METHODS):
                    raise torch.fx.proxy.TraceError(f"{getattr(target, '__name__', target)} reads a tensor's values "
                                                    "into Python")
                self.graph.erase_node(proxy.node)
                return value
            return proxy

        def evaluate(self, kind, target, args, kwargs):
            if kind == "placeholder":
                if self.placeholders >= len(parameters) or parameters[self.placeholders] not in example:
                    raise torch.fx.proxy.TraceError(f"no example input for forward's parameter {target!r}")
                self.placeholders += 1
                return example[parameters[self.placeholders - 1]]
            return run_op(self.root, kind, target, args, kwargs)

        # While the model's own code runs for a value, torch.fx's patches of nn.Module stay out of it.
        def call_module(self, module, forward, args, kwargs):
            if self.evaluating:
                return forward(*args, **kwargs)
            return super().call_module(module, forward, args, kwargs)

        def getattr(self, attr, attr_val, parameter_proxy_cache):
            if self.evaluating:
                return attr_val
            return super().getattr(attr, attr_val, parameter_proxy_cache)

        def to_bool(self, obj) -> bool:
            value = self.values[obj.node]
            if isinstance(value, torch.Tensor):
                raise torch.fx.proxy.TraceError("control flow on a tensor's values cannot be traced")
            return bool(value)

        def iter(self, obj):
            return iter([obj[index] for index in range(len(self.values[obj.node]))])

        def trace(self, root, concrete_args=None):
            with torch.no_grad(), _recorded_factories(self):
                graph = super().trace(root, concrete_args)
            for node in reversed(graph.nodes):  # attributes read only for Python's use (x.device.type)
                if node.op == "call_function" and node.target is getattr and not node.users:
                    graph.erase_node(node)
            return graph

    return ShapeTracer()


def run_op(root, kind: str, target, args, kwargs):
    """One graph op of `root`'s graph on values: an attribute read, a function, a method or a
    submodule call (placeholders and the output are the caller's)."""
    if kind == "get_attr":
        value = root
        for part in target.split("."):
            value = getattr(value, part)
        return value
    if kind == "call_function":
        return target(*args, **kwargs)
    if kind == "call_method":
        return getattr(args[0], target)(*args[1:], **kwargs)
    if kind == "call_module":
        return root.get_submodule(target)(*args, **kwargs)
    raise ValueError(f"cannot run a graph's {kind} op {target!r} on values")


def _holds_tensors(value) -> bool:
    import torch

    if isinstance(value, torch.Tensor):
        return True
    if isinstance(value, dict):
        return any(_holds_tensors(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_tensors(item) for item in value)
    return False


class _recorded_factories:
    """torch's tensor factories (FACTORIES) recorded by `tracer` while it traces (patched in the torch
    module, for the process: tracing runs in a worker's one thread)."""

    def __init__(self, tracer):
        self.tracer = tracer
        self.originals: dict[str, Any] = {}

    def __enter__(self):
        import torch

        for name in FACTORIES:
            original = self.originals[name] = getattr(torch, name)

            def recorded(*args, _original=original, **kwargs):
                if self.tracer.evaluating:
                    return _original(*args, **kwargs)
                return self.tracer.create_proxy("call_function", _original, args, kwargs)

            setattr(torch, name, recorded)
        return self

    def __exit__(self, *exc):
        import torch

        for name, original in self.originals.items():
            setattr(torch, name, original)
        return False

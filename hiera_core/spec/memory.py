"""Whether running the reference for real fits in memory, from its forward on the meta device."""

from __future__ import annotations

import weakref

from hiera_core.task.load import Task, outputs_as_list

# Share of free memory a real run may plan to use.
MEMORY_FRACTION = 0.6


def tensor_bytes(values) -> int:
    import torch

    return sum(v.numel() * v.element_size() for v in values if isinstance(v, torch.Tensor))


def free_memory(device: str) -> int:
    if device == "cuda":
        import torch

        return torch.cuda.mem_get_info()[0]
    from hiera_core.profile.harness import available_host_memory

    return available_host_memory()


def forward_peak_bytes(model, inputs: list) -> tuple[object, int]:
    """Run forward (on meta tensors: nothing is allocated) and return its output and the most bytes
    its intermediates and outputs held at once. Tensors an op returns as a view or in place (its
    schema says it aliases an argument) take no new memory; the rest count until they are freed."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves

    class LiveBytes(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.live = self.peak = 0

        def _free(self, nbytes: int) -> None:
            self.live -= nbytes

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            returns = func._schema.returns
            results = out if isinstance(out, (tuple, list)) else [out]
            for i, value in enumerate(results):
                aliases = i < len(returns) and returns[i].alias_info is not None
                for tensor in tree_leaves(value):
                    if isinstance(tensor, torch.Tensor) and not aliases:
                        nbytes = tensor.numel() * tensor.element_size()
                        self.live += nbytes
                        weakref.finalize(tensor, self._free, nbytes)
                self.peak = max(self.peak, self.live)
            return out

    counter = LiveBytes()
    with torch.no_grad(), counter:
        out = model(*inputs)
    return out, counter.peak


def fits_in_memory(task: Task, device: str) -> tuple[bool, str]:
    """Estimate from a meta forward whether the reference's real runs fit in memory: its inputs and
    parameters, the forward's peak, and what the spec keeps beside it (two more copies of the inputs
    and a second output, for the mutation and determinism checks)."""
    try:
        meta_inputs = task.make_inputs("meta", seed=0)
        meta_model = task.build_model("meta")
        meta_out, peak = forward_peak_bytes(meta_model, meta_inputs)
    except Exception:
        return True, ""
    params = tensor_bytes(list(meta_model.parameters()) + list(meta_model.buffers()))
    inputs = tensor_bytes(meta_inputs)
    need = params + 3 * inputs + peak + tensor_bytes(outputs_as_list(meta_out))
    free = free_memory(device)
    if need > MEMORY_FRACTION * free:
        return False, (f"the task needs about {need / 2**30:.1f} GiB (its forward's peak {peak / 2**30:.1f} GiB) "
                       f"and {device} has {free / 2**30:.1f} GiB free")
    return True, ""

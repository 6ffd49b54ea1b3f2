"""Seeded input sets for verification: the task's own inputs plus varied value distributions
and, for declared dynamic dims, boundary sizes. Imports torch: worker processes only.

Distributions keep the sign character of the task's inputs (a tensor the task makes non-negative
stays non-negative, so e.g. log/sqrt tasks stay in their domain) while changing scale and shape of
the distribution, so that kernels tuned to one distribution (or identity kernels that pass on
`torch.rand`) are caught.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_core.task import Task

DISTRIBUTIONS = ("task", "task-reseeded", "normal", "mixed-magnitude", "large")
BOUNDARY_SIZES = (1, 17, 129)


@dataclass
class InputSet:
    seed: int
    distribution: str
    dynamic_size: int | None
    inputs: list

    def describe(self) -> str:
        import torch

        shapes = [list(t.shape) for t in self.inputs if isinstance(t, torch.Tensor)]
        size = f", dynamic size {self.dynamic_size}" if self.dynamic_size is not None else ""
        return f"seed {self.seed}, {self.distribution} values{size}, shapes {shapes}"


def _redistribute(tensor, distribution: str, generator):
    import torch

    if not tensor.is_floating_point() or tensor.numel() < 2 or distribution in ("task", "task-reseeded"):
        return tensor
    nonnegative = bool((tensor >= 0).all())
    noise = torch.randn(tensor.shape, generator=generator, dtype=torch.float32, device="cpu")
    if distribution == "normal":
        values = noise
    elif distribution == "mixed-magnitude":
        exponent = torch.rand(tensor.shape, generator=generator) * 6 - 3  # magnitudes 1e-3 .. 1e3
        values = noise * torch.pow(10.0, exponent)
    elif distribution == "large":
        scale = 8.0 if tensor.dtype in (torch.float16, torch.bfloat16) else 100.0
        values = noise * scale
    else:
        raise ValueError(distribution)
    if nonnegative:
        values = values.abs()
    return values.to(dtype=tensor.dtype, device=tensor.device)


def _resize_dynamic(task: Task, inputs: list, forward_names: list[str], size: int, generator):
    """Regenerate the declared dynamic dims of the inputs at `size` (same values distribution)."""
    import torch

    resized = list(inputs)
    for name, dim in task.directives.dynamic:
        if name not in forward_names:
            continue
        index = forward_names.index(name)
        tensor = resized[index]
        if not isinstance(tensor, torch.Tensor):
            continue
        shape = list(tensor.shape)
        shape[dim] = size
        if tensor.is_floating_point():
            fresh = torch.randn(shape, generator=generator).to(tensor.dtype)
            if bool((tensor >= 0).all()):
                fresh = fresh.abs()
        else:
            low, high = int(tensor.min()), int(tensor.max()) + 1
            fresh = torch.randint(low, max(high, low + 1), shape, generator=generator).to(tensor.dtype)
        resized[index] = fresh.to(tensor.device)
    return resized


def forward_parameter_names(task: Task) -> list[str]:
    import inspect

    try:
        parameters = list(inspect.signature(task.cls.forward).parameters)
    except (TypeError, ValueError):
        return []
    return parameters[1:]  # drop self


def input_sets(task: Task, device: str, count: int = 5, base_seed: int = 1000) -> list[InputSet]:
    """`count` seeded sets with varied distributions, plus boundary-size sets for dynamic dims."""
    import torch

    sets = []
    for index in range(count):
        seed = base_seed + index
        distribution = DISTRIBUTIONS[index % len(DISTRIBUTIONS)]
        inputs = task.make_inputs(device, seed=seed)
        generator = torch.Generator().manual_seed(seed)
        inputs = [_redistribute(x, distribution, generator) if isinstance(x, torch.Tensor) else x
                  for x in inputs]
        sets.append(InputSet(seed, distribution, None, inputs))
    if task.directives.dynamic:
        names = forward_parameter_names(task)
        for offset, size in enumerate(BOUNDARY_SIZES):
            seed = base_seed + 100 + offset
            generator = torch.Generator().manual_seed(seed)
            inputs = _resize_dynamic(task, task.make_inputs(device, seed=seed), names, size, generator)
            sets.append(InputSet(seed, "normal", size, inputs))
    return sets


def clone_inputs(inputs: list) -> list:
    """Fresh copies at new addresses (clone preserves strides, so layouts stay as the task made them)."""
    import torch

    return [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]

"""Seeded input sets for verification: the task's own inputs plus varied value distributions
and, for declared dynamic dims, boundary sizes. Imports torch: worker processes only.

Distributions change the scale, offset and shape of the values, so that kernels tuned to one
distribution are caught ("offset" moves values far from zero: one-pass variances and softmax
without its max fail there). The judge draws the base seed per run (hiera_core.verify.judge). "normal" also gives mixed signs to inputs the task makes non-negative:
with only `torch.rand` inputs an identity kernel passes ReLU and a constant one passes sign(x).
Where the reference cannot take negative values (log, sqrt: non-finite outputs the task's own
inputs do not produce), the verifier swaps that set for its sign-preserving twin
(`with_signs_kept`). The other distributions keep the sign character of the task's inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_core.task.load import Task

DISTRIBUTIONS = ("task", "offset", "normal", "mixed-magnitude", "large", "task-reseeded")
OFFSET = 100.0  # the "offset" distribution: values around +-OFFSET with unit spread (8 in half precision)
BOUNDARY_SIZES = (1, 17, 129)
# What output buffers are filled with before a call, so an element the candidate never wrote is
# seen: 0xFF.. is NaN in every float format; 0xFE is what glibc's perturb byte 0x01 fills with.
POISON_BYTE = {"cuda": 0xFF, "cpu": 0xFE}


@dataclass
class InputSet:
    seed: int
    distribution: str
    dynamic_size: int | None
    inputs: list
    keeps_sign: bool = True  # False: non-negative task inputs were given negative values too
    note: str = ""  # e.g. "perturbed parameters"

    def describe(self) -> str:
        import torch

        shapes = [list(t.shape) for t in self.inputs if isinstance(t, torch.Tensor)]
        size = f", dynamic size {self.dynamic_size}" if self.dynamic_size is not None else ""
        sign = "" if self.keeps_sign else ", mixed sign"
        note = f", {self.note}" if self.note else ""
        return f"seed {self.seed}, {self.distribution} values{sign}{size}{note}, shapes {shapes}"


def _redistribute(tensor, distribution: str, generator, keep_sign: bool):
    import torch

    if not tensor.is_floating_point() or tensor.numel() < 2 or distribution in ("task", "task-reseeded"):
        return tensor
    nonnegative = bool((tensor >= 0).all()) and (keep_sign or distribution != "normal")
    noise = torch.randn(tensor.shape, generator=generator, dtype=torch.float32, device=tensor.device)
    if distribution == "normal":
        values = noise
    elif distribution == "mixed-magnitude":
        exponent = torch.rand(tensor.shape, generator=generator, device=tensor.device) * 6 - 3  # 1e-3 .. 1e3
        values = noise * torch.pow(10.0, exponent)
    elif distribution == "large":
        scale = 8.0 if tensor.dtype in (torch.float16, torch.bfloat16) else 100.0
        values = noise * scale
    elif distribution == "offset":
        offset = 8.0 if tensor.dtype in (torch.float16, torch.bfloat16) else OFFSET
        # One sign per tensor: a shift of all values, as data far from zero has (pixel values, logits)
        values = noise + offset * (1.0 if nonnegative or bool(torch.rand((), generator=generator,
                                                                          device=tensor.device) < 0.5) else -1.0)
    else:
        raise ValueError(distribution)
    if nonnegative:
        values = values.abs()
    return torch.empty_like(tensor).copy_(values)  # the task's layout (strides) kept


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
            fresh = torch.randn(shape, generator=generator, device=tensor.device).to(tensor.dtype)
            if bool((tensor >= 0).all()):
                fresh = fresh.abs()
        else:
            low, high = int(tensor.min()), int(tensor.max()) + 1
            fresh = torch.randint(low, max(high, low + 1), shape, generator=generator,
                                  device=tensor.device).to(tensor.dtype)
        resized[index] = fresh
    return resized


def forward_parameter_names(task: Task) -> list[str]:
    import inspect

    try:
        parameters = list(inspect.signature(task.cls.forward).parameters)
    except (TypeError, ValueError):
        return []
    return parameters[1:]  # drop self


def _seeded_set(task: Task, device: str, seed: int, distribution: str, keep_sign: bool) -> InputSet:
    import torch

    inputs = task.make_inputs(device, seed=seed)
    generator = torch.Generator(device=device).manual_seed(seed)  # on the device: no host-side generation
    signs_changed = distribution == "normal" and not keep_sign and any(
        isinstance(x, torch.Tensor) and x.is_floating_point() and x.numel() > 1 and bool((x >= 0).all())
        for x in inputs)
    inputs = [_redistribute(x, distribution, generator, keep_sign) if isinstance(x, torch.Tensor) else x
              for x in inputs]
    return InputSet(seed, distribution, None, inputs, keeps_sign=not signs_changed)


def with_signs_kept(task: Task, device: str, input_set: InputSet) -> InputSet:
    """The same seed and distribution with the task's non-negative inputs kept non-negative."""
    return _seeded_set(task, device, input_set.seed, input_set.distribution, keep_sign=True)


@dataclass(frozen=True)
class SetRecipe:
    """How one input set is drawn (`draw_set`): the same recipe gives the same values, so a set may be
    drawn at its turn and dropped after it, or drawn again."""

    seed: int
    distribution: str
    dynamic_size: int | None = None


def set_recipes(task: Task, count: int = 5, base_seed: int = 1000,
                distributions: tuple[str, ...] = DISTRIBUTIONS) -> list[SetRecipe]:
    """`count` seeded sets with varied distributions, plus boundary-size sets for dynamic dims (with
    the default distributions only)."""
    recipes = [SetRecipe(base_seed + index, distributions[index % len(distributions)]) for index in range(count)]
    if task.directives.dynamic and distributions == DISTRIBUTIONS:
        recipes += [SetRecipe(base_seed + 100 + offset, "normal", size) for offset, size in enumerate(BOUNDARY_SIZES)]
    return recipes


def draw_set(task: Task, device: str, recipe: SetRecipe) -> InputSet:
    """The set `recipe` describes; "normal" values give non-negative task inputs mixed signs."""
    if recipe.dynamic_size is None:
        return _seeded_set(task, device, recipe.seed, recipe.distribution, keep_sign=False)
    return rebuild_set(task, device, recipe.seed, recipe.distribution, dynamic_size=recipe.dynamic_size)


def input_sets(task: Task, device: str, count: int = 5, base_seed: int = 1000,
               distributions: tuple[str, ...] = DISTRIBUTIONS) -> list[InputSet]:
    """Every set of `set_recipes`, drawn at once."""
    return [draw_set(task, device, recipe) for recipe in set_recipes(task, count, base_seed, distributions)]


def rebuild_set(task: Task, device: str, seed: int, distribution: str, keeps_sign: bool = True,
                dynamic_size: int | None = None) -> InputSet:
    """The set `input_sets` (or `with_signs_kept`) drew with these parameters, drawn again: a
    reproducer's inputs (hiera_core.verify.repro). A set that kept its signs is drawn with them kept, which
    `_seeded_set` makes the same values as the draw that did not need to change any."""
    import torch

    if dynamic_size is None:
        return _seeded_set(task, device, seed, distribution, keep_sign=keeps_sign)
    generator = torch.Generator(device=device).manual_seed(seed)
    inputs = _resize_dynamic(task, task.make_inputs(device, seed=seed), forward_parameter_names(task), dynamic_size,
                             generator)
    return InputSet(seed, distribution, dynamic_size, inputs)


def tensors_equal(a, b) -> bool:
    """Same shape, dtype and values, NaN equal to NaN (for mutation and determinism checks)."""
    import torch

    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if torch.equal(a, b):
        return True
    return a.is_floating_point() and bool(((a == b) | (a.isnan() & b.isnan())).all())


def clone_inputs(inputs: list) -> list:
    """Fresh copies at new addresses (clone preserves strides, so layouts stay as the task made them)."""
    import torch

    return [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]

"""How many of a task's calls an evaluation holds on the device at once.

By default the judge keeps every verification set resident (its inputs, the reference's copy of
them and its outputs), the candidate's runner keeps each set's outputs, and a timed step makes ten
calls a side whose outputs live until that side's next step. On KernelBench's large shapes that is
far over any GPU: a (4096, 393216) softmax is 6 GiB a call, and every candidate of it ran out of
memory on an 80 GiB H100 (session 40). Where the default would not fit, the judge goes lean: the
verification sets are drawn one at a time at their turn (`SetRecipe`s draw the same values again),
the candidate's outputs of each set are released once judged, and the timing takes one base set
and as few calls a step as fit. A task's own inputs and outputs must fit, or nothing can run it.
"""

from __future__ import annotations

from dataclasses import dataclass

# Share of the device's free memory (when the judge measures it) one evaluation plans to hold on its
# side; the candidate's runner mirrors about as much, and other candidates or the bench's baselines
# may be on the device beside it.
DEVICE_SHARE = 0.25
# Footprints a verification set holds on the judge's side: its inputs, the reference's outputs and the
# candidate's (and the reference's copy of any input its forward mutates).
SET_COPIES = 3
VERIFICATION_SETS = 5  # the judge's default (EvaluateRequest.sets)
# Footprints a timed call holds on each side while its step's outputs live: its fresh inputs and output.
TIMED_CALL_COPIES = 2


@dataclass(frozen=True)
class Footprint:
    call_bytes: int  # one call's inputs and outputs
    budget_bytes: int | None  # what the judge's side may hold; None: no limit

    def fits(self, footprints: int) -> bool:
        return self.budget_bytes is None or footprints * self.call_bytes <= self.budget_bytes

    def calls(self, wanted: int, copies: int = TIMED_CALL_COPIES) -> int:
        """Up to `wanted` calls of `copies` footprints each within the budget; at least one."""
        if self.budget_bytes is None or not self.call_bytes:
            return wanted
        return max(1, min(wanted, self.budget_bytes // (copies * self.call_bytes)))

    def describe(self) -> str:
        budget = "" if self.budget_bytes is None else f" of {self.budget_bytes / 2**30:.1f} GiB planned"
        return f"{self.call_bytes / 2**30:.2f} GiB a call{budget}"


def crowds(call_bytes: int, device_bytes: int) -> bool:
    """Whether an evaluation of calls of `call_bytes` goes lean on a device of `device_bytes`: then it
    holds so much of it that nothing else should run on it meanwhile (another candidate, a baseline)."""
    return call_bytes * SET_COPIES * VERIFICATION_SETS > DEVICE_SHARE * device_bytes


def footprint_of(inputs: list, outputs: list, device: str) -> Footprint:
    """A call's footprint, and the judge's budget from the device's free memory now (the host's
    available memory on a CPU)."""
    from hiera_core.spec.memory import free_memory, tensor_bytes

    return Footprint(tensor_bytes(inputs) + tensor_bytes(outputs), int(DEVICE_SHARE * free_memory(device)))


def crowds_device(task, device: str) -> bool:
    """Whether the task's calls are so large that one evaluation needs the GPU to itself
    (`Footprint.crowds`): estimated on the meta device, nothing allocated."""
    if device != "cuda":
        return False
    import torch

    from hiera_core.spec.memory import forward_peak_bytes, tensor_bytes
    from hiera_core.task.load import outputs_as_list

    try:
        inputs = task.make_inputs("meta", seed=0)
        outputs, _ = forward_peak_bytes(task.build_model("meta"), inputs)
    except Exception:  # a module the meta device cannot run: treated as any other
        return False
    call_bytes = tensor_bytes(inputs) + tensor_bytes(outputs_as_list(outputs))
    return crowds(call_bytes, torch.cuda.mem_get_info()[1])

"""The row kernel's split form against its one-block-a-row form and eager, on a GPU: host time to queue
a call, wall time per call back to back, and GPU time per call (events behind a head start).

    PYTHONPATH=. python benchmarks/bench_row_split.py TASK.py [TASK.py ...]

Each task's custom-CUDA row-reduction candidate, as the loop generates it, is run three times: with
the runtime's choice of chunks (`_hiera_row_chunks`), split whatever the row length, and with every
row in one block. Rows too few to
fill the GPU (a vocabulary's log-softmax) are where the split pays; each split costs a launch per
sweep and a scratch allocation, which a host-bound call pays in full. A figure, not a verdict.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

CALLS = 200


def per_call_us(fn, inputs) -> tuple[float, float, float]:
    """(host us to queue a call, wall us per call back to back, GPU us per call)."""
    import torch

    with torch.no_grad():
        for _ in range(20):
            fn(*inputs)
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(CALLS):
            fn(*inputs)
        queued = time.perf_counter() - start
        torch.cuda.synchronize()
        wall = time.perf_counter() - start
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(50_000_000)  # the GPU busy while the host queues: the events hold GPU work alone
        begin.record()
        for _ in range(CALLS):
            fn(*inputs)
        end.record()
        torch.cuda.synchronize()
    return 1e6 * queued / CALLS, 1e6 * wall / CALLS, 1e3 * begin.elapsed_time(end) / CALLS


def row_candidate(path: str):
    """(namespace, reference, proposal, inputs) on the GPU for the task's custom-CUDA row-reduction
    candidate as the loop generates it (the proposal with the reference's weights), or None."""
    from hiera_core.spaces import strategies
    from hiera_core.spaces.strategy import ImplementContext
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task

    task = load_task(path)
    prepared = prepare(task, "cpu", measure=False)  # a generator gets the reference on the CPU, as in a worker
    prepared.spec.device = "cuda"
    context = ImplementContext(prepared.spec, task.class_name, prepared.model, prepared.inputs, prepared.graph, "cuda")
    candidate = strategies()["custom_cuda.row_reduction"].generate(context)
    if candidate is None:
        return None
    namespace: dict = {}
    exec(compile(task.info.source + "\n\n" + candidate.code, f"{Path(path).stem}_hiera.py", "exec"), namespace)
    reference = task.build_model("cuda", seed=0)
    proposal = namespace["ModelNew"](*task.make_init()).to("cuda").eval()
    proposal.load_state_dict(reference.state_dict())
    return namespace, reference, proposal, task.make_inputs("cuda", seed=0)


def row_candidates(paths: list[str]):
    """Each task's (path, namespace, reference, proposal, inputs), after a header naming the GPU (a
    line for a task with no candidate)."""
    import torch

    print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}; us per call: queue / wall / GPU")
    for path in paths:
        built = row_candidate(path)
        if built is None:
            print(f"{Path(path).name}: no row-reduction candidate")
            continue
        yield (path, *built)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="+")
    args = parser.parse_args()

    import torch

    if not torch.cuda.is_available():
        print("bench_row_split needs a CUDA GPU", file=sys.stderr)
        return 2
    for path, namespace, reference, proposal, inputs in row_candidates(args.tasks):
        print(f"{Path(path).name}")
        forms = [("eager", reference, None), ("runtime's choice", proposal, None),
                ("split rows", proposal, lambda rows, cols, sms: max(1, min(-(-4 * sms // rows), cols // 2048, 64))),
                ("a block a row", proposal, lambda rows, cols, sms: 1)]
        for label, module, chunks in forms:
            if chunks is not None:
                namespace["_hiera_row_chunks"] = chunks
                namespace["_HIERA_PLANS"].clear()
            queued, wall, gpu = per_call_us(module, inputs)
            print(f"  {label:<16} {queued:7.1f} / {wall:7.1f} / {gpu:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How a host-bound module's back-to-back time depends on the inputs its calls get: one input set
reused by every call of a batch (`profile.timing` before hiera-timing/4), a fresh set per call with
every output kept until the batch ends (the judge's host batches, and `profile.timing` since), and a
fresh set per call with each output freed at once. Eager and torch.compile in the modes asked for.
Host ms per call until the device is done, and to queue the calls, median of 15 batches of 20.

    python3 benchmarks/bench_host_inputs.py TASK.py [TASK.py ...] [--modes default,max-autotune-no-cudagraphs]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CALLS = 20
BATCHES = 15
FORMS = ("one set per batch", "fresh per call, kept", "fresh per call, freed")


def batch_ms(fn, values, form: str, roll: int) -> tuple[float, float]:
    """(host ms per call until the device is done, host ms per call to queue them)."""
    import torch

    staged = [values.make(0, roll + i) for i in range(CALLS)]
    torch.cuda.synchronize()
    start = time.perf_counter()
    if form == FORMS[0]:
        for _ in range(CALLS):
            fn(*staged[0])
    elif form == FORMS[1]:
        outputs = [fn(*args) for args in staged]  # noqa: F841 (kept alive until the batch ends)
    else:
        for args in staged:
            fn(*args)
    queued = (time.perf_counter() - start) * 1000 / CALLS
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1000 / CALLS, queued


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="+")
    parser.add_argument("--modes", default="default,max-autotune-no-cudagraphs")
    args = parser.parse_args()
    import torch

    from hiera_core.profile.steps import FreshValues
    from hiera_core.task.load import load_task

    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}: host ms per call (done / queued), "
          f"median of {BATCHES} batches of {CALLS}")
    for path in args.tasks:
        task = load_task(path)
        values = FreshValues([task.make_inputs("cuda", seed=0)])
        forms = {"eager": task.build_model("cuda", seed=0)}
        for mode in args.modes.split(","):
            forms[mode] = torch.compile(task.build_model("cuda", seed=0), mode=None if mode == "default" else mode)
        print(f"\n{Path(path).stem}")
        print(f"  {'':28}" + "".join(f"{form:>26}" for form in FORMS))
        with torch.no_grad():
            for name, fn in forms.items():
                for _ in range(3):
                    fn(*values.make(0, 1))
                cells = []
                for form in FORMS:
                    figures = [batch_ms(fn, values, form, 1 + 100 * i) for i in range(BATCHES)]
                    done = statistics.median(f[0] for f in figures)
                    queued = statistics.median(f[1] for f in figures)
                    cells.append(f"{done:.4f} / {queued:.4f}")
                print(f"  {name:28}" + "".join(f"{cell:>26}" for cell in cells))


if __name__ == "__main__":
    main()

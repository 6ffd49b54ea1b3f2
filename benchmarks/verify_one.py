"""Verify one strategy's candidate for one task, untimed, and print the verdict: the judge alone,
without the loop's other candidates (e.g. `python benchmarks/verify_one.py TASK pytorch.sdpa`)."""

import argparse
import sys
import tempfile
from pathlib import Path

from hiera_core.spaces import strategies
from hiera_core.spaces.strategy import ImplementContext
from hiera_core.spec.contract import prepare
from hiera_core.task.load import load_task
from hiera_core.verify.judge import evaluate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("task")
    parser.add_argument("strategy", help="registry key, e.g. pytorch.sdpa")
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()
    task = load_task(args.task)
    prepared = prepare(task, "cpu", measure=False)  # a generator gets the reference on the CPU, as in a worker
    prepared.spec.device = args.device
    ctx = ImplementContext(prepared.spec, task.class_name, prepared.model, prepared.inputs, prepared.graph, args.device)
    candidate = strategies()[args.strategy].generate(ctx)
    if candidate is None:
        print(f"{args.strategy}: nothing generated for {args.task}")
        return 1
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "candidate.py"
        path.write_text(task.info.source + "\n\n" + candidate.code)
        verification = evaluate(task, prepared.spec, str(path), candidate.space, args.device, timed=False).verification
    print(f"{args.strategy} on {args.task}: {'passed' if verification.passed else 'failed'}")
    print(verification.summary())
    return 0 if verification.passed else 1


if __name__ == "__main__":
    sys.exit(main())

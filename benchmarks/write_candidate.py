"""Write one strategy's candidate for a task, as the loop generates it, to a file that `hiera verify`
takes: the task's source, then the candidate's ModelNew. For checking one candidate's verdict alone:

    python benchmarks/write_candidate.py TASK.py pytorch.sdpa candidate.py && hiera verify TASK.py candidate.py
"""

import argparse
import sys
from pathlib import Path

from hiera_core.spaces import strategies
from hiera_core.spaces.strategy import ImplementContext
from hiera_core.spec.contract import prepare
from hiera_core.task.load import load_task


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("task")
    parser.add_argument("strategy", help="registry key, e.g. pytorch.sdpa")
    parser.add_argument("out", help="the candidate file to write")
    parser.add_argument("--device", default="cuda", help="the device the candidate is planned for")
    args = parser.parse_args()
    task = load_task(args.task)
    known = strategies()
    if args.strategy not in known:
        print(f"unknown strategy {args.strategy!r}; known: {', '.join(sorted(known))}", file=sys.stderr)
        return 2
    prepared = prepare(task, "cpu", measure=False)  # a generator gets the reference on the CPU, as in a worker
    prepared.spec.device = args.device
    ctx = ImplementContext(prepared.spec, task.class_name, prepared.model, prepared.inputs, prepared.graph, args.device)
    candidate = known[args.strategy].generate(ctx)
    if candidate is None:
        print(f"{args.strategy} generates nothing for {args.task}", file=sys.stderr)
        return 1
    Path(args.out).write_text(task.info.source + "\n\n" + candidate.code)
    print(f"{args.out}: {candidate.name} ({candidate.reason})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

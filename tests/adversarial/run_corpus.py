"""Evaluate the adversarial corpus outside pytest, several entries at a time, and print each verdict
against what its header expects (the assertions of test_adversarial.judge).

    python tests/adversarial/run_corpus.py --device cuda --workers 4 [--only hacks/NAME ...] [--stop-after S]

For a GPU run that must fit a time limit: `pytest -m gpu` evaluates one entry at a time; here
entries are verified side by side and timed one at a time (the device lock of `hiera optimize
--jobs`), so only the host's load can differ. Ctrl-C (or SIGINT from `timeout -s INT`) reports what
finished and stops the rest: their workers die with this process.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from corpus import ENTRIES, evaluate  # noqa: E402
from test_adversarial import judge  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="entry names (hacks/NAME, controls/NAME)")
    parser.add_argument("--stop-after", type=float, default=None, help="start no entry after this many seconds")
    parser.add_argument("--json", type=Path, default=None, help="write every result here")
    args = parser.parse_args()
    entries = [e for e in ENTRIES if (args.only is None or e.name in args.only)
               and (args.device == "cuda" or (e.device == "any" and not e.sanitize))]
    started = time.monotonic()
    results, verdicts = {}, {}
    folder = Path(tempfile.mkdtemp(prefix="hiera-corpus-"))

    def run(entry):
        if args.stop_after is not None and time.monotonic() - started > args.stop_after:
            return entry, None, 0.0
        began = time.monotonic()
        try:
            return entry, evaluate(entry, args.device, folder, args.workers > 1), time.monotonic() - began
        except Exception as error:
            return entry, f"{type(error).__name__}: {error}", time.monotonic() - began

    def record(entry, result, seconds):
        if result is None:
            verdicts[entry.name] = "not reached"
            return
        if isinstance(result, str):  # the evaluation raised
            results[entry.name] = {"error": result}
            verdicts[entry.name] = f"WRONG: {result}"
            print(f"WRONG {entry.name:48} {result[:200]}", flush=True)
            return
        results[entry.name] = result.to_dict()
        try:
            judge(entry, result)
            verdicts[entry.name] = "ok"
        except AssertionError as error:
            verdicts[entry.name] = "WRONG: " + " ".join(str(error).split())[:300]
        failed = next((c.name for c in result.verification.checks if not c.passed), "pass")
        print(f"{verdicts[entry.name][:5]:5} {entry.name:48} expect {entry.expect:20} got {failed:20} "
              f"{seconds:5.1f}s {result.timing_verdict}", flush=True)

    pool = ThreadPoolExecutor(args.workers)
    interrupted = False
    try:
        for future in as_completed([pool.submit(run, entry) for entry in entries]):
            record(*future.result())
    except KeyboardInterrupt:
        interrupted = True
        pool.shutdown(wait=False, cancel_futures=True)
    for entry in entries:
        verdicts.setdefault(entry.name, "not reached")
    wrong = {name: verdict for name, verdict in verdicts.items() if verdict.startswith("WRONG")}
    for name, verdict in sorted(wrong.items()):
        print(f"{name}: {verdict}")
    reached = sum(1 for v in verdicts.values() if v != "not reached")
    print(f"{reached - len(wrong)} passed, {len(wrong)} failed, {len(verdicts) - reached} not reached "
          f"({args.device}, {args.workers} at a time, {time.monotonic() - started:.0f} s"
          f"{', interrupted' if interrupted else ''})", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, default=str))
    shutil.rmtree(folder, ignore_errors=True)
    code = 1 if wrong or interrupted else 0
    if interrupted:  # threads still wait on their workers, which die with this process
        os._exit(code)
    pool.shutdown()
    return code


if __name__ == "__main__":
    sys.exit(main())

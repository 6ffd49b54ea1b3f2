"""Stands in for `python -m hiera_core.cli.main` in the server's job tests: fast and scriptable.

    fake_hiera.py optimize|profile|verify FILE::Class [CANDIDATE] --events [...]
    fake_hiera.py kernels FILE.cu [-I DIR] --json

Prints `--events` JSON lines like the real CLI and writes the same `.hiera/` records through
hiera_core.store, so hovers and diagnostics see what a real run leaves. The class name picks the
behaviour: Model (a proposal), Slow (a proposal after ~8 s, with a grandchild process in its
group), Compiling (as Slow, without the grandchild), Hang, Crash (SIGSEGV), Oom (a real
MemoryError), Broken (an error event, exit 2), Noisy (non-JSON output, then no improvement). Each run appends its argv and the model settings
it was given through the environment to $FAKE_HIERA_LOG.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time

from hiera_core.index_entry import LastRun, ProfiledKernel, ProfileEntry, ProposalEntry, VerificationFailure
from hiera_core.propose.proposal_file import ProposalHeader, proposal_path_for, render, sha256_text
from hiera_core.store import Store, task_key


def emit(event: str, stage: str | None = None, message: str = "", progress: float | None = None,
         data: dict | None = None) -> None:
    line = {"event": event, "stage": stage, "message": message, "progress": progress, "data": data or {},
            "time": time.time()}
    print(json.dumps({k: v for k, v in line.items() if v not in (None, "", {})}), flush=True)


def optimize(path: str, class_name: str, store: Store, key: str, pause: float) -> int:
    run = store.new_run("optimize")
    emit("start", "load", f"optimizing {path}::{class_name}", 0.0, {"run": run.id})
    for stage, message, progress in (("spec", "running the reference", 0.05), ("plan", "memory-bound", 0.3),
                                     ("implement", "1 candidate(s): fused", 0.35),
                                     ("verify", "compiling fused (1/1)", 0.4)):
        time.sleep(pause)
        emit("stage", stage, message, progress)
    time.sleep(3 * pause)  # a compile takes longest, without events
    emit("candidate", "profile", "fused: verified, 1.0 ms vs 2.5 ms eager (2.50x)", 0.95,
         {"name": "fused", "status": "verified", "speedup": 2.5})
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    body = source.rstrip("\n") + f"\n\n\nclass ModelNew({class_name}):\n    pass\n"
    verification = "passed: 9 checks, 5 input sets, max error 1.2e-07"
    header = ProposalHeader(reference=os.path.basename(path), reference_class=class_name,
                            reference_sha256=sha256_text(source), space="custom_cuda",
                            strategy="fused pointwise", verification=verification,
                            speedup="2.50x over eager (2.5 ms -> 1.0 ms)", device="cpu: fake CPU",
                            date="2026-11-29T10:00:00", contract=["x: float32[16, 64] contiguous"], run=run.id)
    proposal_file = run.write_text("proposal.py", render(header, body))
    store.update_index(key, file=path, class_name=class_name,
                       last_run=LastRun(id=run.id, kind="optimize", status="proposal", date="2026-11-29T10:00:00"),
                       verification_failures=[VerificationFailure(candidate="tiled", check="no_mutation",
                                                                  message="input 0 was modified",
                                                                  reproducer="seed 3, shape (16, 64)")],
                       proposal=ProposalEntry(run=run.id, path=str(proposal_file), speedup=2.5, space="custom_cuda",
                                              strategy="fused pointwise", verification=verification,
                                              device_name="fake CPU", date="2026-11-29T10:00:00"))
    emit("result", "propose", "proposal: fused is 2.50x faster", 1.0, {
        "status": "proposal", "run": run.id, "proposal_path": str(proposal_file),
        "target_path": os.path.abspath(proposal_path_for(path)), "speedup": 2.5, "space": "custom_cuda",
        "strategy": "fused pointwise", "verification": verification, "baseline_ms": 2.5, "best_ms": 1.0,
        "device": "cpu", "device_name": "fake CPU",
        "candidates": [{"name": "fused", "space": "custom_cuda", "status": "verified", "reason": "", "speedup": 2.5}]})
    return 0


def main(argv: list[str]) -> int:
    if argv[0] == "kernels":  # the hover's NVRTC figures, not a job: one kernel, always the same
        print(json.dumps({"ok": True, "arch": "sm_90", "errors": "", "kernels": [
            {"name": "scale_kernel(float const*, float*, int)", "registers": 16, "spill_stores": 0, "spill_loads": 0,
             "static_smem": 0, "occupancy": {"block": 256, "block_assumed": True, "occupancy": 1.0,
                                             "limiter": "warps"}}]}))
        return 0
    with open(os.environ["FAKE_HIERA_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps({"argv": argv, "HIERA_EDITOR_SETTINGS": os.environ.get("HIERA_EDITOR_SETTINGS"),
                              "HIERA_MODEL": os.environ.get("HIERA_MODEL")}) + "\n")
    command, address = argv[0], argv[1]
    path, _, class_name = address.partition("::")
    store = Store.for_file(path)
    key = task_key(store.workspace, path, class_name)
    if class_name == "Hang":
        emit("start", "load", "starting", 0.0)
        time.sleep(3600)
    if class_name == "Crash":
        emit("start", "load", "starting", 0.0)
        os.kill(os.getpid(), signal.SIGSEGV)
    if class_name == "Oom":
        emit("start", "load", "starting", 0.0)
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        hoard = bytearray(1 << 31)
        return len(hoard)
    if class_name == "Broken":
        emit("error", "load", "forward() raised", data={
            "message": "forward() raised RuntimeError: shapes do not match", "file": path, "line": 12,
            "hint": "make forward() run on the inputs", "kind": "forward"})
        return 2
    if class_name == "Noisy":
        print("Warning: something printed by user code", flush=True)
        print("x" * 200_000, flush=True)
        emit("result", "propose", "no improvement found", 1.0, {
            "status": "no_improvement", "run": "r", "proposal_path": None, "baseline_ms": 2.5,
            "message": "no improvement found: no candidate passed verification",
            "candidates": [{"name": "fused", "status": "rejected", "reason": "output mismatch"}]})
        return 1
    if command == "optimize":
        if class_name == "Slow":
            # A grandchild in our process group: cancelling must take it down too.
            child = subprocess.Popen(["sleep", "300"])
            with open(os.environ["FAKE_HIERA_LOG"] + ".children", "a", encoding="utf-8") as pids:
                pids.write(f"{child.pid}\n")
        return optimize(path, class_name, store, key, pause=1.0 if class_name in ("Slow", "Compiling") else 0.05)
    if command == "profile":
        emit("start", "load", "profiling", 0.0)
        record = ProfileEntry(device="cpu", device_name="fake CPU", latency_ms=2.5, spread_ms=0.05,
                              kernels=[ProfiledKernel("void scale_kernel<float>(float const*, float*, int)", 1.5, 0.6,
                                                      registers=32, spills=0),
                                       ProfiledKernel("aten::add", 1.0, 0.4)],
                              flops=2.0e6, bytes=8.0e6, intensity=0.25, roofline_bound_ms=0.5, roofline_pct=20.0,
                              date="2026-11-29T10:00:00")
        store.update_index(key, file=path, class_name=class_name, profile=record)
        emit("result", "profile", "2.5 ms", 1.0, record.to_dict())
        return 0
    if command == "verify":
        emit("stage", "verify", f"verifying {argv[2]}", 0.4)
        emit("result", "verify", "passed", 1.0, {"checks": [{"name": "outputs", "passed": True, "message": "",
                                                             "reproducer": ""}] * 9,
                                                  "input_sets": 5, "max_abs_error": 1.2e-07})
        return 0
    print(f"fake_hiera: unsupported command {command}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

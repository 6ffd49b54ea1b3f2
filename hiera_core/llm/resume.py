"""What `hiera optimize --resume RUN` takes from the run it continues: the candidates it evaluated
(reused, not evaluated again, when the new run builds the same candidate: same name, same code) and
the order in which it evaluated candidates and sent samples, which the new run keeps so that its
prompts come out the same and their answers replay from the answer cache (hiera_core.llm.cache).

RUN is a run folder, or a run id under the workspace's .hiera/runs. Pure: reads JSON records.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.store import STORE_DIR, find_workspace_root, read_json


@dataclass
class Replay:
    """The resumed run's order: candidates by evaluation, and what was evaluated before each sample."""

    order: list[str] = field(default_factory=list)
    before_sample: dict[int, list[str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.before_sample)

    def before(self, name: str) -> list[str]:
        """The candidates the resumed run evaluated before `name` (all of them when it never did)."""
        return self.order[:self.order.index(name)] if name in self.order else []

    @property
    def samples(self) -> int:
        return max(self.before_sample, default=0)


@dataclass
class ResumedRun:
    folder: Path
    id: str
    address: str
    settings: dict
    outcomes: dict[str, tuple[str, dict]]  # candidate name -> (its code, its recorded outcome)
    replay: Replay

    def outcome(self, candidate: dict) -> dict | None:
        """The recorded outcome of `candidate` when the run evaluated the same one; else None."""
        recorded = self.outcomes.get(candidate["name"])
        return recorded[1] if recorded and recorded[0] == candidate["code"] else None


def find_run(run: str, cwd: str | os.PathLike = ".") -> Path:
    """The folder of RUN: a run folder, or an id under .hiera/runs of the workspace around `cwd`."""
    given = Path(run)
    if (given / "run.json").is_file():
        return given.resolve()
    runs = find_workspace_root(cwd) / STORE_DIR / "runs"
    if (runs / run / "run.json").is_file():
        return runs / run
    known = sorted(p.name for p in runs.iterdir() if (p / "run.json").is_file()) if runs.is_dir() else []
    hint = (f"give a run folder, or one of the runs in {runs}: " + ", ".join(known[-5:])) if known else \
        f"give a run folder (holding run.json), or the id of a run in {runs}"
    raise HieraError(f"--resume {run}: no such run (no run.json there or under {runs})", kind=ErrorKind.USAGE,
                     hint=hint)


def load_resumed(folder: Path) -> ResumedRun:
    state = read_json(folder / "run.json")
    if not isinstance(state, dict) or state.get("kind") != "optimize":
        raise HieraError(f"--resume {folder}: not the record of a hiera optimize run", file=str(folder / "run.json"),
                         kind=ErrorKind.USAGE, hint="resume a run folder made by hiera optimize")
    outcomes = {}
    for path in sorted((folder / "candidates").glob("*.json")):
        entry = read_json(path)
        if isinstance(entry, dict) and isinstance(entry.get("outcome"), dict) and "code" in entry:
            outcomes[entry["name"]] = (entry["code"], entry["outcome"])
    summary = read_json(folder / "llm.json") or {}
    order = [point["candidate"] for point in summary.get("best_speedup_over_time", [])]
    before_sample = {}
    for path in sorted((folder / "llm").glob("*.json")):
        exchange = read_json(path)
        if isinstance(exchange, dict) and exchange.get("sample"):
            before_sample[exchange["sample"]] = list(exchange.get("evaluated_before") or [])
    return ResumedRun(folder, state.get("id", folder.name), state.get("address", ""), state.get("settings", {}),
                      outcomes, Replay(order, before_sample))


# Flags of `hiera optimize` that a resumed run takes from the run it continues when not given again.
RUN_FLAGS = ("budget", "device", "timeout_s")
LLM_FLAGS = ("model", "base_url", "plan_model", "samples", "token_budget", "time_budget_s", "temperature")


def resumed_arguments(resumed: ResumedRun, address: str | None, flags: dict, llm_flags: dict) -> tuple[str, dict, dict]:
    """(address, run flags, model flags) of a resumed run: those given now, else the resumed run's.
    Its address is taken as recorded, or relative to its workspace when recorded relative."""
    if not address:
        address = resumed.address
        file, sep, name = address.partition("::")
        workspace = resumed.folder.parents[2]
        if not os.path.isabs(file) and not os.path.exists(file) and (workspace / file).exists():
            address = f"{workspace / file}{sep}{name}"
    settings = resumed.settings
    flags = {key: settings.get(key) if flags.get(key) is None and key in RUN_FLAGS else flags.get(key) for key in flags}
    recorded_llm = settings.get("llm") or {}
    llm_flags = {key: recorded_llm.get(key) if value is None and key in LLM_FLAGS else value
                 for key, value in llm_flags.items()}
    return address, flags, llm_flags

"""One run of the loop and its settings: the run's store record (run.json, rewritten atomically at
each step), its progress events, the worker steps it runs and how it ends (failed, interrupted),
and the module's index entry. Torch-free: the orchestrator's side."""

from __future__ import annotations

import os
import threading
import time
import weakref
from dataclasses import asdict, dataclass, field
from pathlib import Path

from hiera_core import settings as defaults
from hiera_core.errors import ErrorKind, HieraError
from hiera_core.events import CANDIDATE_STAGES, Emit, Event, Fanout, stopwatch
from hiera_core.index_entry import LastRun
from hiera_core.llm.config import LLMConfig, without_credentials
from hiera_core.llm.config import Overrides as LLMOverrides
from hiera_core.llm.config import resolve as resolve_llm
from hiera_core.llm.record import LLMRecord
from hiera_core.loop.outcome_cache import OutcomeCache
from hiera_core.spec.model import Spec
from hiera_core.store import Run, Store, iso_time, task_key
from hiera_core.task.load import choose_class, read_source, split_address
from hiera_core.worker.isolate import Placement, run_worker
from hiera_core.worker.requests import Result, WorkerRequest
from hiera_core.worker.warm import WarmPool

# A candidate's evaluation calls it this many times at most (input sets, determinism, warm-up, timed
# iterations); one this many times slower than the reference, or hanging, is stopped. The floor
# leaves room for process start, imports and compiles (torch.compile, an extension's first build).
CANDIDATE_CALLS = 200
CANDIDATE_SLOWDOWN = 50
CANDIDATE_FLOOR_S = 120.0


@dataclass
class Settings:
    device: str = "cpu"
    budget: int = defaults.BUDGET
    gpu: str | None = None  # peaks-table key for the roofline; default: the detected device
    timeout_s: float = defaults.TIMEOUT_S  # per worker step
    meta: bool = False
    write: bool = False
    python: str | None = None  # interpreter for workers
    placement: Placement | None = None  # the workers' GPU and CPU cores (`hiera bench --gpus`); None: inherited
    candidate_floor_s: float = CANDIDATE_FLOOR_S  # least time a candidate's evaluation is given
    # Candidates evaluated side by side (each compiles and verifies while another may; timing is
    # exclusive, hiera_core.worker.devicelock); None: default_jobs(device).
    jobs: int | None = None
    # The lock file of other work on this device (hiera bench's baselines, timed beside the loop):
    # every candidate and the confirmation take it (hiera_core.worker.devicelock). None: the loop's own.
    device_lock: str | None = None
    # Workers started ahead of the candidates (hiera_core.worker.warm); None: default_warm_workers.
    warm_workers: int | None = None
    # Use the reference's cached spec when one matches (--no-cache: measure afresh, and cache that)
    cache: bool = True
    # CLI flags for the model (None: not given; hiera_core.llm.config merges env, pyproject, editor)
    llm: LLMOverrides = field(default_factory=LLMOverrides)
    resume: str | None = None  # the folder of a run to continue (--resume): hiera_core.llm.resume


@dataclass
class RunState:
    """What run.json holds."""

    id: str
    kind: str
    address: str
    settings: dict
    status: str = "running"  # running | proposal | no_improvement | failed | done | interrupted
    stage: str = "load"
    started: float = field(default_factory=time.time)
    finished: float | None = None
    candidates: list[dict] = field(default_factory=list)
    rejected_strategies: list[dict] = field(default_factory=list)
    best: dict | None = None
    error: dict | None = None
    llm: dict | None = None  # LLMConfig.public() when a model is configured (the exchanges: llm.json)
    spec_cache: dict | None = None  # {"key", "used": whether the spec came from the cache, "note"}


STAGE_WORDS = dict(zip(CANDIDATE_STAGES, ("compiling", "verifying", "timing")))
STAGE_SHARE = dict(zip(CANDIDATE_STAGES, (0.0, 0.3, 0.7)))  # where in its evaluation a stage begins, roughly


def default_jobs(device: str) -> int:
    """On a GPU, one candidate per 4 CPU cores up to 4 (compiles are CPU work; timing stays
    exclusive); on a CPU, one: the candidates' compiles would share the cores the timing measures."""
    if device != "cuda":
        return 1
    return max(1, min(4, len(os.sched_getaffinity(0)) // 4))


def jobs_within_memory(jobs: int, spec: Spec, placement: Placement | None = None) -> int:
    """`jobs`, or one at a time where a candidate's evaluation would hold much of the GPU's memory:
    where its verification sets would not fit the judge's share of the device, the judge goes lean
    (hiera_core.verify.footprint) and still holds several of the task's calls, and evaluations side
    by side ran out of memory (KernelBench's 6 GiB-a-call softmax on an 80 GiB H100)."""
    from hiera_core.verify.footprint import crowds

    if jobs <= 1:
        return jobs
    from hiera_core.bench.environment import gpu_snapshot

    memory = gpu_snapshot(placement.gpu if placement else None).get("memory_total_mib")
    if not isinstance(memory, (int, float)):
        return jobs
    return 1 if crowds(spec.call_bytes, int(memory * 2**20)) else jobs


WARM_WORKER_GPU_MIB = 16 * 1024  # GPU memory per warm worker: its idle contexts (~0.5 GiB each) stay small beside it


def default_warm_workers(device: str, jobs: int, placement: Placement | None = None) -> int:
    """On a GPU, one a candidate evaluated side by side, fewer on a GPU with little memory (each
    holds its contexts while it waits: one per WARM_WORKER_GPU_MIB), none where nvidia-smi cannot
    say; on a CPU none: a worker starting while a candidate is timed would take the cores that
    timing measures."""
    if device != "cuda":
        return 0
    from hiera_core.bench.environment import gpu_snapshot

    memory = gpu_snapshot(placement.gpu if placement else None).get("memory_total_mib")
    return min(jobs, int(memory // WARM_WORKER_GPU_MIB)) if isinstance(memory, (int, float)) else 0


def default_device() -> str:
    """cuda when an NVIDIA driver is visible, else cpu (decided without importing torch)."""
    return "cuda" if os.path.exists("/dev/nvidiactl") or os.path.exists("/proc/driver/nvidia/version") else "cpu"


# Sessions of this process whose run may still be open, so an interruption can record each.
_sessions: weakref.WeakSet[Session] = weakref.WeakSet()


def record_interrupted(how: str) -> list[Session]:
    """Record every run of this process that is still running as interrupted by `how` (Ctrl-C,
    SIGTERM); returns their sessions."""
    sessions = [session for session in list(_sessions) if session.state.status == "running"]
    for session in sessions:
        session.interrupted(how)
    return sessions


class Session:
    """One run: its store record, events and the shared bits of optimize, spec, plan, profile and verify."""

    def __init__(self, address: str, kind: str, settings: Settings, emit: Emit):
        self.path, class_name = split_address(address)
        info = read_source(self.path)  # syntax errors surface here, before any worker starts
        self.info = info
        self.class_name = choose_class(info, class_name).name
        self.address = f"{self.path}::{self.class_name}"
        self.settings = settings
        self.store = Store.for_file(self.path)
        self.key = task_key(self.store.workspace, self.path, self.class_name)
        self.run: Run = self.store.new_run(kind)
        self.state = RunState(self.run.id, kind, self.address, asdict(settings))
        # Candidates evaluated side by side report from their threads: one event, one save at a time.
        self.lock = threading.RLock()
        fanout = Fanout(emit, lambda event: self.run.append_event(event.to_json()))

        def emit_one(event: Event) -> None:
            with self.lock:
                fanout(event)
        self.emit = emit_one
        self.llm_config: LLMConfig | None = None  # optimize only: the resolved model settings
        self.llm_record: LLMRecord | None = None  # optimize with a model: prompts, answers, measures
        self.resumed = None  # optimize --resume: the run it continues (hiera_core.llm.resume.ResumedRun)
        self.spec_parts: dict | None = None  # what the reference's spec cache key is made of (None: untold)
        self.outcome_cache: OutcomeCache | None = None  # optimize: candidate outcomes and confirmations
        self.warm: WarmPool | None = None  # optimize: workers started ahead of its steps (start_warm_workers)
        # Wall seconds of each worker step, by its log name: {"total", and the phases it reports}.
        self.worker_seconds: dict[str, dict] = {}
        # Candidates being evaluated: name -> (index, total, its stage), for the progress message.
        self.in_flight: dict[str, tuple[int, int, str]] = {}
        self.finished_candidates = 0
        self.save()
        _sessions.add(self)

    def save(self) -> None:
        with self.lock:
            self.run.write_json("run.json", vars(self.state))

    def stage(self, stage: str, message: str, progress: float, **data) -> None:
        with self.lock:
            self.state.stage = stage
            self.save()
            self.emit(Event("stage", stage=stage, message=message, progress=progress, data=data))

    def worker(self, kind: type[WorkerRequest[Result]], doing: str, log_name: str, *, timeout_s: float | None = None,
               timeout_hint: str | None = None, **arguments) -> Result:
        """Run one worker op, a `kind` request of `arguments` on this run's module, device and cache,
        and return its result; `timeout_s` (default: the --timeout setting) bounds it. The op's own
        breakdown of its wall seconds, when it reports one, joins worker_seconds."""
        request = kind(address=self.address, device=self.settings.device, cache_root=str(self.store.cache_root),
                       **arguments)
        seconds = self.worker_seconds[log_name] = {}
        with stopwatch(seconds, "total"):
            # Steps with runners to start (the candidates', the confirmation's) take the warm workers: the
            # reference's steps come first, before any worker started with them could be ready.
            claimed = self.warm.claim(self.settings.python, request, self.settings.placement) \
                if self.warm and request.runners() else None
            result = run_worker(request, timeout_s=timeout_s or self.settings.timeout_s, doing=doing,
                                log_path=self.run.path / "logs" / f"{log_name}.log", python=self.settings.python,
                                placement=self.settings.placement, timeout_hint=timeout_hint, claimed=claimed)
        seconds.update(getattr(result, "seconds", {}))
        return result

    def start_warm_workers(self, evaluations: int, confirmation_runners: int) -> None:
        """Workers started now for the steps to come (hiera_core.worker.warm): `evaluations` with a
        runner each, and one with `confirmation_runners` for the fresh-process confirmation; none
        where default_warm_workers says so. Closed when the run ends (`close_warm_workers`)."""
        settings = self.settings
        warm = settings.warm_workers
        if warm is None:
            warm = default_warm_workers(settings.device, settings.jobs or default_jobs(settings.device),
                                        settings.placement)
        if warm <= 0:
            return
        self.warm = WarmPool(self.run.path / "logs" / "warm", device=settings.device, python=settings.python,
                             placement=settings.placement, cache_root=str(self.store.cache_root))
        self.warm.add(min(warm, evaluations), 1)
        self.warm.add(1, confirmation_runners)

    def close_warm_workers(self) -> None:
        if self.warm is not None:
            self.warm.close()

    def candidate_stage(self, name: str, stage: str, index: int, total: int) -> None:
        """`name` (index of total) entered `stage` (CANDIDATE_STAGES): one stage event saying what it
        and every other candidate in flight are doing."""
        with self.lock:
            self.in_flight[name] = (index, total, stage)
            others = sorted((entry, other) for other, entry in self.in_flight.items() if other != name)
            message = "; ".join(f"{STAGE_WORDS[at]} {who} ({i + 1}/{n})"
                                 for (i, n, at), who in [((index, total, stage), name), *others])
            # Overall: finished candidates count whole, those in flight by the share of their stage.
            done = self.finished_candidates + sum(STAGE_SHARE[at] for _, _, at in self.in_flight.values())
            self.emit(Event("stage", stage="verify", message=message, progress=0.4 + 0.55 * done / max(total, 1),
                            data={"candidate": name, "candidate_stage": stage, "index": index, "total": total,
                                  "in_flight": {who: at for who, (_, _, at) in self.in_flight.items()}}))

    def candidate_finished(self, name: str) -> None:
        with self.lock:
            self.in_flight.pop(name, None)
            self.finished_candidates += 1

    def update_index(self, **parts) -> None:
        """Set `parts` (IndexEntry's fields) of the module's index entry (what the editor's hover,
        diagnostics and code actions read), with the module's file and class."""
        self.store.update_index(self.key, file=self.path, class_name=self.class_name, **parts)

    def record_last_run(self, status: str, error: dict | None = None, **parts) -> None:
        """This run as the module's last run in the index, `parts` set beside it."""
        self.update_index(last_run=LastRun(id=self.run.id, kind=self.state.kind, status=status, date=iso_time(),
                                           error=error), **parts)

    def fail(self, error: HieraError) -> None:
        self.state.status = "failed"
        self.state.error = error.to_dict()
        self.state.finished = time.time()
        try:
            self.save()
            self.record_last_run("failed", error.to_dict())
        except HieraError:  # the store itself failed (unwritable): the error says so, nothing to record it in
            pass
        self.emit(Event("error", stage=self.state.stage, message=str(error), data=error.to_dict()))

    def interrupted(self, how: str) -> None:
        """The run was stopped by `how` (its workers already killed): run.json says interrupted, with
        its end time and the candidates that finished; the model's open exchanges are closed; the
        index's last run says so. Best effort: the process is ending."""
        self.state.status = "interrupted"
        self.state.error = {"kind": ErrorKind.CANCELLED, "message": f"interrupted by {how} during {self.state.stage}"}
        self.state.finished = time.time()
        try:
            if self.llm_record is not None:
                self.llm_record.interrupted(how)
            self.save()
            self.record_last_run("interrupted", self.state.error)
            self.emit(Event("error", stage=self.state.stage, message=self.state.error["message"],
                            data=self.state.error))
        except (HieraError, OSError):  # an unwritable store, or stdout closed by a parent that is gone
            pass

    def candidate_time_limit(self, spec: Spec) -> tuple[float, str]:
        """(seconds, hint) a candidate's evaluation is given: CANDIDATE_SLOWDOWN times the reference's
        measured time for CANDIDATE_CALLS calls, at least `candidate_floor_s`, at most --timeout."""
        timeout = self.settings.timeout_s
        if not spec.reference_ms:
            return timeout, "the forward may hang (e.g. an endless loop); raise --timeout if the task is just slow"
        floor = min(self.settings.candidate_floor_s, timeout)
        limit = min(timeout, max(floor, CANDIDATE_SLOWDOWN * spec.reference_ms * CANDIDATE_CALLS / 1000))
        return limit, (f"a candidate is given {CANDIDATE_SLOWDOWN}x the reference's {spec.reference_ms:.3g} ms "
                       f"for {CANDIDATE_CALLS} calls, at least {floor:g} s and at most --timeout: this one "
                       "hangs or is far slower than the reference")


def llm_config_for(settings: Settings, workspace: Path) -> LLMConfig:
    """The model settings of a run: CLI flags (in settings) > env > pyproject.toml > editor."""
    return resolve_llm(settings.llm, workspace)


def configure_llm(session: Session) -> LLMConfig:
    """Resolve the run's model settings into `session.llm_config` (optimize and plan); run.json
    keeps them without the key and without credentials in the base URL. Raises HieraError(config)."""
    settings = session.settings
    if settings.llm.base_url:  # as given it may carry user:password@, which no record keeps
        session.state.settings["llm"]["base_url"] = without_credentials(settings.llm.base_url)
        session.save()
    config = session.llm_config = llm_config_for(settings, session.store.workspace)
    if config.enabled:
        session.state.llm = config.public()
    return config

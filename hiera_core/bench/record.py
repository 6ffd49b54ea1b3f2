"""One task's result in a bench run: what results.json lists, one row of results.csv."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

OUTCOMES = ("proposal", "no_improvement", "error")


@dataclass
class TaskRecord:
    id: str  # "level1/3_Conv2d_3x3.py": the key --resume matches on
    level: int | None  # None: a file given by path outside any levelN folder
    path: str
    outcome: str  # one of OUTCOMES: what `hiera optimize` ended with (or that it, or the timing, failed)
    # The module HIERA delivers is the proposal, or the reference itself when it found no improvement;
    # `correct` says whether that module matches the reference (the reference trivially does).
    correct: bool = False
    check: str = ""  # how `correct` was decided
    error: dict | None = None  # {"stage": "optimize" | "timing", "kind", "message"} when outcome == "error"
    space: str | None = None
    strategy: str | None = None
    verification: str | None = None  # HIERA's own verification summary of the proposal
    # Each speedup has two estimates (hiera_core.bench.task_run._record_speedups says which is reported):
    # paired, of one method each (the proposal against its own timing of the reference, alternating:
    # paired_eager_ms; over a compile mode, times that mode's time / eager's, both from one process),
    # and direct (eager's or the mode's time from the baselines' process over the proposal's).
    eager_ms: float | None = None
    compile_ms: float | None = None  # torch.compile(reference), default mode
    compile_modes_ms: dict = field(default_factory=dict)  # every mode timed -> ms (None: it failed)
    best_compile_mode: str | None = None  # the fastest mode of compile_modes_ms
    best_compile_ms: float | None = None
    hiera_ms: float | None = None  # the delivered module (equal to eager_ms when the reference is kept)
    paired_eager_ms: float | None = None  # the reference, timed alternately with the proposal
    compile_error: str | None = None  # of the default mode; compile_errors has every mode's
    compile_errors: dict = field(default_factory=dict)
    speedup_eager: float | None = None  # one of its two estimates below (task_run._record_speedups), when correct
    speedup_compile: float | None = None  # over the default mode, when correct and torch.compile ran
    speedup_best_compile: float | None = None  # over the best mode timed
    speedup_eager_paired: float | None = None  # paired_eager_ms / hiera_ms
    speedup_eager_direct: float | None = None  # eager_ms / hiera_ms
    speedup_compile_paired: float | None = None  # speedup_eager_paired * compile_ms / eager_ms
    speedup_compile_direct: float | None = None  # compile_ms / hiera_ms
    speedup_best_compile_paired: float | None = None
    speedup_best_compile_direct: float | None = None
    optimize_speedup: float | None = None  # the proposal's speedup as `hiera optimize` measured it
    flops: float | None = None
    bytes: float | None = None
    intensity: float | None = None
    workload_class: str | None = None
    roofline_device: str | None = None
    peak_flops: float | None = None
    peak_bw: float | None = None
    roofline_bound_ms: float | None = None
    roofline_pct: float | None = None  # of the delivered module
    roofline_pct_eager: float | None = None
    samples: int = 0  # candidates implemented, verified and timed: offline and model ones together
    samples_to_first_valid: int | None = None  # 1-based; None when no candidate passed verification
    best_speedup_by_sample: list[float | None] = field(default_factory=list)  # best verified so far, per sample
    # What each candidate measured, in the loop's order (task_run.candidate_summary), and the plan's
    # regions (task_run.region_summary): how the proposal was chosen, without the run's store.
    candidates: list[dict] = field(default_factory=list)
    regions: list[dict] = field(default_factory=list)
    tokens: int | None = None  # LLM tokens; 0 in offline mode
    # The model's samples apart from the offline candidates (all None in offline mode): the paper's
    # sample efficiency. valid_rate is over the answers judged (transport failures counted apart);
    # first_valid_sample is the 1-based model sample; tokens and calls count every request sent
    # before that answer (planning and reviews included).
    model_samples: int | None = None
    model_judged: int | None = None  # answers verification judged
    model_verified: int | None = None
    model_valid_rate: float | None = None
    model_transport_failures: int | None = None
    model_first_valid_sample: int | None = None
    model_tokens_to_first_valid: int | None = None
    model_calls_to_best: int | None = None
    model_tokens_to_best: int | None = None
    model_cost: float | None = None  # in the price table's currency; None without prices
    wall_s: float = 0.0
    # Wall seconds of each worker step (prepare, each candidate, confirm-<name>, bench_time): where
    # a task's time went. results.json only.
    worker_s: dict = field(default_factory=dict)
    # Where the task ran: the GPU its workers saw (`--gpus`, or the one Ray gave it) and, with
    # `--ray`, the node's address and Ray's id of it (None on the local host).
    gpu: str | None = None
    node: str | None = None
    node_id: str | None = None
    run: str | None = None  # the optimize run's id in the task's .hiera/ store (on the node, with --ray)
    proposal: str | None = None  # the proposal file, relative to the output folder
    # Each timing's statistics (median, spread, host time per call, method), results.json only: a
    # median that disagrees with optimize_speedup can be told apart from CPU-bound or noisy timing.
    timings: dict = field(default_factory=dict)
    environment: dict = field(default_factory=dict)

    def record_model_samples(self, llm: dict) -> None:
        """The model-sample fields from a run's `llm` summary (LLMRecord.summary)."""
        first, best = llm.get("cost_to_first_valid") or {}, llm.get("cost_to_best") or {}
        self.model_samples, self.model_judged, self.model_verified = llm["samples"], llm["judged"], llm["verified"]
        self.model_valid_rate, self.model_transport_failures = llm["valid_rate"], llm["transport_failures"]
        self.model_first_valid_sample = llm["samples_to_first_valid"]
        self.model_tokens_to_first_valid = first.get("tokens")
        self.model_calls_to_best, self.model_tokens_to_best = best.get("calls"), best.get("tokens")
        self.model_cost = llm["cost"]

    @property
    def valid(self) -> bool:
        return self.outcome != "error" and self.correct

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> TaskRecord:
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})

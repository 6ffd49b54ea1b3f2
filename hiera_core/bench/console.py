"""The terminal side of `hiera bench`: a progress bar (plain lines when not a terminal), a line per
finished task, then the per-task and per-level tables."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from hiera_core.bench.measures import BASELINES, P_VALUES, p_key, summarise
from hiera_core.bench.record import TaskRecord
from hiera_core.bench.report import BASELINE_TITLES, MODEL_COLUMNS, format_value, require_matplotlib
from hiera_core.bench.results import REPORT_HTML, RESULTS_CSV, RESULTS_JSON, BenchResults
from hiera_core.bench.runner import run_bench
from hiera_core.bench.suite import discover
from hiera_core.bench.task_run import BenchSettings
from hiera_core.errors import ErrorKind, HieraError
from hiera_core.events import Emit, Event


def _x(value: float | None) -> str:
    return f"{value:.2f}x" if value is not None else "-"


# Two estimates of a speedup further apart than this factor are both shown (hiera_core.bench.task_run).
ESTIMATES_APART = 1.1


def _ms(value: float | None) -> str:
    return f"{value:.4g}" if value is not None else "-"


def _share(value: float | None) -> str:
    return f"{100 * value:.0f}%" if value is not None else "-"


def describe(record: TaskRecord) -> str:
    """One line for a finished task (rich markup; what comes from the task is escaped)."""
    if record.outcome == "error":
        return (f"{escape(record.id)}: [red]error[/] in {record.error['stage']} ({escape(record.error['kind'])}): "
                f"{escape(record.error['message'].splitlines()[0])}")
    verdict = "[green]valid[/]" if record.valid else "[red]invalid[/]"
    best = (f", {_x(record.speedup_best_compile)} over its best mode ({record.best_compile_mode}{_estimates(record)})"
            if record.best_compile_mode and record.best_compile_mode != "default" else "")
    return (f"{escape(record.id)}: {record.outcome}, {verdict}, {_x(record.speedup_eager)} over eager, "
            f"{_x(record.speedup_compile)} over torch.compile{best} ({record.wall_s:.0f} s{_steps(record.worker_s)})")


def _estimates(record: TaskRecord) -> str:
    """'; paired 2.57x, direct 1.77x' where the two estimates over the best mode differ by more than
    ESTIMATES_APART (task_run._record_speedups says which is claimed), else ''."""
    paired, direct = record.speedup_best_compile_paired, record.speedup_best_compile_direct
    if paired is None or direct is None or max(paired, direct) <= ESTIMATES_APART * min(paired, direct):
        return ""
    return f"; paired {_x(paired)}, direct {_x(direct)}"


def _steps(worker_s: dict) -> str:
    """': prepare 9, pytorch.compile_default 21, ...': seconds per worker step, where the time went."""
    steps = ", ".join(f"{escape(name)} {step['total']:.0f}" for name, step in worker_s.items())
    return f": {steps}" if steps else ""


@contextmanager
def progress(console: Console) -> Iterator[tuple[Emit, Callable[[TaskRecord], None]]]:
    """(emit for progress events, callback for finished records)."""
    if not console.is_terminal:
        def plain(event: Event) -> None:
            if event.event in ("start", "candidate", "log") or (event.event == "stage"
                                                                and event.stage in ("spec", "profile")):
                console.print(f"[dim]{escape(event.message)}[/]", highlight=False)
        yield plain, lambda record: console.print(describe(record), highlight=False)
        return
    with Progress(TextColumn("[bold]bench"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                  TextColumn("{task.description}"), TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task("starting", total=1.0)

        def update(event: Event) -> None:
            if event.event in ("start", "log"):
                bar.console.print(event.message, highlight=False, markup=False)
            if event.progress is not None:
                bar.update(task, completed=event.progress, description=escape(event.message[:90]))
        yield update, lambda record: bar.console.print(describe(record), highlight=False)


def task_table(records: list[TaskRecord]) -> Table:
    table = Table(title="tasks", title_justify="left")
    for column in ("task", "outcome", "valid", "space", "eager ms", "compile ms", "best mode", "HIERA ms", "x eager",
                   "x compile", "x best compile", "roofline", "samples", "first valid", "wall s"):
        table.add_column(column)
    for r in records:
        table.add_row(escape(r.id), r.outcome if r.outcome != "error" else f"error ({r.error['kind']})",
                      "yes" if r.valid else "no", r.space or "-", _ms(r.eager_ms), _ms(r.compile_ms),
                      r.best_compile_mode or "-", _ms(r.hiera_ms),
                      _x(r.speedup_eager), _x(r.speedup_compile), _x(r.speedup_best_compile),
                      f"{r.roofline_pct:.1f}%" if r.roofline_pct is not None else "-", str(r.samples),
                      str(r.samples_to_first_valid or "-"), f"{r.wall_s:.0f}")
    return table


def summary_table(summary: dict) -> Table:
    table = Table(title="per level (fast_p for p = " + ", ".join(p_key(p) for p in P_VALUES) + ")",
                  title_justify="left")
    for column in ("group", "tasks", "errors", "validity", *(f"fast_p {BASELINE_TITLES[b]}" for b in BASELINES),
                   *(f"geomean x {BASELINE_TITLES[b]}" for b in BASELINES),
                   *(f"median x {BASELINE_TITLES[b]}" for b in BASELINES), "library/custom proposals",
                   "median wall s"):
        table.add_column(column)
    for name, group in [*summary["levels"].items(), ("overall", summary["overall"])]:
        wall = group["median_wall_s"]
        table.add_row(name, str(group["tasks"]), str(group["errors"]), _share(group["validity"]),
                      *(" / ".join(_share(group["fast_p"][b][p_key(p)]) for p in P_VALUES) for b in BASELINES),
                      *(_x(group["geomean"][b]) for b in BASELINES), *(_x(group["median"][b]) for b in BASELINES),
                      _share(group["library_or_custom"]), f"{wall:.0f}" if wall is not None else "-")
    return table


def model_table(summary: dict) -> Table:
    table = Table(title="model samples (apart from offline candidates)", title_justify="left")
    for header in ("group", *(header for _, header, _ in MODEL_COLUMNS)):
        table.add_column(header)
    for name, group in [*summary["levels"].items(), ("overall", summary["overall"])]:
        if "model" in group:
            table.add_row(name, *(format_value(group["model"][key], kind) for key, _, kind in MODEL_COLUMNS))
    return table


def run(sources: list[str], levels: tuple[int, ...], limit: int | None, settings: BenchSettings, out: Path,
        resume: bool, stop_after_s: float | None, command: list[str], err: Console, out_console: Console,
        rerun: tuple[str, ...] = ()) -> BenchResults:
    """What `hiera bench` does once its options are parsed; raises HieraError for usage problems."""
    require_matplotlib()
    tasks = discover(sources, levels, limit)
    if not tasks:
        raise HieraError("no task files found in " + ", ".join(sources), kind=ErrorKind.USAGE,
                         hint=f"check --levels (now {','.join(map(str, levels))}) and the suite's levelN/ folders")
    unknown = [task_id for task_id in rerun if task_id not in {task.id for task in tasks}]
    if unknown:
        raise HieraError(f"--rerun names no task of this suite: {', '.join(unknown)}", kind=ErrorKind.USAGE,
                         hint=f"use the ids of results.json, e.g. {tasks[0].id}")
    with progress(err) as (emit, on_record):
        results = run_bench(tasks, settings, out, resume=resume, command=command, emit=emit, on_record=on_record,
                            stop_after_s=stop_after_s, rerun=rerun)
    if not out_console.is_terminal:  # a log or CI: rich would squeeze the tables into 80 columns
        out_console = Console(file=out_console.file, width=240)
    out_console.print(task_table(results.tasks))
    summary = summarise(results.tasks)
    out_console.print(summary_table(summary))
    if "model" in summary["overall"]:
        out_console.print(model_table(summary))
    out_console.print(f"results in {out}: {RESULTS_JSON}, {RESULTS_CSV}, {REPORT_HTML}", highlight=False)
    return results

"""What `hiera` prints: progress on stderr (a rich progress bar on a terminal, plain lines off one,
JSON lines with --events), errors (exit 2), and each command's text output on stdout."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from hiera_core.errors import HieraError
from hiera_core.events import Emit, Event, JsonLinesEmitter
from hiera_core.index_entry import ProfileEntry
from hiera_core.loop.run_result import OptimizeResult
from hiera_core.loop.session import Session
from hiera_core.loop.verify_file import FileVerification

stderr = Console(stderr=True)
stdout = Console(soft_wrap=True)


class EventLines:
    """The --events output. It remembers whether an error event went out: a failure before a run
    exists (no such file, a syntax error, no such class) has sent none, so `fail` sends it."""

    def __init__(self) -> None:
        self.error_sent = False

    def __call__(self, event: Event) -> None:
        self.error_sent = self.error_sent or event.event == "error"
        JsonLinesEmitter(sys.stdout)(event)


_event_lines = EventLines()  # the running command's --events output


@contextmanager
def progress_emitter(enabled: bool, events: bool) -> Iterator[Emit]:
    """JSON lines with --events; a rich progress bar on a terminal; nothing otherwise."""
    if events:
        _event_lines.error_sent = False
        yield _event_lines
        return
    if not enabled or not stderr.is_terminal:
        def plain(event: Event) -> None:
            if enabled and event.event in ("stage", "candidate", "start"):
                stderr.print(f"[dim]{event.stage}:[/] {escape(event.message)}", highlight=False)
        yield plain
        return
    with Progress(TextColumn("[bold]{task.fields[stage]:>9}"), BarColumn(),
                  TextColumn("{task.description}", markup=False),
                  TimeElapsedColumn(), console=stderr, transient=True) as bar:
        task = bar.add_task("starting", total=1.0, stage="hiera")

        def update(event: Event) -> None:
            if event.event == "candidate":
                bar.console.print(f"  {event.message}", highlight=False, markup=False)
            if event.progress is not None:
                bar.update(task, completed=event.progress, description=event.message[:100],
                           stage=event.stage or "")
        yield update


def fail(error: HieraError, as_json: bool, events: bool) -> None:
    if as_json:
        click.echo(json.dumps({"status": "error", "error": error.to_dict()}, indent=2))
    elif events:
        if not _event_lines.error_sent:  # the editor reads file, line and hint from this event
            _event_lines(Event("error", stage="load", message=str(error), data=error.to_dict()))
    else:
        stderr.print(f"[bold red]error:[/] {escape(str(error))}", highlight=False, soft_wrap=True)
        if error.details.get("log"):
            stderr.print(error.details["log"], highlight=False, markup=False)
    sys.exit(2)


def with_mode_lines(progress: Emit, text: bool) -> Emit:
    """`progress`, and on stderr when the output is text, one line each: the mode and config warnings
    (a start or log event carrying "mode"), a model's failure (a log event carrying "llm_error")."""
    def emit(event: Event) -> None:
        if text:
            lines = ([event.data["mode"], *event.data.get("warnings", [])]
                     if event.event in ("start", "log") and "mode" in event.data else
                     [event.message] if event.event == "log" and "llm_error" in event.data else [])
            for line in lines:
                stderr.print(line, highlight=False, markup=False, soft_wrap=True)
        progress(event)
    return emit


def say_spec_cache(session: Session, text: bool) -> None:
    """On stderr when the output is text, on a terminal: the spec came from the cache (the output
    itself is the spec or plan; the progress bar that said so is gone; off a terminal its line stays)."""
    if text and stderr.is_terminal and (session.state.spec_cache or {}).get("used"):
        stderr.print(session.state.spec_cache["note"], highlight=False, markup=False, soft_wrap=True)


def print_optimize(result: OptimizeResult) -> None:
    from rich.table import Table
    from rich.text import Text

    # Cells are Text, not markup: reasons quote the candidate's messages, brackets and all.
    table = Table(title=Text(f"{result.address} on {result.device} ({result.device_name})"), title_justify="left")
    for column in ("candidate", "space", "status", "ms", "speedup", "note"):
        table.add_column(column)
    for outcome in result.candidates:
        table.add_row(*map(Text, (outcome.name, outcome.space, outcome.status,
                                  f"{outcome.ms:.4g}" if outcome.ms else "-",
                                  f"{outcome.speedup:.2f}x" if outcome.speedup else "-",
                                  (outcome.verification if outcome.status == "verified" else outcome.reason)[:90])))
    stdout.print(table)
    if (result.spec_cache or {}).get("used"):
        stdout.print(result.spec_cache["note"], highlight=False, markup=False)
    if result.outcome_cache.note:
        stdout.print(result.outcome_cache.note, highlight=False, markup=False)
    if result.llm:
        llm = result.llm
        rate = "-" if llm["valid_rate"] is None else f"{llm['valid_rate']:.0%}"
        stdout.print(f"model {llm['model']}: {llm['samples']} samples, {llm['verified']} verified (valid rate {rate}, "
                     f"first valid at sample {llm['samples_to_first_valid'] or '-'}), {llm['tokens']['total']} tokens, "
                     f"{llm['cache_hits']} answers from the cache, "
                     + (f"cost {llm['cost']:.4g}" if llm["cost"] is not None else llm["cost_note"])
                     + f"; stopped: {llm['stop_reason']}", highlight=False, markup=False)
    if result.status == "proposal":
        stdout.print(result.diff, highlight=False, markup=False)
        where = result.target_path if result.written else result.proposal_path
        stdout.print(f"[bold green]{escape(result.message)}[/]", highlight=False)
        stdout.print(f"proposal written to {where}" + ("" if result.written else
                                                        " (use --write to place it next to the source)"),
                     highlight=False, markup=False)
        if result.previous_saved_to:
            stdout.print(f"the previous {result.target_path} was kept at {result.previous_saved_to}", markup=False)
    else:
        stdout.print(f"[bold yellow]{escape(result.message)}[/]", highlight=False)


def print_profile(address: str, timing: dict, record: ProfileEntry) -> None:
    """`hiera profile`'s text: the latency, GPU and host time, the roofline and the kernels' shares."""
    stdout.print(f"{address} on {record.device_name}: median {timing['median_ms']:.4g} ms "
                 f"(IQR {timing['iqr_ms']:.3g} ms, {timing['iterations']} calls; {timing['method']})",
                 highlight=False, markup=False)
    if timing["device"] == "cuda":
        stdout.print(f"GPU time {timing['gpu_median_ms']:.4g} ms, host time {timing['host_median_ms']:.4g} ms per "
                     f"call: {timing['bound']}-bound", highlight=False)
    stdout.print(f"roofline bound {record.roofline_bound_ms * 1000:.3g} us on {record.roofline_device}"
                 f" -> {record.roofline_pct:.3g}% of roofline; {record.workload_class}", highlight=False)
    for kernel in timing.get("kernels", []):
        stdout.print(f"  {kernel['share'] * 100:5.1f}%  {kernel['ms']:.4g} ms  {kernel['name']}",
                     highlight=False, markup=False)


def print_verification(reference: str, candidate: str, verified: FileVerification) -> None:
    """`hiera verify`'s text: each check (with the command that reproduces a failure), the timing
    when it passed, and the seed that draws the same inputs."""
    result, passed, scripts = verified.result, verified.passed, verified.reproduce
    stdout.print(f"space {verified.space.space}: {verified.space.reason}", highlight=False, markup=False)
    for index, check in enumerate(result.verification.checks):
        mark = "[green]ok[/]" if check.passed else "[red]FAILED[/]"
        detail = f": {check.message}" if check.message else ""
        stdout.print(f"{mark} {escape(check.name + detail)}", highlight=False)
        if index in scripts:
            stdout.print(f"   failing inputs: {check.reproducer}", highlight=False, markup=False)
            stdout.print(f"   reproduce with: {scripts[index]}", highlight=False, markup=False)
        elif check.reproducer:
            stdout.print(f"   reproduce with: {check.reproducer}", highlight=False, markup=False)
    if passed and result.candidate is not None:
        low, high = result.speedup_interval
        stdout.print(f"timing: {result.candidate.median_ms:.4g} ms vs reference "
                     f"{result.baseline.median_ms:.4g} ms: {result.speedup:.2f}x (95% interval "
                     f"{low:.2f}-{high:.2f}x), {result.timing_verdict}"
                     + (f"; unreliable timing of the {' and the '.join(result.unreliable)}"
                        if result.unreliable else ""), highlight=False, markup=False)
    if result.seed is not None:
        stdout.print(f"run seed {result.seed}: `hiera verify {reference} {candidate} --seed {result.seed}` "
                     f"draws the same inputs", highlight=False, markup=False)
    stdout.print("[bold green]verified[/]" if passed else "[bold red]rejected[/]")

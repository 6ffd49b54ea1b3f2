"""`hiera`: spec, plan, optimize, profile and verify PyTorch modules from the command line.

Exit codes: 0 success; 1 the command ran but found no improvement / verification failed;
2 usage or task errors (bad file, missing inputs, a forward that raises, a hang, out of memory).
Progress goes to stderr (a rich progress bar on a terminal), results to stdout; `--json` prints
one JSON object, `--events` JSON lines (what the language server reads).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from hiera_core import __version__
from hiera_core.cuda.cli import kernels
from hiera_core.cuda.nvrtc import custom_cuda_unavailable
from hiera_core.errors import HieraError
from hiera_core.events import Emit, Event, JsonLinesEmitter
from hiera_core.worker.isolate import PARENT_PID_VARIABLE, Terminated, die_with_parent, raise_terminated, stop_running_workers
from hiera_core.llm.config import Overrides as LLMOverrides
from hiera_core.llm.config import RunSettings, run_settings
from hiera_core.loop.optimize import (Session, Settings, default_device, optimize, prepare_reference, profile_record,
                                  record_interrupted)
from hiera_core.store import iso_time

stderr = Console(stderr=True)
stdout = Console(soft_wrap=True)

ADDRESS_HELP = "FILE.py or FILE.py::Class"


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


def device_option(function):
    return click.option("--device", type=click.Choice(["cuda", "cpu"]), default=None,
                        help="where to run the reference and candidates (default: cuda when a GPU is present)")(function)


def gpu_option(function):
    return click.option("--gpu", default=None, metavar="NAME",
                        help="roofline target from the peaks table (h200, h100, a100, l40s, rtx4090, b200, cpu); "
                             "default: the device it runs on")(function)


def common_output(function):
    function = click.option("--json", "as_json", is_flag=True, help="print one JSON object")(function)
    return click.option("--events", is_flag=True, help="JSON-lines progress events on stdout")(function)


def model_options(function):
    """--model, --base-url, --plan-model (optimize and plan; hiera_core.llm.config merges the other layers)."""
    for option in reversed((
            click.option("--model", default=None, metavar="NAME",
                         help="LLM at an OpenAI-compatible endpoint (else HIERA_MODEL, [tool.hiera] model, editor "
                              "settings; none: offline expert mode)"),
            click.option("--base-url", default=None, metavar="URL",
                         help="the endpoint, e.g. http://127.0.0.1:8000/v1 (else OPENAI_BASE_URL, ...; default: "
                              "OpenAI's); the API key is read from OPENAI_API_KEY only"),
            click.option("--plan-model", default=None, metavar="NAME",
                         help="a separate model for space selection (default: the model)"))):
        function = option(function)
    return function


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


# How an interruption is named, and the exit code it gives (128 + the signal, as a shell reports it).
STOPPED_BY = {signal.SIGINT: "Ctrl-C (SIGINT)", signal.SIGTERM: "SIGTERM", signal.SIGHUP: "SIGHUP"}


class HieraGroup(click.Group):
    """The `hiera` group: SIGTERM and SIGHUP stop a command as Ctrl-C does; either way the workers
    are killed, the open runs are recorded as interrupted and one line says so (exit 130, 143, 129,
    not click's "Aborted!" and 1). Started by the language server, the CLI also dies with it."""

    def invoke(self, ctx: click.Context):
        if os.environ.get(PARENT_PID_VARIABLE):
            die_with_parent()
        handlers = ({number: signal.signal(number, raise_terminated) for number in (signal.SIGTERM, signal.SIGHUP)}
                    if threading.current_thread() is threading.main_thread() else {})
        if handlers:
            handlers[signal.SIGINT] = signal.getsignal(signal.SIGINT)
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, Terminated) as stop:
            number = stop.signal_number if isinstance(stop, Terminated) else signal.SIGINT
            for ignored in handlers:  # a second Ctrl-C must not cut the record short
                signal.signal(ignored, signal.SIG_IGN)
            stop_running_workers()
            how = STOPPED_BY[number]
            runs = [session.run.path for session in record_interrupted(how)]
            where = f"; run recorded as interrupted in {', '.join(map(str, runs))}" if runs else ""
            try:
                stderr.print(f"hiera: interrupted by {how}{where}", highlight=False, markup=False, soft_wrap=True)
            except OSError:  # stderr closed by a parent that is gone
                pass
            sys.exit(128 + number)
        finally:  # as they were (the group may be invoked in-process, e.g. by click's CliRunner)
            for number, handler in handlers.items():
                signal.signal(number, handler)


@click.group(cls=HieraGroup)
@click.version_option(__version__, prog_name="hiera")
def main() -> None:
    """HIERA: workload-aware optimization of PyTorch modules across PyTorch operators, CUDA
    libraries and custom CUDA kernels. No model configured: offline expert mode."""


def run_options(address: str, as_json: bool, events: bool, **flags) -> RunSettings:
    """The flags given (budget, device, timeout_s; None: not given) over the [tool.hiera] values of
    the address's workspace; a bad value there ends the command (exit 2)."""
    from hiera_core.store import find_workspace_root
    from hiera_core.task.load import split_address

    try:
        return run_settings(find_workspace_root(split_address(address)[0]), **flags)
    except HieraError as error:
        fail(error, as_json, events)


def run_step(address: str, kind: str, settings: Settings, emit: Emit, as_json: bool, events: bool, stage: str,
             op: str, doing: str, before: Callable[[Session], None] | None = None, **request) -> tuple[Session, dict]:
    """Open a run of `kind` for ADDRESS, call `before(session)` (e.g. to resolve the model settings),
    and run one worker op in it; an error ends the command (exit 2)."""
    session = None
    try:
        session = Session(address, kind, settings, emit)
        if before is not None:
            before(session)
        session.stage(stage, f"{doing}: {session.address}", 0.1)
        return session, session.worker(op, doing, kind, **request)
    except HieraError as error:
        if session is not None:
            session.fail(error)
        fail(error, as_json, events)


def prepare_step(address: str, kind: str, settings: Settings, emit: Emit, as_json: bool, events: bool,
                 before: Callable[[Session], None] | None = None) -> tuple[Session, dict]:
    """Open a run of `kind` for ADDRESS, call `before(session)`, and prepare the reference as
    `hiera optimize` does (its spec, plan and candidates, from the store's spec cache when an entry
    matches, else measured and cached); an error ends the command (exit 2)."""
    session = None
    try:
        session = Session(address, kind, settings, emit)
        if before is not None:
            before(session)
        return session, prepare_reference(session)
    except HieraError as error:
        if session is not None:
            session.fail(error)
        fail(error, as_json, events)


def say_spec_cache(session: Session, text: bool) -> None:
    """On stderr when the output is text, on a terminal: the spec came from the cache (the output
    itself is the spec or plan; the progress bar that said so is gone; off a terminal its line stays)."""
    if text and stderr.is_terminal and (session.state.spec_cache or {}).get("used"):
        stderr.print(session.state.spec_cache["note"], highlight=False, markup=False, soft_wrap=True)


def spec_options(function):
    for option in reversed((
            click.argument("address", metavar=ADDRESS_HELP), device_option, gpu_option,
            click.option("--meta", is_flag=True, help="trace on the meta device only (no real run)"),
            click.option("--timeout", type=float, default=None,
                         help="seconds per worker step (default: [tool.hiera] timeout, else 600)"),
            click.option("--no-cache", is_flag=True,
                         help="measure the reference afresh instead of using its spec cached in .hiera/cache "
                              "(shared with hiera optimize); the new one is cached"),
            common_output)):
        function = option(function)
    return function


@main.command()
@spec_options
def spec(address, device, gpu, meta, timeout, no_cache, as_json, events) -> None:
    """Build the contract-augmented spec of a module."""
    from hiera_core.spec.model import Spec, render_text

    options = run_options(address, as_json, events, device=device, timeout_s=timeout)
    # The budget is optimize's default here, so the entry this caches is the one `hiera optimize` reads.
    settings = Settings(device=options.device or default_device(), budget=options.budget, gpu=gpu, meta=meta,
                        timeout_s=options.timeout_s, cache=not no_cache)
    with progress_emitter(not as_json, events) as emit:
        session, result = prepare_step(address, "spec", settings, emit, as_json, events)
    say_spec_cache(session, text=not as_json and not events)
    _record_spec(session, result["spec"])
    spec_obj = Spec.from_dict(result["spec"])
    if events:
        emit(Event("result", stage="spec", message="spec built", progress=1.0, data=result["spec"]))
    elif as_json:
        click.echo(spec_obj.to_json())
    else:
        stdout.print(render_text(spec_obj), highlight=False, markup=False)


def _record_spec(session: Session, spec: dict) -> None:
    path = session.run.write_json("spec.json", spec)
    session.state.status = "done"
    session.save()
    session.store.update_index(session.key, file=session.path, **{"class": session.class_name},
                               spec={"run": session.run.id, "path": str(path)})


@main.command()
@spec_options
@model_options
def plan(address, device, gpu, meta, timeout, no_cache, as_json, events, model, base_url, plan_model) -> None:
    """Rank the implementation spaces and strategies for a module (offline expert planner); with a
    model configured, the model also chooses the space, shown beside the offline ranking."""
    from hiera_core.llm.record import LLMRecord
    from hiera_core.loop.optimize import configure_llm
    from hiera_core.plan.planner import ExpertPlanner, render_plan
    from hiera_core.loop.refine import plan_only
    from hiera_core.spec.model import Spec

    options = run_options(address, as_json, events, device=device, timeout_s=timeout)
    settings = Settings(device=options.device or default_device(), budget=options.budget, gpu=gpu, meta=meta,
                        timeout_s=options.timeout_s, cache=not no_cache,
                        llm=LLMOverrides(model=model, base_url=base_url, plan_model=plan_model))

    def say_mode(session: Session) -> None:
        mode = configure_llm(session).mode_line(budget=False)
        session.emit(Event("log", stage="load", message=mode, data={"mode": mode,
                                                                     "warnings": session.llm_config.warnings}))

    with progress_emitter(not as_json, events) as progress:
        emit = with_mode_lines(progress, text=not as_json and not events)
        session, result = prepare_step(address, "plan", settings, emit, as_json, events, before=say_mode)
        say_spec_cache(session, text=not as_json and not events)
        spec = Spec.from_dict(result["spec"])
        config = session.llm_config
        if config.enabled:
            session.stage("plan", f"asking {config.planning_model} to choose the implementation space", 0.5)
            record = session.llm_record = LLMRecord(session.run, config.public())
            chosen, error = plan_only(config, record, spec)
            if error is not None:
                session.emit(Event("log", stage="plan", message=f"{error.message}; showing the offline ranking",
                                   data={"llm_error": error.to_dict()}))
        else:
            chosen = ExpertPlanner().plan(spec)
    _record_spec(session, result["spec"])
    session.run.write_json("plan.json", chosen.to_dict())
    # Without a model the output is the offline plan exactly; with one, also the mode and the exchange's record.
    output = chosen.to_dict() if not config.enabled else {**chosen.to_dict(), "mode": config.mode_line(budget=False),
                                                          "llm": session.llm_record.summary()}
    if events:
        emit(Event("result", stage="plan", message=chosen.summary, progress=1.0, data=output))
    elif as_json:
        click.echo(json.dumps(output, indent=2))
    else:
        stdout.print(render_plan(chosen), highlight=False, markup=False)


@main.command(name="optimize")
@click.argument("address", metavar=ADDRESS_HELP, required=False)
@click.option("--budget", type=click.IntRange(1, 64), default=None,
              help="how many offline expert candidates to implement, verify and profile (default: [tool.hiera] "
                   "budget, else 4; a model's: --samples)")
@device_option
@gpu_option
@click.option("--timeout", type=float, default=None,
              help="seconds allowed per step (the reference's spec, each candidate; default: [tool.hiera] "
                   "timeout, else 600)")
@click.option("--write", is_flag=True, help="write the proposal next to the source as <stem>_hiera.py")
@click.option("--jobs", type=click.IntRange(1, 16), default=None,
              help="offline candidates compiled and verified side by side, timed one at a time (default: on a "
                   "GPU one per 4 CPU cores, at most 4; on a CPU 1)")
@click.option("--no-cache", is_flag=True,
              help="measure the reference and evaluate every candidate afresh instead of using the spec, outcomes "
                   "and confirmation cached in .hiera/cache (by the module's and candidates' content and the "
                   "versions of torch, HIERA and the device); the new ones are cached")
@model_options
@click.option("--samples", type=click.IntRange(1, 1000), default=None,
              help="LLM budget: candidates to ask the model for (default 8)")
@click.option("--token-budget", type=click.IntRange(1000), default=None,
              help="LLM budget: prompt + completion tokens (default 400000)")
@click.option("--time-budget", type=click.FloatRange(1, min_open=False), default=None, metavar="SECONDS",
              help="LLM budget: wall time of planning and refinement (default 1800)")
@click.option("--temperature", default=None, metavar="T[,T...]",
              help="sampling temperature sent to the model (0-2); several, comma-separated: one per chain in turn "
                   "(default: [tool.hiera] temperature, else the server's)")
@click.option("--resume", default=None, metavar="RUN",
              help="continue an interrupted run (its folder, or its id under .hiera/runs): its evaluated "
                   "candidates are reused and its model answers replay from the answer cache; ADDRESS and flags "
                   "not given again are the run's")
@click.option("--no-answer-cache", is_flag=True,
              help="ask the model even for prompts it answered in an earlier run (.hiera/cache/llm)")
@common_output
def optimize_command(address, budget, device, gpu, timeout, write, jobs, no_cache, model, base_url, plan_model,
                     samples, token_budget, time_budget, temperature, resume, no_answer_cache, as_json,
                     events) -> None:
    """Plan, implement, verify and profile candidates; propose the best verified one."""
    llm_flags = dict(model=model, base_url=base_url, plan_model=plan_model, samples=samples,
                     token_budget=token_budget, time_budget_s=time_budget, temperature=temperature)
    flags = dict(budget=budget, device=device, timeout_s=timeout)
    if resume:
        from hiera_core.llm.resume import find_run, load_resumed, resumed_arguments

        try:
            folder = find_run(resume)
            address, flags, llm_flags = resumed_arguments(load_resumed(folder), address, flags, llm_flags)
            resume = str(folder)
        except HieraError as error:
            fail(error, as_json, events)
    if not address:
        raise click.UsageError("give ADDRESS (FILE.py or FILE.py::Class), or --resume RUN")
    options = run_options(address, as_json, events, **flags)
    settings = Settings(device=options.device or default_device(), budget=options.budget, gpu=gpu,
                        timeout_s=options.timeout_s, write=write, jobs=jobs, cache=not no_cache, resume=resume,
                        llm=LLMOverrides(**llm_flags, cache=False if no_answer_cache else None))
    if settings.device == "cuda" and not as_json and not events and (missing := custom_cuda_unavailable()):
        stderr.print(missing, highlight=False, markup=False, soft_wrap=True)
    with progress_emitter(not as_json, events) as progress:
        emit = with_mode_lines(progress, text=not as_json and not events)
        try:
            result = optimize(address, settings, emit)
        except HieraError as error:
            fail(error, as_json, events)
    if as_json:
        click.echo(json.dumps(result, indent=2, default=str))
    elif not events:
        _print_optimize(result)
    sys.exit(0 if result["status"] == "proposal" else 1)


def _print_optimize(result: dict) -> None:
    from rich.table import Table
    from rich.text import Text

    # Cells are Text, not markup: reasons quote the candidate's messages, brackets and all.
    table = Table(title=Text(f"{result['address']} on {result['device']} ({result['device_name']})"),
                  title_justify="left")
    for column in ("candidate", "space", "status", "ms", "speedup", "note"):
        table.add_column(column)
    for outcome in result["candidates"]:
        table.add_row(*map(Text, (outcome["name"], outcome["space"], outcome["status"],
                                  f"{outcome['ms']:.4g}" if outcome["ms"] else "-",
                                  f"{outcome['speedup']:.2f}x" if outcome["speedup"] else "-",
                                  (outcome["verification"] if outcome["status"] == "verified"
                                   else outcome["reason"])[:90])))
    stdout.print(table)
    if (result.get("spec_cache") or {}).get("used"):
        stdout.print(result["spec_cache"]["note"], highlight=False, markup=False)
    if (result.get("outcome_cache") or {}).get("note"):
        stdout.print(result["outcome_cache"]["note"], highlight=False, markup=False)
    if result["llm"]:
        llm = result["llm"]
        rate = "-" if llm["valid_rate"] is None else f"{llm['valid_rate']:.0%}"
        stdout.print(f"model {llm['model']}: {llm['samples']} samples, {llm['verified']} verified (valid rate {rate}, "
                     f"first valid at sample {llm['samples_to_first_valid'] or '-'}), {llm['tokens']['total']} tokens, "
                     f"{llm['cache_hits']} answers from the cache, "
                     + (f"cost {llm['cost']:.4g}" if llm["cost"] is not None else llm["cost_note"])
                     + f"; stopped: {llm['stop_reason']}", highlight=False, markup=False)
    if result["status"] == "proposal":
        stdout.print(result["diff"], highlight=False, markup=False)
        where = result["target_path"] if result["written"] else result["proposal_path"]
        stdout.print(f"[bold green]{escape(result['message'])}[/]", highlight=False)
        stdout.print(f"proposal written to {where}" + ("" if result["written"] else
                                                        " (use --write to place it next to the source)"),
                     highlight=False, markup=False)
        if result.get("previous_saved_to"):
            stdout.print(f"the previous {result['target_path']} was kept at {result['previous_saved_to']}",
                         markup=False)
    else:
        stdout.print(f"[bold yellow]{escape(result['message'])}[/]", highlight=False)


@main.command()
@click.argument("address", metavar=ADDRESS_HELP)
@device_option
@gpu_option
@click.option("--timeout", type=float, default=None,
              help="seconds for the profiling step (default: [tool.hiera] timeout, else 600)")
@common_output
def profile(address, device, gpu, timeout, as_json, events) -> None:
    """Time a module (GPU: CUDA events, L2 flush; CPU: wall clock) and break it down by kernel."""
    from hiera_core.spec.model import Spec

    options = run_options(address, as_json, events, device=device, timeout_s=timeout)
    settings = Settings(device=options.device or default_device(), gpu=gpu, timeout_s=options.timeout_s)
    with progress_emitter(not as_json, events) as emit:
        session, result = run_step(address, "profile", settings, emit, as_json, events, "profile", "profile",
                                   f"profiling on {settings.device}", gpu=gpu)
    spec_obj = Spec.from_dict(result["spec"])
    record = profile_record(spec_obj, result["timing"])
    session.run.write_json("profile.json", {"timing": result["timing"], "profile": record})
    session.state.status = "done"
    session.save()
    session.store.update_index(session.key, file=session.path, **{"class": session.class_name}, profile=record)
    if events:
        emit(Event("result", stage="profile", message=f"{record['latency_ms']:.4g} ms", progress=1.0, data=record))
    elif as_json:
        click.echo(json.dumps({"profile": record, "timing": result["timing"]}, indent=2))
    else:
        timing = result["timing"]
        stdout.print(f"{session.address} on {record['device_name']}: median {timing['median_ms']:.4g} ms "
                     f"(IQR {timing['iqr_ms']:.3g} ms, {timing['iterations']} calls; {timing['method']})",
                     highlight=False, markup=False)
        if timing["device"] == "cuda":
            stdout.print(f"GPU time {timing['gpu_median_ms']:.4g} ms, host time {timing['host_median_ms']:.4g} ms per "
                         f"call: {timing['bound']}-bound", highlight=False)
        stdout.print(f"roofline bound {record['roofline_bound_ms'] * 1000:.3g} us on {record['roofline_device']}"
                     f" -> {record['roofline_pct']:.3g}% of roofline; {spec_obj.workload_class}", highlight=False)
        for kernel in timing.get("kernels", []):
            stdout.print(f"  {kernel['share'] * 100:5.1f}%  {kernel['ms']:.4g} ms  {kernel['name']}",
                         highlight=False, markup=False)


@main.command()
@click.argument("reference", metavar="REFERENCE.py[::Class]")
@click.argument("candidate", type=click.Path(dir_okay=False))
@device_option
@click.option("--space", type=click.Choice(["pytorch", "cuda_libs", "custom_cuda"]), default=None,
              help="the candidate's space, for its static checks (default: inferred from the candidate's code: "
                   "CUDA sources or extensions custom_cuda, library settings only cuda_libs, else pytorch)")
@click.option("--timeout", type=float, default=None,
              help="seconds per worker step (default: [tool.hiera] timeout, else 600)")
@click.option("--sanitize", is_flag=True,
              help="also run the verification under compute-sanitizer memcheck and racecheck (GPU)")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="the run seed to draw the input sets from (every failure prints the one it used); default: "
                   "drawn afresh")
@common_output
def verify(reference, candidate, device, space, timeout, sanitize, seed, as_json, events) -> None:
    """Verify a candidate file defining ModelNew against a reference; exit 0 pass, 1 fail, 2 error."""
    from hiera_core.propose import proposal_file as proposals
    from hiera_core.spaces.detect import InferredSpace, infer_space
    from hiera_core.verify.verdicts import SANITIZER_TOOLS, Check, Verification, find_compute_sanitizer
    from hiera_core.verify.verdicts import sanitize as run_sanitizer

    options = run_options(reference, as_json, events, device=device, timeout_s=timeout)
    settings = Settings(device=options.device or default_device(), timeout_s=options.timeout_s)
    with progress_emitter(not as_json, events) as emit:
        try:
            if sanitize and (settings.device != "cuda" or find_compute_sanitizer() is None):
                raise HieraError("--sanitize runs compute-sanitizer on a CUDA GPU: " + (
                    "this run is on the CPU" if settings.device != "cuda" else
                    "compute-sanitizer was not found on PATH or under $CUDA_HOME/bin"), kind="usage",
                    hint="run on a machine with an NVIDIA GPU and the CUDA toolkit, or drop --sanitize")
            try:
                text = open(candidate, encoding="utf-8").read()
            except (OSError, UnicodeDecodeError) as error:
                raise HieraError(f"cannot read the candidate: {error}", file=candidate, kind="usage",
                                 hint="give the path of a UTF-8 .py file that defines ModelNew") from None
            header, body = proposals.split(text)
            source, first_line = proposals.candidate_part(body)
            first_line += header.header_lines if header else 0
            # From the code, never from the header: a header is text anyone can write.
            chosen = InferredSpace(space, "chosen with --space") if space else infer_space(source, first_line)
            space = chosen.space
            session = Session(reference, "verify", settings, emit)
            session.emit(Event("log", stage="verify", message=f"space {space}: {chosen.reason}",
                               data={"space": space, "space_reason": chosen.reason}))
            session.stage("spec", "running the reference", 0.1)
            prepared = session.worker("prepare", "building the spec", "spec", measure=False)
            session.stage("verify", f"verifying {candidate}", 0.4)
            request = dict(spec=prepared["spec"], candidate_path=candidate, candidate_source=source,
                           first_line=first_line, space=space, seed=seed)
            try:
                result = session.worker("evaluate", f"verifying {candidate}", "verify", profile=False, **request)
            except HieraError as error:
                if error.kind not in ("crash", "timeout", "oom"):
                    raise
                # The candidate took its worker down: a failed check, not a usage error.
                failed = Check(error.kind, False, f"{str(error).splitlines()[0]} (worker log: "
                                                  f"{session.run.path / 'logs' / 'verify.log'})")
                result = {"verification": Verification(False, [failed]).to_dict()}
            if sanitize and result["verification"]["passed"]:
                for tool in SANITIZER_TOOLS:
                    session.stage("verify", f"compute-sanitizer --tool {tool}", 0.8)
                    check = run_sanitizer(tool, {"address": session.address, "device": "cuda", **request},
                                          timeout_s=settings.timeout_s,
                                          log_path=session.run.path / "logs" / f"{tool}.log")
                    result["verification"]["checks"].append(vars(check))
                    result["verification"]["passed"] = result["verification"]["passed"] and check.passed
        except HieraError as error:
            if "session" in locals():
                session.fail(error)
            fail(error, as_json, events)
    verification = result["verification"]
    passed = all(check["passed"] for check in verification["checks"])
    scripts = _reproducers(session, candidate, verification)
    session.run.write_json("verification.json", verification)
    session.state.status = "done"
    session.save()
    # The editor shows the last verification's failures on the module (hover and diagnostics).
    session.store.update_index(
        session.key, file=session.path, **{"class": session.class_name},
        last_run={"id": session.run.id, "kind": "verify", "status": "passed" if passed else "failed",
                  "date": iso_time(), "error": None},
        verification_failures=[{"candidate": candidate, "check": check["name"], "message": check["message"],
                                "reproducer": check["reproducer"]}
                               for check in verification["checks"] if not check["passed"]])
    if events:
        emit(Event("result", stage="verify", message="passed" if passed else "failed", progress=1.0, data=verification))
    elif as_json:
        timing = {key: result[key] for key in ("seed", "speedup", "speedup_interval", "significant", "timing_verdict",
                                               "unreliable", "baseline", "candidate") if key in result}
        click.echo(json.dumps({"passed": passed, "space": space, "space_reason": chosen.reason, **verification,
                               **timing}, indent=2))
    else:
        stdout.print(f"space {space}: {chosen.reason}", highlight=False, markup=False)
        for index, check in enumerate(verification["checks"]):
            mark = "[green]ok[/]" if check["passed"] else "[red]FAILED[/]"
            detail = f": {check['message']}" if check["message"] else ""
            stdout.print(f"{mark} {escape(check['name'] + detail)}", highlight=False)
            if index in scripts:
                stdout.print(f"   failing inputs: {check['reproducer']}", highlight=False, markup=False)
                stdout.print(f"   reproduce with: {scripts[index]}", highlight=False, markup=False)
            elif check["reproducer"]:
                stdout.print(f"   reproduce with: {check['reproducer']}", highlight=False, markup=False)
        if passed and "candidate" in result:
            low, high = result["speedup_interval"]
            stdout.print(f"timing: {result['candidate']['median_ms']:.4g} ms vs reference "
                         f"{result['baseline']['median_ms']:.4g} ms: {result['speedup']:.2f}x (95% interval "
                         f"{low:.2f}-{high:.2f}x), {result['timing_verdict']}"
                         + (f"; unreliable timing of the {' and the '.join(result['unreliable'])}"
                            if result.get("unreliable") else ""), highlight=False, markup=False)
        if "seed" in result:
            stdout.print(f"run seed {result['seed']}: `hiera verify {reference} {candidate} --seed {result['seed']}` "
                         f"draws the same inputs", highlight=False, markup=False)
        stdout.print("[bold green]verified[/]" if passed else "[bold red]rejected[/]")
    sys.exit(0 if passed else 1)


def _reproducers(session, candidate: str, verification: dict) -> dict[int, str]:
    """index of a check -> the command that runs its reproducer script (hiera_core.verify.repro), written into
    the run folder (its path as the check's "script"), for each failed check that one input set shows."""
    from pathlib import Path

    from hiera_core.verify.repro import reproducer, script_path

    commands = {}
    for index, check in enumerate(verification["checks"]):
        text = None if check["passed"] else reproducer(session.address, Path(candidate), session.settings.device,
                                                       check)
        if text:
            script = session.run.write_text(f"candidates/{script_path(Path(candidate)).name}", text)
            check["script"] = str(script)
            commands[index] = f"{session.settings.python or sys.executable} {script}"
    return commands


def _bench_gpus(text: str) -> tuple[str, ...]:
    """`hiera bench --gpus`: 'all' (every GPU there is) or indices such as 0,1."""
    if text.strip() == "all":
        from hiera_core.bench.environment import gpu_indices

        return tuple(gpu_indices())
    named = tuple(name.strip() for name in text.split(",") if name.strip())
    if not named or len(set(named)) != len(named):
        raise click.BadParameter(f"expected GPU indices such as 0,1 (each once) or 'all', got {text!r}",
                                 param_hint="--gpus")
    return named


@main.command()
@click.argument("suite", nargs=-1, required=True, metavar="SUITE...")
@click.option("--levels", default="1,2,3", show_default=True,
              help="levels to take from suite folders (task files named one by one always run)")
@click.option("--limit", type=click.IntRange(1), default=None, help="at most N tasks per level, in order")
@click.option("--model", default=None, metavar="NAME",
              help="LLM at an OpenAI-compatible endpoint, as for optimize (none configured: offline expert mode)")
@click.option("--base-url", default=None, metavar="URL", help="the model's endpoint, as for optimize")
@click.option("--samples", type=click.IntRange(1, 1000), default=None, help="LLM samples per task, as for optimize")
@click.option("--budget", type=click.IntRange(1, 64), default=4, show_default=True,
              help="offline expert candidates per task, as for optimize")
@device_option
@click.option("--timeout", type=float, default=600.0, show_default=True, help="seconds per worker step")
@click.option("--out", type=click.Path(file_okay=False), default="hiera-bench", show_default=True,
              help="output folder: results.json, results.csv, report.html, proposals/, logs/")
@click.option("--resume", is_flag=True, help="skip the tasks already recorded in --out")
@click.option("--rerun", multiple=True, metavar="TASK_ID",
              help="run this task again (its id in results.json, e.g. level1/9_GroupNorm.py; repeatable) and "
                   "replace its record when the new one is saved; the others are kept, as with --resume")
@click.option("--stop-after", type=click.FloatRange(0), default=None, metavar="SECONDS",
              help="start no new task after this many seconds (then go on with --resume)")
@click.option("--gpus", default=None, metavar="LIST|all",
              help="run tasks side by side, one per GPU (e.g. 0,1 or all); each task's workers see only "
                   "their GPU and an equal share of the physical CPU cores")
@click.option("--compile-modes", default=None, metavar="LIST",
              help="torch.compile modes to time the reference in, comma-separated (default on a GPU: "
                   "default,max-autotune-no-cudagraphs,reduce-overhead; on a CPU: default); speedups are "
                   "reported over the default mode and over the best mode timed")
@click.option("--ray", "ray_address", default=None, is_flag=False, flag_value="auto", metavar="[ADDRESS|auto]",
              help="run each task as a Ray task on the cluster at ADDRESS (HOST:PORT; alone or 'auto': the "
                   "cluster this host belongs to), one GPU each (or --ray-cpus cores with --device cpu); "
                   "needs pip install 'hiera[ray]'")
@click.option("--ray-cpus", type=click.IntRange(1), default=1, show_default=True,
              help="CPU cores each Ray task asks for (with --ray)")
def bench(suite, levels, limit, model, base_url, samples, budget, device, timeout, out, resume, rerun, stop_after,
          gpus, compile_modes, ray_address, ray_cpus) -> None:
    """Run HIERA over a suite in KernelBench layout (SUITE: folders with levelN/ or task files) and
    report validity, fast_p and speedups over eager, torch.compile's default mode and its best mode
    timed. Exit 0 when the run ends
    (failed tasks are recorded as results), 2 on usage errors."""
    from pathlib import Path

    from hiera_core.bench import console as bench_console
    from hiera_core.bench.runner import BenchSettings
    from hiera_core.bench.suite import parse_levels
    from hiera_core.bench.worker_ops import COMPILE_MODES

    try:
        chosen = parse_levels(levels)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--levels") from None
    if ray_address is not None and gpus:
        raise click.BadParameter("Ray places each task on a GPU of the cluster, so it does not go with --gpus",
                                 param_hint="--ray")
    if ray_address is not None and os.path.exists(ray_address):
        raise click.BadParameter(f"took {ray_address!r} as the cluster's address: write --ray auto (or --ray "
                                 "HOST:PORT) before the suite, or --ray after it", param_hint="--ray")
    # A Ray cluster's GPUs are on its nodes, not necessarily here: the device is cuda unless told.
    device = device or ("cuda" if gpus or ray_address is not None else default_device())
    if gpus and device != "cuda":
        raise click.BadParameter("it runs tasks on GPUs, so it does not go with --device cpu", param_hint="--gpus")
    modes = COMPILE_MODES[device] if compile_modes is None else tuple(
        dict.fromkeys(mode.strip() for mode in compile_modes.split(",") if mode.strip()))
    known = COMPILE_MODES["cuda"]
    if unknown := [mode for mode in modes if mode not in known]:
        raise click.BadParameter(f"{', '.join(unknown)}: not a torch.compile mode the bench times (known: "
                                 f"{', '.join(known)})", param_hint="--compile-modes")
    try:
        chosen_gpus = _bench_gpus(gpus) if gpus else ()
        settings = BenchSettings(device=device, budget=budget, timeout_s=timeout, model=model, base_url=base_url,
                                 samples=samples, gpus=chosen_gpus, compile_modes=modes, ray_address=ray_address,
                                 ray_cpus=ray_cpus)
        bench_console.run(list(suite), chosen, limit, settings, Path(out), resume, stop_after,
                          ["hiera", *sys.argv[1:]], stderr, stdout, rerun)
    except HieraError as error:
        fail(error, False, False)


main.add_command(kernels)

if __name__ == "__main__":
    main()

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

import click

from hiera_core import __version__
from hiera_core import settings as defaults
from hiera_core.cli.bench import bench
from hiera_core.cli.options import (
    ADDRESS_HELP,
    BUDGET_RANGE,
    common_output,
    device_option,
    gpu_option,
    model_options,
    run_options,
    spec_options,
    timeout_option,
)
from hiera_core.cli.printing import (
    fail,
    print_optimize,
    print_profile,
    print_verification,
    progress_emitter,
    say_spec_cache,
    stderr,
    stdout,
    with_mode_lines,
)
from hiera_core.cuda.cli import kernels
from hiera_core.cuda.nvrtc import custom_cuda_unavailable
from hiera_core.errors import HieraError
from hiera_core.events import Event
from hiera_core.llm.config import LLMConfig
from hiera_core.llm.config import Overrides as LLMOverrides
from hiera_core.loop import steps
from hiera_core.loop.optimize import optimize
from hiera_core.loop.session import Settings, default_device, record_interrupted
from hiera_core.loop.verify_file import verify_file
from hiera_core.worker.isolate import (
    PARENT_PID_VARIABLE,
    Terminated,
    die_with_parent,
    raise_terminated,
    stop_running_workers,
)

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


@main.command()
@spec_options
def spec(address, device, gpu, meta, timeout, no_cache, as_json, events) -> None:
    """Build the contract-augmented spec of a module."""
    from hiera_core.spec.model import render_text

    options = run_options(address, as_json, events, device=device, timeout_s=timeout)
    # The budget is optimize's default here, so the entry this caches is the one `hiera optimize` reads.
    settings = Settings(device=options.device or default_device(), budget=options.budget, gpu=gpu, meta=meta,
                        timeout_s=options.timeout_s, cache=not no_cache)
    with progress_emitter(not as_json, events) as emit:
        try:
            session, built = steps.spec(address, settings, emit)
        except HieraError as error:
            fail(error, as_json, events)
    say_spec_cache(session, text=not as_json and not events)
    if events:
        emit(Event("result", stage="spec", message="spec built", progress=1.0, data=built.to_dict()))
    elif as_json:
        click.echo(built.to_json())
    else:
        stdout.print(render_text(built), highlight=False, markup=False)


@main.command()
@spec_options
@model_options
def plan(address, device, gpu, meta, timeout, no_cache, as_json, events, model, base_url, plan_model) -> None:
    """Rank the implementation spaces and strategies for a module (offline expert planner); with a
    model configured, the model also chooses the space, shown beside the offline ranking."""
    from hiera_core.plan.planner import render_plan

    options = run_options(address, as_json, events, device=device, timeout_s=timeout)
    settings = Settings(device=options.device or default_device(), budget=options.budget, gpu=gpu, meta=meta,
                        timeout_s=options.timeout_s, cache=not no_cache,
                        llm=LLMOverrides(model=model, base_url=base_url, plan_model=plan_model))
    with progress_emitter(not as_json, events) as progress:
        emit = with_mode_lines(progress, text=not as_json and not events)
        try:
            session, chosen, output = steps.plan(address, settings, emit)
        except HieraError as error:
            fail(error, as_json, events)
        say_spec_cache(session, text=not as_json and not events)
    if events:
        emit(Event("result", stage="plan", message=chosen.summary, progress=1.0, data=output))
    elif as_json:
        click.echo(json.dumps(output, indent=2))
    else:
        stdout.print(render_plan(chosen), highlight=False, markup=False)


@main.command(name="optimize")
@click.argument("address", metavar=ADDRESS_HELP, required=False)
@click.option("--budget", type=BUDGET_RANGE, default=None,
              help="how many offline expert candidates to implement, verify and profile (default: [tool.hiera] "
                   f"budget, else {defaults.BUDGET}; a model's: --samples)")
@device_option
@gpu_option
@timeout_option("seconds allowed per step: the reference's spec, each candidate")
@click.option("--write", is_flag=True, help="write the proposal next to the source as <stem>_hiera.py")
@click.option("--jobs", type=click.IntRange(1, 16), default=None,
              help="offline candidates compiled and verified side by side, timed one at a time (default: on a "
                   "GPU one per 4 CPU cores, at most 4; on a CPU 1)")
@click.option("--warm-workers", type=click.IntRange(0, 16), default=None,
              help="workers started ahead of the candidates, while the reference is prepared, so none waits for "
                   "its process and runners to start (default: on a GPU one per side-by-side candidate, at most one "
                   "per 16 GiB of its memory; on a CPU 0); 0: none")
@click.option("--no-cache", is_flag=True,
              help="measure the reference and evaluate every candidate afresh instead of using the spec, outcomes "
                   "and confirmation cached in .hiera/cache (by the module's and candidates' content and the "
                   "versions of torch, HIERA and the device); the new ones are cached")
@model_options
@click.option("--samples", type=click.IntRange(1, 1000), default=None,
              help=f"LLM budget: candidates to ask the model for (default {LLMConfig.samples})")
@click.option("--token-budget", type=click.IntRange(1000), default=None,
              help=f"LLM budget: prompt + completion tokens (default {LLMConfig.token_budget})")
@click.option("--time-budget", type=click.FloatRange(1, min_open=False), default=None, metavar="SECONDS",
              help=f"LLM budget: wall time of planning and refinement (default {LLMConfig.time_budget_s:g})")
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
def optimize_command(address, budget, device, gpu, timeout, write, jobs, warm_workers, no_cache, model, base_url, plan_model,
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
                        timeout_s=options.timeout_s, write=write, jobs=jobs, warm_workers=warm_workers,
                        cache=not no_cache, resume=resume,
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
        click.echo(json.dumps(result.to_dict(), indent=2, default=str))
    elif not events:
        print_optimize(result)
    sys.exit(0 if result.status == "proposal" else 1)


@main.command()
@click.argument("address", metavar=ADDRESS_HELP)
@device_option
@gpu_option
@timeout_option("seconds for the profiling step")
@common_output
def profile(address, device, gpu, timeout, as_json, events) -> None:
    """Time a module (GPU: CUDA events, L2 flush; CPU: wall clock) and break it down by kernel."""
    options = run_options(address, as_json, events, device=device, timeout_s=timeout)
    settings = Settings(device=options.device or default_device(), gpu=gpu, timeout_s=options.timeout_s)
    with progress_emitter(not as_json, events) as emit:
        try:
            session, timing, record = steps.profile(address, settings, emit)
        except HieraError as error:
            fail(error, as_json, events)
    if events:
        emit(Event("result", stage="profile", message=f"{record.latency_ms:.4g} ms", progress=1.0,
                   data=record.to_dict()))
    elif as_json:
        click.echo(json.dumps({"profile": record.to_dict(), "timing": timing}, indent=2))
    else:
        print_profile(session.address, timing, record)


@main.command()
@click.argument("reference", metavar="REFERENCE.py[::Class]")
@click.argument("candidate", type=click.Path(dir_okay=False))
@device_option
@click.option("--space", type=click.Choice(["pytorch", "cuda_libs", "custom_cuda"]), default=None,
              help="the candidate's space, for its static checks (default: inferred from the candidate's code: "
                   "CUDA sources or extensions custom_cuda, library settings only cuda_libs, else pytorch)")
@timeout_option("seconds per worker step")
@click.option("--sanitize", is_flag=True,
              help="also run the verification under compute-sanitizer memcheck and racecheck (GPU)")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="the run seed to draw the input sets from (every failure prints the one it used); default: "
                   "drawn afresh")
@common_output
def verify(reference, candidate, device, space, timeout, sanitize, seed, as_json, events) -> None:
    """Verify a candidate file defining ModelNew against a reference; exit 0 pass, 1 fail, 2 error."""
    options = run_options(reference, as_json, events, device=device, timeout_s=timeout)
    settings = Settings(device=options.device or default_device(), timeout_s=options.timeout_s)
    with progress_emitter(not as_json, events) as emit:
        try:
            verified = verify_file(reference, candidate, settings, emit, space=space, sanitize=sanitize, seed=seed)
        except HieraError as error:
            fail(error, as_json, events)
    result, passed, chosen = verified.result, verified.passed, verified.space
    verification = verified.recorded
    if events:
        emit(Event("result", stage="verify", message="passed" if passed else "failed", progress=1.0,
                   data=verification.to_dict()))
    elif as_json:
        # What the judge got to: the run seed once it drew input sets, the timing once it timed the candidate.
        shown = (("seed",) if result.seed is not None else ()) + (
            ("speedup", "speedup_interval", "significant", "timing_verdict", "unreliable", "baseline", "candidate")
            if result.candidate is not None else ())
        figures = result.to_dict()
        click.echo(json.dumps({"passed": passed, "space": chosen.space, "space_reason": chosen.reason,
                               **verification.to_dict(),
                               **{key: figures[key] for key in shown}}, indent=2))
    else:
        print_verification(reference, candidate, verified)
    sys.exit(0 if passed else 1)


main.add_command(bench)
main.add_command(kernels)

if __name__ == "__main__":
    main()

"""`hiera bench`: HIERA run over a suite in KernelBench layout, with its report."""

from __future__ import annotations

import os
import sys

import click

from hiera_core import settings as defaults
from hiera_core.cli.options import BUDGET_RANGE, device_option
from hiera_core.cli.printing import fail, stderr, stdout
from hiera_core.errors import HieraError
from hiera_core.loop.session import default_device


@click.command()
@click.argument("suite", nargs=-1, required=True, metavar="SUITE...")
@click.option("--levels", default="1,2,3", show_default=True,
              help="levels to take from suite folders (task files named one by one always run)")
@click.option("--limit", type=click.IntRange(1), default=None, help="at most N tasks per level, in order")
@click.option("--model", default=None, metavar="NAME",
              help="LLM at an OpenAI-compatible endpoint, as for optimize (none configured: offline expert mode)")
@click.option("--base-url", default=None, metavar="URL", help="the model's endpoint, as for optimize")
@click.option("--samples", type=click.IntRange(1, 1000), default=None, help="LLM samples per task, as for optimize")
@click.option("--budget", type=BUDGET_RANGE, default=defaults.BUDGET, show_default=True,
              help="offline expert candidates per task, as for optimize")
@device_option
@click.option("--timeout", type=float, default=defaults.TIMEOUT_S, show_default=True, help="seconds per worker step")
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
    from hiera_core.bench.suite import parse_levels
    from hiera_core.bench.task_run import BenchSettings
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

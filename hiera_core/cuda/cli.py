"""`hiera kernels FILE.cu`: compile with NVRTC (no GPU needed) and print each kernel's resources.

The lead wires the `kernels` command object into the `hiera` click group.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from hiera_core.cuda.nvrtc import SourceOrigin, compile_cuda, detect_arch, toolkit_include_dirs, without_host_includes
from hiera_core.cuda.resources import kernel_resources

CUDA_SUFFIXES = (".cu", ".cuh")


@click.command("kernels")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--arch", default=None, help="Target, e.g. sm_90 (default: the local GPU's, else sm_90).")
@click.option("--block", type=click.IntRange(1, 1024), default=None,
              help="Threads per block for occupancy (default: __launch_bounds__, else 256).")
@click.option("--dyn-smem", type=click.IntRange(0), default=0, help="Dynamic shared memory per block, bytes.")
@click.option("-I", "include_dirs", multiple=True, type=click.Path(file_okay=False, path_type=Path),
              help="Add a header search directory (repeatable).")
@click.option("-D", "defines", multiple=True, help="Define a macro, NAME or NAME=VALUE (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def kernels(file: Path, arch: str | None, block: int | None, dyn_smem: int, include_dirs: tuple[Path, ...],
            defines: tuple[str, ...], as_json: bool) -> None:
    """Registers, spills, shared memory and theoretical occupancy of every kernel in FILE."""
    if file.suffix not in CUDA_SUFFIXES:
        raise click.BadParameter(f"{file} is not a CUDA source ({', '.join(CUDA_SUFFIXES)}); for the kernels of a "
                                 f"Python module, run `hiera optimize {file}` or `hiera-lsp --check {file}`",
                                 param_hint="FILE")
    source = file.read_text()
    target = arch or detect_arch()
    folders = [str(path) for path in (file.parent, *include_dirs)] + toolkit_include_dirs()
    options = [f"-I{folder}" for folder in folders] + [f"-D{d}" for d in defines]
    origin = SourceOrigin(str(file))
    compiled = compile_cuda(without_host_includes(source, folders), arch=target, options=options, origin=origin)
    report = kernel_resources(source, arch=target, block=block, dynamic_smem=dyn_smem, compiled=compiled)
    if as_json:
        click.echo(json.dumps({"file": str(file), **report.to_dict()}, indent=2))
    elif report.ok:
        click.echo(f"{file} for {report.arch} (NVRTC, {report.compile_seconds:.2f} s)")
        for kernel in report.kernels:
            click.echo("  " + kernel.summary())
        if not report.kernels:
            click.echo("  no __global__ kernels")
    else:
        click.echo(report.errors, err=True)
    if not report.ok:
        raise SystemExit(1)


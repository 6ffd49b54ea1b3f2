"""workspace/executeCommand: start, list and cancel jobs; apply and re-verify proposals.

Handlers take a ServerContext, imported at run time: pygls resolves every annotation of a command
handler at call time (to structure the arguments).

Job commands return at once with the job's description (its id, state); the outcome arrives as
progress, a message, an edit to confirm and a shown document, because an optimize run can take
many minutes and a pending request would tie up the editor's command.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sys

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import from_fs_path, to_fs_path

import hiera_lsp
from hiera_core.events import Event
from hiera_core.propose.proposal_file import parse_header, proposal_path_for
from hiera_lsp import kernels, outcomes, proposals
from hiera_lsp.context import ServerContext
from hiera_lsp.jobs import QUEUED, RUNNING, Job
from hiera_lsp.records import read_record, workspace_root

OPTIMIZE = "hiera.optimize"
PROFILE = "hiera.profile"
SHOW_SPEC = "hiera.showSpec"
OPTIMIZE_KERNEL = "hiera.optimizeKernel"
APPLY_PROPOSAL = "hiera.applyProposal"
VERIFY_PROPOSAL = "hiera.verifyProposal"
CANCEL_JOB = "hiera.cancelJob"
LIST_JOBS = "hiera.listJobs"
SERVER_INFO = "hiera.serverInfo"


def _source_path(uri: str) -> str:
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if not path or not os.path.isfile(path):
        raise JsonRpcInvalidParams(f"HIERA needs a saved .py file on disk, got {uri!r}")
    return path


async def start_job(ls: ServerContext, kind: str, path: str, class_name: str,
                    extra: list[str] | None = None) -> dict:
    """Queue `hiera KIND FILE[::Class] ... --events` and report it until it ends."""
    await ls.configured.wait()
    address = f"{path}::{class_name}" if class_name else path
    settings = ls.settings
    name = class_name or os.path.basename(path)
    job = Job(kind=kind, path=path, class_name=class_name,
              argv=[settings.pythonPath, "-m", "hiera_core.cli.main", kind, address, *(extra or []),
                    "--events", *settings.cli_options(kind)],
              cwd=workspace_root(path), env=settings.job_environment(),
              time_limit=settings.jobTimeLimit,
              title=f"HIERA {kind} {name} ({os.path.basename(path)})")
    _warn_if_unsaved(ls, path)
    ls.jobs.submit(job)
    status = "starting"
    if job.state == QUEUED:
        blocker = ls.jobs.blocking(job)
        status = (f"queued behind {blocker.id} ({blocker.kind})" if blocker
                  else "queued until a job ends (setting hiera.maxParallelJobs)")
    await ls.progress.begin(job, status, on_cancel=lambda: ls.jobs.cancel(job.id))
    return job.describe()


def _warn_if_unsaved(ls: ServerContext, path: str) -> None:
    document = ls.documents.get(from_fs_path(path))
    if document is not None and document.text != proposals.read_text(path):
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Warning,
            message=f"HIERA works on {os.path.basename(path)} as saved on disk; "
                    "the unsaved changes in the editor are not included"))


async def optimize(ls: ServerContext, uri: str, class_name: str) -> dict:
    return await start_job(ls, "optimize", _source_path(uri), class_name)


async def profile(ls: ServerContext, uri: str, class_name: str) -> dict:
    return await start_job(ls, "profile", _source_path(uri), class_name)


async def show_spec(ls: ServerContext, uri: str, class_name: str) -> dict:
    return await start_job(ls, "spec", _source_path(uri), class_name)


async def optimize_kernel(ls: ServerContext, uri: str, kernel: str) -> dict:
    """Optimize the workspace module that loads the kernel, or say why there is none."""
    cu_path = to_fs_path(uri) if uri.startswith("file:") else None
    if not cu_path:
        raise JsonRpcInvalidParams(f"not a file: {uri!r}")
    root = ls.workspace_root_for(cu_path)
    loop = asyncio.get_running_loop()
    matches = await loop.run_in_executor(ls.analysis_executor, kernels.find_loaders, root, cu_path,
                                         kernel, ls.open_texts())
    if not matches:
        message = (f"HIERA: no module in {root} loads kernel `{kernel}` from "
                   f"{os.path.basename(cu_path)}. Load it from an nn.Module's file with "
                   "torch.utils.cpp_extension.load(sources=[...]) or load_inline(...), or compile it "
                   "with NVRTC there; then optimize that module.")
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
        return {"found": False, "message": message}
    best = matches[0]
    if len(matches) > 1:
        others = ", ".join(f"{os.path.basename(m.path)}::{m.class_name}" for m in matches[1:])
        ls.window_log_message(types.LogMessageParams(
            type=types.MessageType.Info,
            message=f"kernel {kernel}: optimizing {best.path}::{best.class_name} (also loaded by {others})"))
    described = await start_job(ls, "optimize", best.path, best.class_name)
    return {"found": True, "module": f"{best.path}::{best.class_name}", "job": described}


async def apply_proposal(ls: ServerContext, uri: str, class_name: str) -> dict:
    path = _source_path(uri)
    text = proposals.pending_proposal(ls, path, read_record(path, class_name))
    if text is None:
        raise JsonRpcInvalidParams(f"no stored proposal for {class_name} that is not already in "
                                   f"{os.path.basename(proposal_path_for(path))}")
    applied, target = await proposals.apply_proposal(ls, path, text, f"HIERA proposal for {class_name}")
    return {"applied": applied, "target": target}


async def verify_proposal(ls: ServerContext, proposal_uri: str) -> dict:
    proposal_path = _source_path(proposal_uri)
    document = ls.documents.get(proposal_uri)
    text = document.text if document is not None else proposals.read_text(proposal_path) or ""
    header = parse_header(text)
    if header is None:
        raise JsonRpcInvalidParams(f"{os.path.basename(proposal_path)} has no HIERA proposal header")
    reference = os.path.normpath(os.path.join(os.path.dirname(proposal_path), header.reference))
    if not os.path.isfile(reference):
        raise JsonRpcInvalidParams(f"the proposal's reference {reference} does not exist")
    return await start_job(ls, "verify", reference, header.reference_class, extra=[proposal_path])


def cancel_job(ls: ServerContext, job_id: str) -> dict:
    return {"cancelled": ls.jobs.cancel(job_id)}


def list_jobs(ls: ServerContext) -> list[dict]:
    return [job.describe() for job in ls.jobs.jobs.values()]


async def server_info(ls: ServerContext) -> dict:
    """For bug reports and tests: what the server negotiated, and proof it never loaded torch."""
    await ls.configured.wait()
    return {"version": hiera_lsp.__version__, "pid": os.getpid(),
            "positionEncoding": ls.workspace.position_encoding,
            "diagnostics": "pull" if ls.pull_diagnostics else "push",
            "settings": dataclasses.asdict(ls.settings), "torchLoaded": "torch" in sys.modules,
            "activeJobs": len(ls.jobs.active())}


def on_job_update(ls: ServerContext, job: Job, event: Event | None) -> None:
    """The job queue's listener: progress, log lines, and the outcome when the job ends."""
    if event is None:
        if job.state == RUNNING:
            ls.progress.started(job)
        elif job.done is not None and job.done.done():
            asyncio.get_running_loop().create_task(outcomes.finish(ls, job))
        return
    if event.event in ("log", "stderr"):
        ls.window_log_message(types.LogMessageParams(
            type=types.MessageType.Log, message=f"[{job.id}] {event.message}"))
    else:
        ls.progress.report(job, event)


HANDLERS = {OPTIMIZE: optimize, PROFILE: profile, SHOW_SPEC: show_spec, OPTIMIZE_KERNEL: optimize_kernel,
            APPLY_PROPOSAL: apply_proposal, VERIFY_PROPOSAL: verify_proposal, CANCEL_JOB: cancel_job,
            LIST_JOBS: list_jobs, SERVER_INFO: server_info}

"""What the user sees when a job ends: the proposal to confirm, the spec, and one message.

Every job ends its progress bar and shows exactly one message that says what happened: the
speedup and verification summary, why nothing improved, or why it failed. Diagnostics are then
refreshed, since the run changed `.hiera/`.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path

from hiera_core.index_entry import ProfileEntry
from hiera_core.loop.run_result import OptimizeResult, VerifyResult
from hiera_lsp import proposals
from hiera_lsp.context import ServerContext
from hiera_lsp.jobs import CANCELLED, FAILED, NO_IMPROVEMENT, SUCCEEDED, Job
from hiera_lsp.records import read_record

log = logging.getLogger(__name__)
_LEVELS = {SUCCEEDED: types.MessageType.Info, NO_IMPROVEMENT: types.MessageType.Info,
           CANCELLED: types.MessageType.Info, FAILED: types.MessageType.Error}


def _ms(value) -> str:
    return f"{value:.3f} ms" if isinstance(value, (int, float)) else "?"


def optimize_summary(result: OptimizeResult) -> str:
    """'2.31x faster (custom_cuda, fused pointwise), 1.200 ms -> 0.519 ms on cpu; verification passed: ...'"""
    how = ", ".join(part for part in (result.space, result.strategy) if part)
    device = result.device_name or result.device or "?"
    text = f"{result.speedup or 0:.2f}x faster"
    if how:
        text += f" ({how})"
    text += f", {_ms(result.baseline_ms)} -> {_ms(result.best_ms)} on {device}"
    if result.verification:
        text += f"; verification {result.verification}"
    return text


def rejected_summary(result: OptimizeResult, limit: int = 3) -> str:
    rejected = [c for c in result.candidates if c.status != "verified"]
    parts = [f"{c.name}: {c.reason or c.status}" for c in rejected[:limit]]
    if len(rejected) > limit:
        parts.append(f"{len(rejected) - limit} more")
    return "; ".join(parts)


def verification_summary(verification: VerifyResult) -> str:
    """'passed: 9 checks, 5 input sets, max error 2.1e-07' or 'failed check X: why (reproduce: ...)'."""
    checks = verification.checks
    failed = next((check for check in checks if not check.passed), None)
    if failed is None:
        return (f"verification passed: {len(checks)} checks, {verification.input_sets} input sets, "
                f"max error {verification.max_abs_error:.2g}")
    text = f"verification failed check {failed.name}: {failed.message}"
    return text + (f" (reproduce: {failed.reproducer})" if failed.reproducer else "")


async def finish(ls: ServerContext, job: Job) -> None:
    name = job.class_name or os.path.basename(job.path)
    level = _LEVELS[job.state]
    try:
        text = f"HIERA {job.kind} {name}: " + await _outcome(ls, job)
    except Exception as error:  # the client failed a request (applyEdit, showDocument): still say so
        log.exception("delivering the outcome of %s failed", job.id)
        text = f"HIERA {job.kind} {name}: {job.state}, but showing its result failed: {error}"
        level = types.MessageType.Error
    ls.progress.end(job, text)
    ls.window_show_message(types.ShowMessageParams(type=level, message=text))
    ls.diagnostics.refresh_all()


async def _outcome(ls: ServerContext, job: Job) -> str:
    if job.state == SUCCEEDED and job.kind == "optimize":
        return await _deliver_proposal(ls, job)
    if job.state == SUCCEEDED and job.kind == "profile":
        return _profile_summary(job)
    if job.state in (SUCCEEDED, FAILED) and isinstance(job.result, VerifyResult):
        return verification_summary(job.result)
    if job.state == SUCCEEDED and job.kind == "spec":
        return await _show_spec(ls, job)
    if job.state == NO_IMPROVEMENT:
        result = job.result if isinstance(job.result, OptimizeResult) else OptimizeResult()
        text = result.message or "no verified candidate beat the reference"
        rejected = rejected_summary(result)
        return f"{text}; {rejected}" if rejected else text
    return job.message


async def _deliver_proposal(ls: ServerContext, job: Job) -> str:
    result = job.result if isinstance(job.result, OptimizeResult) else OptimizeResult()
    summary = optimize_summary(result)
    stored = result.proposal_path
    text = proposals.read_text(stored) if stored else None
    if text is None:
        return f"{summary}; but the proposal file {stored} could not be read"
    label = f"HIERA proposal for {job.class_name or os.path.basename(job.path)} ({result.speedup or 0:.2f}x)"
    applied, target = await proposals.apply_proposal(ls, job.path, text, label)
    if applied:
        return f"{summary}; proposal in {os.path.basename(target)}"
    if proposals.can_create_files(ls.client_capabilities):
        return f"{summary}; the edit was declined, the proposal stays in {stored}"
    if proposals.can_show_documents(ls):
        await ls.window_show_document_async(types.ShowDocumentParams(uri=from_fs_path(stored)))
    return f"{summary}; this editor cannot create files through edits, the proposal is in {stored}"


async def _show_spec(ls: ServerContext, job: Job) -> str:
    """Render the spec next to the run's spec.json and show it."""
    from hiera_core.spec.model import Spec, render_text  # large: loaded when a spec job ends
    from hiera_core.store import atomic_write_text

    spec = Spec.from_dict(job.result if isinstance(job.result, dict) else {})
    record = read_record(job.path, spec.class_name or job.class_name)
    stored = record.spec.path if record.spec else ""
    if not stored:
        return "the spec was built but not recorded in .hiera/"
    rendered = Path(stored).with_name("spec.txt")
    atomic_write_text(rendered, render_text(spec))
    if proposals.can_show_documents(ls):
        await ls.window_show_document_async(types.ShowDocumentParams(uri=from_fs_path(str(rendered)),
                                                                     take_focus=True))
    return f"spec of {spec.class_name or job.class_name} in {rendered}"


def _profile_summary(job: Job) -> str:
    profile = read_record(job.path, job.class_name).profile
    if profile is None:
        profile = job.result if isinstance(job.result, ProfileEntry) else ProfileEntry()
    text = f"{_ms(profile.latency_ms)} on {profile.device_name or profile.device or '?'}"
    if profile.kernels:
        top = profile.kernels[0]
        text += f"; top kernel {top.name} ({100 * (top.share or 0):.0f}%)"
    return text

"""A job's progress in the client's UI: one server-created work-done token per job.

Begin when the job is queued (so a queued job can be cancelled from the UI too), report on the
CLI's start/stage/candidate events with the overall percentage and the stage (while candidates
are evaluated, the message names each one in flight and its own stage: compiling, verifying,
timing), end with the job's final message. One stage (a candidate's first call compiling it) can
still take minutes without an event, so while a job runs its last message is repeated each TICK_S with the time that step has
taken: the bar visibly moves, and says where the time goes. The client's cancel button cancels the token's future; that cancels the
job. Clients without window.workDoneProgress get no progress, only the final message.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from lsprotocol import types

from hiera_core.events import Event
from hiera_lsp.context import ServerContext
from hiera_lsp.jobs import FINISHED, RUNNING, Job

log = logging.getLogger(__name__)
_REPORTED_EVENTS = ("start", "stage", "candidate")
TICK_S = 1.0
EARLY_EVENTS_KEPT = 20


def elapsed(seconds: float) -> str:
    """'45 s', '3 min 05 s'."""
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{rest} s"


class JobProgress:
    def __init__(self, ls: ServerContext):
        self.ls = ls
        self.tokens: dict[str, str] = {}  # job id -> token
        self.percent: dict[str, int] = {}
        self.last_report: dict[str, tuple[str, float]] = {}  # job id -> (message, when it came)
        self.tickers: dict[str, asyncio.Task] = {}
        # Stages a job reported while the client was still creating its progress token: shown once it is.
        self.early: dict[str, list[Event]] = {}

    def supported(self) -> bool:
        window = self.ls.client_capabilities.window
        return bool(window and window.work_done_progress)

    async def begin(self, job: Job, message: str, on_cancel: Callable[[], None]) -> None:
        if not self.supported():
            return
        token = f"hiera/{job.id}"
        try:
            await self.ls.work_done_progress.create_async(token)
        except Exception as error:  # the client refused: run without a progress bar
            log.warning("window/workDoneProgress/create failed for %s: %s", job.id, error)
            self.early.pop(job.id, None)
            return
        if job.state in FINISHED:  # it ended while the client answered; its message says how
            self.early.pop(job.id, None)
            return
        self.tokens[job.id] = token
        self.percent[job.id] = 0
        self.ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
            title=job.title, cancellable=True, message=message, percentage=0))
        self.ls.work_done_progress.tokens[token].add_done_callback(
            lambda future: on_cancel() if future.cancelled() else None)
        if job.state == RUNNING:  # it started while the client answered
            self.started(job)
        for event in self.early.pop(job.id, []):
            self.report(job, event)

    def report(self, job: Job, event: Event) -> None:
        if event.event not in _REPORTED_EVENTS:
            return
        token = self.tokens.get(job.id)
        if token is None:
            if job.state not in FINISHED and self.supported():
                self.early.setdefault(job.id, []).append(event)
                del self.early[job.id][:-EARLY_EVENTS_KEPT]
            return
        # Percentages never go backwards in the UI, whatever order stages report in.
        percent = max(self.percent[job.id], int(round(job.progress * 100)))
        self.percent[job.id] = percent
        stage = event.stage or job.stage
        message = event.message
        text = f"{stage}: {message}" if stage and message else (stage or message)
        self.last_report[job.id] = (text, time.monotonic())
        self.ls.work_done_progress.report(token, types.WorkDoneProgressReport(
            message=text[:200], percentage=percent))

    def started(self, job: Job) -> None:
        token = self.tokens.get(job.id)
        if token is not None:
            self.last_report[job.id] = ("starting", time.monotonic())
            self.ls.work_done_progress.report(token, types.WorkDoneProgressReport(
                message="starting", percentage=self.percent[job.id]))
            if job.id not in self.tickers:
                self.tickers[job.id] = asyncio.get_running_loop().create_task(self._tick(job.id, token))

    async def _tick(self, job_id: str, token: str) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            text, since = self.last_report[job_id]
            quiet = time.monotonic() - since
            if quiet >= TICK_S:
                self.ls.work_done_progress.report(token, types.WorkDoneProgressReport(
                    message=f"{text[:180]} · {elapsed(quiet)}", percentage=self.percent[job_id]))

    def end(self, job: Job, message: str) -> None:
        token = self.tokens.pop(job.id, None)
        self.early.pop(job.id, None)
        ticker = self.tickers.pop(job.id, None)
        if ticker is not None:
            ticker.cancel()
        self.percent.pop(job.id, None)
        self.last_report.pop(job.id, None)
        if token is None:
            return
        self.ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
        self.ls.work_done_progress.tokens.pop(token, None)

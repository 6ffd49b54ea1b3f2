"""The worker processes that analyse one file at a time, each killed when its file passes the time
limit, and what runs inside them."""

from __future__ import annotations

import os
import sys

from hiera_core.analysis import CheckConfig, analyze_file


def analyse_one(path: str, source: bytes, config: CheckConfig) -> tuple[str, object]:
    """One job, in a worker process: ("ok", findings), ("import", message) or ("error", message)."""
    try:
        return "ok", analyze_file(path, source, config)
    except ImportError as error:
        return "import", str(error)
    except Exception as error:
        if os.environ.get("HIERA_DEBUG"):
            import traceback

            traceback.print_exc()
        return "error", f"internal error: {type(error).__name__}: {error}"


class Workers:
    """Worker processes that analyse one file at a time each; a file's analysis past the time limit
    kills its worker (a new one takes the next file), so the limit holds whatever the analysis does,
    C code included. Forked after the analysers are imported (where fork exists), so a worker
    starts in milliseconds."""

    def __init__(self, size: int, config: CheckConfig, time_limit: float | None, python: bool) -> None:
        import multiprocessing

        from hiera_core.analysis import load_analyzers

        methods = multiprocessing.get_all_start_methods()
        if "fork" in methods and sys.platform.startswith("linux"):
            import ctypes  # noqa: F401 - for _die_with_parent, inherited
            import gc

            load_analyzers(python)  # inherited by every fork
            gc.freeze()  # what is loaded now lives on: the workers' collections need not scan it
            self._frozen = True
            self._context = multiprocessing.get_context("fork")
        else:
            self._frozen = False
            self._context = multiprocessing.get_context("spawn")
        self._size, self._config, self._time_limit = size, config, time_limit
        self._idle: list = []  # (process, connection)
        self._busy: dict = {}  # connection -> (process, job index, start time)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def run(self, jobs: list[tuple[str, bytes]]):
        """(job index, outcome) for every job, in the order they finish."""
        import time
        from multiprocessing.connection import wait

        pending = list(reversed(range(len(jobs))))
        while pending or self._busy:
            while pending and (self._idle or len(self._busy) < self._size):
                reused = bool(self._idle)
                process, connection = self._idle.pop() if reused else self._start()
                try:
                    connection.send(jobs[pending[-1]])
                except OSError:  # it died while idle (e.g. killed for memory): the job goes to another
                    self._stop(process, connection)
                    if not reused:  # a new one that dies at once would again: report, do not loop
                        yield pending.pop(), ("error", "internal error: the analysis process died at start")
                    continue
                self._busy[connection] = (process, pending.pop(), time.monotonic())
            timeout = None
            if self._time_limit is not None:
                first_deadline = min(start for _, _, start in self._busy.values()) + self._time_limit
                timeout = max(0.0, first_deadline - time.monotonic())
            for connection in wait(list(self._busy), timeout):
                process, index, _ = self._busy.pop(connection)
                try:
                    outcome = connection.recv()
                except (EOFError, OSError):  # the worker died: a crash in C code, or killed for memory
                    process.join()
                    connection.close()
                    status = process.exitcode
                    yield index, ("error", f"internal error: the analysis process exited with status {status}")
                    continue
                self._idle.append((process, connection))
                yield index, outcome
            if self._time_limit is not None:
                now = time.monotonic()
                for connection, (process, index, start) in list(self._busy.items()):
                    if now - start >= self._time_limit:
                        del self._busy[connection]
                        self._stop(process, connection)
                        yield index, ("timeout", None)

    def _start(self):
        parent_end, child_end = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(child_end, self._config, os.getpid()), daemon=True)
        process.start()
        child_end.close()
        return process, parent_end

    def _stop(self, process, connection) -> None:
        process.kill()
        process.join()
        connection.close()

    def close(self) -> None:
        for _process, connection in self._idle:
            try:
                connection.send(None)  # finish: exits at once, as it waits for the next job
            except OSError:
                pass
        for process, connection in self._idle:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
            connection.close()
        for connection, (process, _, _) in self._busy.items():  # interrupted: nothing left running
            self._stop(process, connection)
        self._idle, self._busy = [], {}
        if self._frozen:  # a caller that lives on (tests) gets its collector back
            import gc

            gc.unfreeze()
            self._frozen = False


def _serve(connection, config: CheckConfig, parent: int) -> None:
    """A worker's loop: (path, source) in, outcome out, until None or the parent is gone."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent()
    if os.getppid() != parent:  # it died before we could ask
        return
    try:
        while (job := connection.recv()) is not None:
            connection.send(analyse_one(*job, config))
    except (EOFError, OSError):  # the parent closed its end: nothing to answer to
        return


def _die_with_parent() -> None:
    """On Linux, a worker is killed when the parent dies, however it dies (even SIGKILL), so no
    analysis outlives the command."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


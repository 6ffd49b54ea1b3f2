"""Registers, spills, shared memory and occupancy of the kernels of an open `.cu` file, for the hover.

Compiled in the background with NVRTC by `hiera kernels FILE --json` in a child process on the job
interpreter (the server never loads CUDA libraries itself, and a compiler crash costs a hover
line, not the server), on the buffer's text as typed once typing pauses, and cached by that
text's sha256. Until a compile is done the hover says so; without NVRTC (the `[cuda]` extra) it
says in one line how to get the figures.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import tempfile

from hiera_lsp.context import ServerContext
from hiera_lsp.documents import CUDA, Document

log = logging.getLogger(__name__)
DEBOUNCE_S = 0.5
COMPILE_TIMEOUT_S = 120.0
NVRTC_MISSING = ("NVRTC is not installed: `pip install 'hiera[cuda]'` in the job interpreter shows registers, "
                 "spills and occupancy here")
_CHECK_NVRTC = ("from hiera_core.cuda.nvrtc import custom_cuda_unavailable as missing\n"
                "print(missing() or '')")


def _content_key(document: Document) -> str:
    return hashlib.sha256(document.data).hexdigest()


def _base_name(name: str) -> str:
    """`void ns::scale<float>(float const*, ...)` -> `scale`, as the source names it."""
    words = name.split("(", 1)[0].split("<", 1)[0].split()
    return words[-1].rsplit("::", 1)[-1] if words else name


def summary(kernel: dict) -> str:
    parts = [f"{kernel.get('registers')} registers",
             f"spills {kernel.get('spill_stores', 0)}/{kernel.get('spill_loads', 0)} B (stores/loads)",
             f"static shared memory {kernel.get('static_smem', 0)} B"]
    occupancy = kernel.get("occupancy")
    if occupancy:
        assumed = " assumed" if occupancy.get("block_assumed") else ""
        parts.append(f"occupancy {occupancy['occupancy']:.0%} at block {occupancy['block']}{assumed} "
                     f"({occupancy['limiter']})")
    return " · ".join(parts)


class KernelResources:
    def __init__(self, ls: ServerContext):
        self.ls = ls
        self._reports: dict[str, dict] = {}  # content sha256 -> `hiera kernels --json` report
        self._latest: dict[str, Document] = {}
        self._tasks: dict[str, asyncio.Task] = {}
        self._unavailable: str | None = None  # the hover's line once NVRTC is known not to run

    def changed(self, document: Document) -> None:
        """Compile the buffer once typing pauses (only its latest text)."""
        if document.language != CUDA or document.too_large or document.binary:
            return
        self._latest[document.uri] = document
        if document.uri not in self._tasks:
            self._tasks[document.uri] = asyncio.get_running_loop().create_task(self._compile_latest(document.uri))

    def closed(self, uri: str) -> None:
        self._latest.pop(uri, None)

    def line_for(self, document: Document, kernel: str) -> str:
        """The hover's line for one kernel of this text."""
        if self._unavailable is not None:
            return self._unavailable
        report = self._reports.get(_content_key(document))
        if report is None:
            if document.uri not in self._tasks:
                self.changed(document)
            return "NVRTC: compiling this file for registers and occupancy…"
        if not report.get("ok"):
            error = next((line for line in str(report.get("errors", "")).splitlines() if line.strip()), "")
            return f"NVRTC could not compile this file: {error[:200]}"
        for entry in report.get("kernels") or []:
            if _base_name(str(entry.get("name", ""))) == kernel:
                return f"NVRTC {report.get('arch')}: {summary(entry)}"
        return f"NVRTC {report.get('arch')}: no code generated for `{kernel}` (a template never instantiated?)"

    async def _compile_latest(self, uri: str) -> None:
        try:
            while (document := self._latest.get(uri)) is not None:
                await asyncio.sleep(DEBOUNCE_S)
                if self._latest.get(uri) is not document:
                    continue  # still typing (or closed): a compile now would compete with the analysis
                del self._latest[uri]
                key = _content_key(document)
                if key not in self._reports and self._unavailable is None:
                    report = await self._compile(document)
                    if report is not None:
                        self._reports[key] = report
        except Exception:  # a figure in a hover is not worth the server
            log.exception("NVRTC resources of %s failed", uri)
        finally:
            self._tasks.pop(uri, None)

    async def _run(self, *args: str) -> tuple[int, str, str]:
        process = await asyncio.create_subprocess_exec(
            self.ls.settings.pythonPath, *args, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=True)
        try:
            out, err = await asyncio.wait_for(process.communicate(), COMPILE_TIMEOUT_S)
        except TimeoutError:
            process.kill()
            await process.wait()
            return -1, "", f"NVRTC took over {COMPILE_TIMEOUT_S:.0f} s"
        return process.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")

    async def _compile(self, document: Document) -> dict | None:
        code, out, err = await self._run("-c", _CHECK_NVRTC)
        if code != 0:
            reason = err.strip().splitlines()[-1] if err.strip() else f"exit status {code}"
            self._unavailable = f"NVRTC: cannot run {self.ls.settings.pythonPath} ({reason[:200]})"
            return None
        if out.strip():
            log.info("%s", out.strip())
            self._unavailable = NVRTC_MISSING
            return None
        name = os.path.basename(document.path or "untitled.cu")
        with tempfile.TemporaryDirectory(prefix="hiera-kernels-") as folder:
            copy = os.path.join(folder, name)
            with open(copy, "wb") as handle:
                handle.write(document.data)
            includes = ["-I", os.path.dirname(document.path)] if document.path else []
            code, out, err = await self._run("-m", "hiera_core.cli.main", "kernels", copy, *includes, "--json")
        try:
            report = json.loads(out)
        except ValueError:
            return {"ok": False, "errors": err.strip().splitlines()[-1] if err.strip() else f"exit status {code}"}
        return report if isinstance(report, dict) else None

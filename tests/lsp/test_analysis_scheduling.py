"""Diagnostics follow the text as it is typed: incremental edits give what a fresh analysis of the
same text gives, findings of text that was edited meanwhile are never shown, a large file's
analysis never holds up answers about other files, and never holds up the server's exit."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from helpers.lsp import did_change, text_change
from lsprotocol import types

from hiera_core.worker.isolate import process_alive
from hiera_lsp.positions import LineIndex, encode

PARSE_GATE = Path(__file__).parent / "parse_gate"

BLOCK = """\
__global__ void scale_{i}(const float* x, float* y, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f * x[i];
}}

__global__ void reduce_{i}(const float* x, float* out, int n) {{
    __shared__ float buf[256];
    int t = threadIdx.x;
    buf[t] = x[blockIdx.x * 256 + t];
    __syncthreads();
    if (t == 0) out[blockIdx.x] = buf[0];
}}

void launch_{i}(const float* x, float* y, float* out, int n) {{
    scale_{i}<<<(n + 255) / 256, 256>>>(x, y, n);
    reduce_{i}<<<(n + 255) / 256, 256>>>(y, out, n);
}}
"""
UNGUARDED = "    y[i] = 2.0f * x[i];"


def cuda_source(blocks: int) -> str:
    return "#include <cuda_runtime.h>\n\n" + "\n".join(BLOCK.format(i=i) for i in range(blocks))


def _apply(text: str, change: types.TextDocumentContentChangePartial) -> str:
    """The client's side of an edit (UTF-16 positions, as VS Code sends them)."""
    lines = LineIndex(encode(text))
    start = lines.offset(change.range.start, "utf-16")
    end = lines.offset(change.range.end, "utf-16")
    data = encode(text)
    return (data[:start] + encode(change.text) + data[end:]).decode("utf-8", "surrogatepass")


def _shown(items) -> list[tuple]:
    return sorted((item.range.start.line, item.range.start.character, item.range.end.line,
                   item.range.end.character, str(item.code), item.severity, item.message) for item in items)


def _unguarded_lines(text: str) -> list[int]:
    return [number for number, line in enumerate(text.splitlines()) if line == UNGUARDED]


async def test_diagnostics_after_incremental_edits_equal_a_fresh_analysis(start_server):
    session = await start_server("push")
    text = cuda_source(60)
    uri = session.open("kernels/typed.cu", text)
    await session.pushed_version(uri, 1)
    unguarded = _unguarded_lines(text)
    edits = [
        # guard one store (a finding goes), break a kernel's signature (a parse error), type wide characters
        [text_change((unguarded[10], 4), (unguarded[10], 4), "if (i < n) ")],
        [text_change((unguarded[30] - 2, 0), (unguarded[30] - 2, 10), "__global__ vo")],
        [text_change((5, 0), (5, 0), "// é 😀 ü\n"), text_change((6, 0), (6, 0), "/* 😀 */")],
        # delete a whole block, then add a kernel that indexes without a guard
        [text_change((unguarded[40] - 2, 0), (unguarded[41] - 2, 0), "")],
        [text_change((0, 0), (0, 0), "__global__ void added(float* y) { y[threadIdx.x] = 1.0f; }\n")],
    ]
    expected = text
    for version, changes in enumerate(edits, start=2):
        for change in changes:
            expected = _apply(expected, change)
        did_change(session, uri, version, *changes)
        await session.pushed_version(uri, version)
    incremental = await session.pushed_version(uri, len(edits) + 1)

    fresh_uri = session.open("kernels/fresh.cu", expected)
    fresh = await session.pushed_version(fresh_uri, 1)
    assert _shown(incremental) == _shown(fresh)
    assert sum(item.code == "HC101" for item in fresh) > 0  # the comparison is of real findings


async def _analysing(session, name: str, version: int, times: int = 1) -> None:
    """Until the server has said `times` times that it is analysing that version of a large file
    (in its child process, which takes seconds: what the test sends next arrives meanwhile)."""
    def said() -> int:
        return sum(f"analysing {name} " in message.message and f"version {version})" in message.message
                   for message in session.client.log_messages)

    async def wait():
        while said() < times:
            await asyncio.sleep(0.01)
    await asyncio.wait_for(wait(), 60)


LARGE_BLOCKS = 600  # over 256 KB: analysed in a child process


async def test_findings_of_text_edited_during_its_analysis_are_never_pushed(start_server):
    session = await start_server("push")
    text = cuda_source(LARGE_BLOCKS)
    uri = session.open("kernels/busy.cu", text)
    await session.pushed_version(uri, 1, timeout=120)
    line = _unguarded_lines(text)[75]
    did_change(session, uri, 2, text_change((line, 4), (line, 4), " "))
    await _analysing(session, "busy.cu", 2)
    for version in range(3, 11):  # typing on while version 2 is analysed
        did_change(session, uri, version, text_change((line, 4), (line, 4), " "))
    await session.pushed_version(uri, 10, timeout=120)
    await asyncio.sleep(0.5)  # anything still in flight would arrive now
    assert session.versions_pushed(uri) == [1, 10]


async def test_a_pull_answers_for_the_text_as_it_is_when_the_report_is_sent(start_server):
    session = await start_server("pull")
    text = cuda_source(LARGE_BLOCKS)
    uri = session.open("kernels/pulled.cu", text)
    before = await session.pulled(uri)
    line = _unguarded_lines(text)[75]
    pending = asyncio.ensure_future(session.pulled(uri))
    await _analysing(session, "pulled.cu", 1, times=2)  # the second pull's analysis
    did_change(session, uri, 2, text_change((line, 4), (line, 4), "if (i < n) "))  # guards one store
    after = await asyncio.wait_for(pending, 120)
    assert sum(item.code == "HC101" for item in after) == sum(item.code == "HC101" for item in before) - 1


async def test_a_hover_in_another_file_answers_while_a_large_file_is_analysed(start_server):
    session = await start_server("push")
    models = session.open("models.py")
    await session.pushed_version(models, 1)
    text = cuda_source(1)
    text = text * (900_000 // len(text.encode()))  # under the 1 MB limit: analysed, off the request path
    large = session.open("kernels/large.cu", text)

    async def analysis_started():
        while not any("analysing large.cu" in message.message for message in session.client.log_messages):
            await asyncio.sleep(0.01)

    await asyncio.wait_for(analysis_started(), 30)
    hover = await session.hover(models, 4, 7)  # `class Model`
    answered_before_the_large_file = session.versions_pushed(large) == []
    assert hover is not None and "Model" in hover.contents.value
    assert answered_before_the_large_file
    items = await session.pushed_version(large, 1, timeout=120)
    unguarded = set(_unguarded_lines(text))
    assert sum(item.code == "HC101" and item.range.start.line in unguarded for item in items) == len(unguarded)


async def test_a_small_file_is_diagnosed_while_a_large_file_is_analysed(start_server):
    session = await start_server("pull")
    small = session.open("kernels/scale.cu")
    text = cuda_source(LARGE_BLOCKS)
    large = session.open("kernels/large.cu", text)
    pending = asyncio.ensure_future(session.pulled(large))
    await _analysing(session, "large.cu", 1)
    items = await session.pulled(small)
    answered_first = not pending.done()
    assert any(item.code == "HC101" for item in items)
    assert answered_first
    assert any(item.code == "HC101" for item in await asyncio.wait_for(pending, 120))


async def test_a_hover_elsewhere_is_not_held_up_by_parsing_a_large_file(start_server, tmp_path):
    gate = tmp_path / "parse-gate"  # the large file's parse stays in progress until this exists
    session = await start_server("push", env={"PYTHONPATH": str(PARSE_GATE), "HIERA_TEST_PARSE_GATE": str(gate)})
    models = session.open("models.py")
    await session.pushed_version(models, 1)
    large = session.open("kernels/large.cu", cuda_source(1) * 1500)  # about 0.8 MB
    in_large = asyncio.ensure_future(session.hover(large, 2, 18))  # `scale_0`: needs the whole file parsed
    await asyncio.sleep(0)  # sent first
    elsewhere = await asyncio.wait_for(session.hover(models, 4, 7), 30)
    assert elsewhere is not None and "Model" in elsewhere.contents.value
    assert not in_large.done()
    gate.touch()
    assert "scale_0" in (await asyncio.wait_for(in_large, 60)).contents.value


def _children(pid: int) -> list[int]:
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            if int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return found


async def test_the_server_exits_without_waiting_for_a_large_files_analysis(start_server, tmp_path):
    gate = tmp_path / "analysis-gate"  # never made: the child's analysis would last its 120 s
    session = await start_server("push", env={"PYTHONPATH": str(PARSE_GATE), "HIERA_TEST_ANALYSIS_GATE": str(gate)})
    session.open("kernels/large.cu", cuda_source(LARGE_BLOCKS))
    await _analysing(session, "large.cu", 1)
    server = session.client._server
    children = _children(server.pid)
    assert children  # the analysis child

    await session.shutdown()
    await asyncio.wait_for(server.wait(), 60)  # not the 120 s the analysis would take
    assert server.returncode == 0

    async def children_gone():  # multiprocessing's resource tracker ends once it sees the server gone
        while any(process_alive(pid) for pid in children):
            await asyncio.sleep(0.05)
    await asyncio.wait_for(children_gone(), 10)

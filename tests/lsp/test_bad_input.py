"""Bad input: every request gets an answer or an error of its own, and the server keeps serving."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from lsprotocol import types

from hiera_core.store import Store, task_key


async def _still_serving(session) -> None:
    hover = await session.hover(session.open("softmax.py"), 12, 7)
    assert hover is not None and hover.contents.value.startswith("**HIERA · Model**")


async def test_text_that_is_not_valid_utf8(start_server):
    session = await start_server()
    # A lone surrogate is what a client's invalid byte becomes in JSON ("\udcff").
    uri = session.open("kernels/bad.cu", "__global__ void k(float* y) { y[0] = 1.0f; } // \udcff\n")
    items = await session.pushed(uri)
    assert [item.code for item in items if item.code == "HC002"] == ["HC002"]
    assert (await session.hover(uri, 0, 17)).contents.value.startswith("**HIERA · kernel `k`**")

    # Raw invalid UTF-8 inside a JSON-RPC message: that message is dropped, nothing else.
    body = (b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "'
            + session.workspace.uri("raw.py").encode() + b'", "languageId": "python", "version": 1, '
            b'"text": "x = \xff\xfe"}}}')
    session.client._server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    with pytest.raises(Exception, match="unknown document"):
        await session.hover(session.workspace.uri("raw.py"), 0, 0)
    await _still_serving(session)


async def test_binary_files(start_server):
    session = await start_server()
    noise = bytes(random.Random(5).randrange(256) for _ in range(20000)).decode("latin-1")
    uri = session.open("kernels/blob.cu", "\0ELF" + noise)
    assert await session.pushed(uri) == []
    assert await session.hover(uri, 0, 2) is None
    assert await session.code_actions(uri, 0, 2) == []
    await _still_serving(session)


async def test_a_5_mb_file_is_answered_without_blocking_other_documents(start_server):
    session = await start_server()
    kernel = "__global__ void k{0}(float* y, int n) {{ int i = blockIdx.x * blockDim.x + threadIdx.x; y[i] = 0; }}\n"
    text = "".join(kernel.format(i) for i in range(55000))
    assert len(text) > 5_000_000
    started = time.perf_counter()
    uri = session.open("kernels/huge.cu", text)
    await _still_serving(session)
    [note] = await session.pushed(uri)
    assert note.code == "HL200" and note.message.startswith("HIERA does not analyse files over 1 MB in the editor")
    assert await session.hover(uri, 10, 20) is None
    assert await session.code_actions(uri, 10, 20) == []
    session.client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=100, character=0), end=types.Position(line=54000, character=0)),
            text="")]))
    items = await session.pushed(uri, lambda items: items and items[0].code != "HL200", timeout=30)
    assert any(item.code == "HC101" for item in items)  # now small enough to analyse
    assert time.perf_counter() - started < 30


async def test_a_file_deleted_while_open(start_server):
    session = await start_server()
    uri = session.open("models.py")
    await session.pushed(uri)
    session.workspace.path("models.py").unlink()
    session.client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))

    assert [a.title for a in await session.code_actions(uri, 4, 7)][0] == "HIERA: Optimize this module"
    assert (await session.hover(uri, 4, 7)).contents.value.startswith("**HIERA · Model**")
    with pytest.raises(Exception, match="saved .py file on disk"):
        await session.command("hiera.optimize", uri, "Model")
    await session.pushed(uri)
    await _still_serving(session)


async def test_a_malformed_index_entry_reads_as_what_it_holds_of_an_entry(start_server):
    # Written by another version of HIERA, or by hand: the hover and diagnostics still answer.
    session = await start_server()
    uri = session.open("softmax.py")
    store = Store(session.workspace.root)
    index = store.index_path(task_key(store.workspace, session.workspace.path("softmax.py"), "Model"))
    index.parent.mkdir(parents=True, exist_ok=True)
    for text, shown in (("{not json", "No HIERA run yet"), ('["an entry"]', "No HIERA run yet"),
                        ('{"profile": {"latency_ms": "fast", "spread_ms": [1], "kernels": 3}, "last_run": 7}',
                         "Last profile: **?** on ?")):
        index.write_text(text)
        assert shown in (await session.hover(uri, 12, 7)).contents.value
        await session.code_actions(uri, 12, 7)
    await _still_serving(session)


async def test_a_syntax_error_on_every_line(start_server):
    session = await start_server()
    python = "".join(f"class ({i} def : ] ) = = '\n" for i in range(3000))
    cuda = "".join(f"__global__ {{ <<< int ) ( {i} >>> ;\n" for i in range(3000))
    py_uri = session.open("broken.py", python)
    cu_uri = session.open("kernels/broken.cu", cuda)
    await session.pushed(py_uri)
    await session.pushed(cu_uri)
    for uri in (py_uri, cu_uri):
        await session.hover(uri, 1500, 5)
        await session.code_actions(uri, 1500, 5)
    await _still_serving(session)


async def test_requests_for_documents_never_opened(start_server):
    session = await start_server()
    ghost = session.workspace.uri("ghost.py")
    with pytest.raises(Exception, match="unknown document"):
        await session.hover(ghost, 0, 0)
    with pytest.raises(Exception, match="unknown document"):
        await session.code_actions(ghost, 0, 0)
    session.client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=ghost, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="x = 1\n")]))
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=ghost)))
    with pytest.raises(Exception):  # noqa: B017 - whichever error the reply carries: the point is what follows
        await session.command("hiera.noSuchCommand")
    await _still_serving(session)


async def test_pulled_diagnostics_for_unknown_documents_are_errors(start_server):
    session = await start_server("pull")
    with pytest.raises(Exception, match="unknown document"):
        await session.pulled(session.workspace.uri("ghost.cu"))
    await asyncio.sleep(0)
    await _still_serving(session)


async def test_a_syntax_error_is_the_diagnostic_not_missing_inputs(start_server):
    session = await start_server()
    text = ("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n    def forward(self, x):\n"
            "        return torch.relu(x\n\n\ndef get_inputs():\n    return [torch.randn(4)]\n\n\n"
            "def get_init_inputs():\n    return []\n")
    uri = session.open("broken_task.py", text)
    items = await session.pushed(uri, lambda items: any(item.code == "HC003" for item in items))
    [syntax] = [item for item in items if item.code == "HC003"]
    assert syntax.range.start.line == 6 and syntax.message.startswith("syntax error: '(' was never closed\n")
    # get_inputs is defined below the error: the file has inputs, whatever the parser made of the rest
    assert not [item for item in items if "no inputs" in item.message]

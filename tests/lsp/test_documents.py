"""Part 1: the document model: incremental edits in the client's units, incremental parsing.

End to end over stdio, plus property tests of the snapshot model itself: any sequence of edits
leaves the same text and the same syntax tree as parsing the final text from scratch.
"""

from __future__ import annotations

import subprocess
import sys

from helpers.lsp import did_change, text_change
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from hiera_lsp.documents import Document
from hiera_lsp.positions import UTF8, UTF16, UTF32, LineIndex, encode

CU = "kernels/scale.cu"


def _lines_of(items, code: str) -> list[int]:
    return sorted(item.range.start.line for item in items if item.code == code)


async def test_incremental_edits_move_and_clear_findings(start_server):
    session = await start_server()
    uri = session.open(CU)
    assert _lines_of(await session.pushed(uri), "HC101") == [4]

    # Two changes in one notification: the second's positions refer to the text after the first.
    did_change(session, uri, 2, text_change((0, 0), (0, 0), "// one\n"), text_change((1, 0), (1, 0), "// two\n"))
    items = await session.pushed(uri, lambda items: _lines_of(items, "HC101") == [6])
    assert _lines_of(items, "HC110") == [12]

    # Guard the store: the unguarded-index warning goes away.
    did_change(session, uri, 3, text_change((6, 4), (6, 4), "if (i < n) "))
    items = await session.pushed(uri, lambda items: not _lines_of(items, "HC101"))
    assert _lines_of(items, "HC110") == [12]


async def test_edits_after_wide_characters_use_utf16_units(start_server):
    session = await start_server()
    uri = session.open(CU)
    line = session.workspace.text(CU).splitlines()[2]  # "/* é 😀 */ __global__ void scale_kernel(..."
    emoji_end = line.index("😀") + 2  # UTF-16: the emoji is two units
    did_change(session, uri, 2, text_change((2, emoji_end), (2, emoji_end), " ü"))

    name_at = line.index("scale_kernel") + 1 + 2
    hover = await session.hover(uri, 2, name_at + 1)
    assert hover.contents.value.startswith("**HIERA · kernel `scale_kernel`**")
    assert hover.range.start == types.Position(line=2, character=name_at)


async def test_a_whole_text_change_replaces_the_document(start_server):
    session = await start_server()
    uri = session.open(CU)
    await session.pushed(uri, lambda items: len(items) > 0)
    session.client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="// nothing here\n")]))
    assert await session.pushed(uri, lambda items: not items) == []


async def test_a_class_typed_into_a_file_gets_its_actions(start_server):
    session = await start_server()
    uri = session.open("block.py")
    did_change(session, uri, 2, text_change((16, 0), (16, 0), "\n\nclass Typed(nn.Module):\n    def forw"))
    actions = await session.code_actions(uri, 19, 6)
    assert [list(a.command.arguments) for a in actions][0] == [uri, "Typed"]


# ---- the snapshot model, without a server ------------------------------------------------------

_PIECES = list("ab _(){};\n\r\t#:é😀\u2028") + [
    "class M(nn.Module):\n    def forward(self, x):\n        return x\n",
    "__global__ void k(float* y) { y[threadIdx.x] = 0; }\n"]
TEXTS = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)

def _edits(text: str):
    index = LineIndex(encode(text))
    line = st.integers(0, index.line_count)  # one past the end: clamped
    position = st.builds(lambda at, c: types.Position(line=at, character=c), line, st.integers(0, 30))
    return st.lists(st.tuples(position, position, TEXTS), min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["x.py", "x.cu"]), TEXTS, st.data(), st.sampled_from([UTF8, UTF16, UTF32]))
def test_incremental_parsing_matches_a_fresh_parse(name, text, data, encoding):
    document = Document(f"file:///tmp/{name}", "", 1, text)
    assert document.view is not None
    expected = text
    for version, (start, end, inserted) in enumerate(data.draw(_edits(text)), start=2):
        lines = LineIndex(encode(expected))
        a, b = sorted((lines.offset(start, encoding), lines.offset(end, encoding)))
        start, end = lines.position(a, encoding), lines.position(b, encoding)
        expected = (encode(expected)[:a] + encode(inserted) + encode(expected)[b:]).decode("utf-8", "surrogatepass")
        document = document.changed(version, [text_change((start.line, start.character), (end.line, end.character),
                                                      inserted)], encoding)
        assert document.text == expected
        fresh = Document(document.uri, "", version, expected)
        assert str(document.view.tree.root_node) == str(fresh.view.tree.root_node)


@given(TEXTS, st.sampled_from([UTF8, UTF16, UTF32]))
def test_positions_round_trip_at_character_boundaries(text, encoding):
    index = LineIndex(encode(text))
    offset = 0
    for char in text:
        if index.data[offset - 1:offset + 1] != b"\r\n":  # inside a line break is no position
            assert index.offset(index.position(offset, encoding), encoding) == offset
        offset += len(encode(char))
    assert index.offset(index.end_position(encoding), encoding) == len(index.data)


def test_starting_the_server_loads_no_grammar_analysis_torch_openai_or_rich():
    # An editor waits for initialize: what the first document needs loads afterwards (load_analysis),
    # what jobs and the store need when the first job runs or the first record is read.
    heavy = ("tree_sitter", "tree_sitter_python", "tree_sitter_cuda", "hiera_core.analysis", "hiera_core.spec.model",
             "torch", "openai", "rich", "hiera_core.store", "hiera_core.worker.isolate", "hiera_core.llm.config",
             "multiprocessing", "concurrent.futures.process")
    script = ("import sys; import hiera_lsp.cli, hiera_lsp.server; "
              f"print(','.join(name for name in {heavy!r} if name in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == ""

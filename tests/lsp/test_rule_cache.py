"""The editor's diagnostics of a `.cu` snapshot reuse the document's rule cache, and say what a
fresh document with the same text says; the child process that analyses large files keeps a cache
per file with the same guarantee."""

from __future__ import annotations

from lsprotocol import types

from hiera_core.analysis import analyze_file
from hiera_lsp import diagnostics
from hiera_lsp.diagnostics import analyze_in_child, diagnostics_for
from hiera_lsp.documents import Document

TEXT = """#define BLOCK 256
__global__ void racy(float* out) {
    __shared__ float s[BLOCK];
    s[threadIdx.x] = 1.0f;
    out[threadIdx.x] = s[threadIdx.x + 1];
}

__global__ void divergent(float* y) {
    if (threadIdx.x < 16) __syncthreads();
    y[threadIdx.x] = 0.5;
}

void launch(float* y) {
    racy<<<1, BLOCK>>>(y);
    divergent<<<1, 100>>>(y);
}
"""


def _change(line: int, character: int, end: tuple[int, int] | None, text: str):
    end_line, end_character = end or (line, character)
    return types.TextDocumentContentChangePartial(range=types.Range(
        start=types.Position(line=line, character=character),
        end=types.Position(line=end_line, character=end_character)), text=text)


def _said(items: list[types.Diagnostic]) -> list[tuple]:
    return sorted((item.code, item.range.start.line, item.range.start.character, item.range.end.line,
                   item.range.end.character, item.message) for item in items)


def test_snapshots_share_the_rule_cache_and_say_what_a_fresh_document_says(tmp_path):
    uri = (tmp_path / "k.cu").as_uri()
    document = Document(uri, "cuda", 1, TEXT)
    first = diagnostics_for(document, "utf-16")
    assert {item.code for item in first} >= {"HC102", "HC106", "HC117"}
    cache = document.rule_cache
    assert cache  # the functions' findings are kept
    edits = [
        [_change(0, 0, None, "// moved down\n\n")],  # every function moves: findings and their `line N` move
        [_change(11, 21, (11, 24), "0.5f")],  # a literal fixed inside one function
        [_change(16, 19, (16, 22), "128")],  # a launch changed in the host function
        [_change(8, 0, None, "__device__ void helper() { __syncthreads(); }\n")],  # a function inserted
    ]
    for version, changes in enumerate(edits, start=2):
        document = document.changed(version, changes, "utf-16")
        assert document.rule_cache is cache
        fresh = Document(uri, "cuda", version, document.text)
        said = diagnostics_for(document, "utf-16")
        assert _said(said) == _said(diagnostics_for(fresh, "utf-16"))
        if version == 4:
            assert not any(item.code == "HC106" for item in said)
    moved = next(item for item in diagnostics_for(document, "utf-16") if item.code == "HC102")
    assert moved.range.start.line == 11 and "(line 12)" in moved.message


def test_the_child_process_keeps_a_rule_cache_per_file(tmp_path, monkeypatch):
    monkeypatch.setattr(diagnostics, "_CHILD_CACHES", {})
    path = str(tmp_path / "big.cu")
    data = TEXT.encode()
    assert analyze_in_child(path, data, None) == analyze_file(path, data)
    assert list(diagnostics._CHILD_CACHES) == [path] and diagnostics._CHILD_CACHES[path]
    edited = b"\n\n" + data.replace(b"0.5;", b"0.5f;")
    assert analyze_in_child(path, edited, None) == analyze_file(path, edited)
    for index in range(diagnostics.MAX_CHILD_CACHES + 2):  # other files: the oldest caches go
        analyze_in_child(str(tmp_path / f"other{index}.cu"), data, None)
    assert len(diagnostics._CHILD_CACHES) == diagnostics.MAX_CHILD_CACHES and path not in diagnostics._CHILD_CACHES

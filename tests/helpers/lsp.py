"""Edits as an editor sends them to the language server (textDocument/didChange)."""

from lsprotocol import types


def text_change(start: tuple[int, int], end: tuple[int, int], text: str) -> types.TextDocumentContentChangePartial:
    """Replace (line, character) `start` to `end` by `text`."""
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=start[0], character=start[1]),
                          end=types.Position(line=end[0], character=end[1])), text=text)


def did_change(session, uri: str, version: int, *changes) -> None:
    session.client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=list(changes)))

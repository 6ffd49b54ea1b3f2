"""A proposal as a WorkspaceEdit that creates or replaces `<stem>_hiera.py`, confirmed by the user.

The edit carries a change annotation with `needsConfirmation: true`, so a client previews it
before anything changes. HIERA's VS Code extension instead announces PREVIEW_CAPABILITY and is
sent PREVIEW_REQUEST (reference, target, text): it shows the reference and the proposal side by
side and writes the file on one confirmation. Clients that cannot create files through an edit (no
`documentChanges` and no `create` resource operation) get no edit; the caller then points the
user at the run's proposal file instead.
"""

from __future__ import annotations

import os

from lsprotocol import types
from pygls.uris import from_fs_path

from hiera_core.index_entry import IndexEntry
from hiera_core.propose.proposal_file import proposal_path_for, same_up_to_final_newline
from hiera_lsp.context import ServerContext
from hiera_lsp.positions import LineIndex, encode

ANNOTATION_ID = "hiera.proposal"
PREVIEW_CAPABILITY = "hieraProposalPreview"  # in the client's experimental capabilities
PREVIEW_REQUEST = "hiera/previewProposal"


def current_text(ls: ServerContext, path: str) -> str | None:
    """A file's text as the user sees it: its open buffer (possibly never saved), else the disk."""
    document = ls.documents.get(from_fs_path(path))
    return document.text if document is not None else read_text(path)


def read_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


def can_create_files(capabilities: types.ClientCapabilities) -> bool:
    workspace_edit = capabilities.workspace and capabilities.workspace.workspace_edit
    if not workspace_edit:
        return False
    # Resource operations only exist inside documentChanges, so a client listing `create`
    # handles documentChanges even when it does not say so (Neovim 0.11 does this).
    return bool(workspace_edit.document_changes
                or types.ResourceOperationKind.Create in (workspace_edit.resource_operations or ()))


def proposal_edit(ls: ServerContext, target_path: str, text: str,
                  label: str) -> types.WorkspaceEdit | None:
    """An edit that makes `target_path` hold `text`; None when the client cannot apply one."""
    capabilities = ls.client_capabilities
    if not can_create_files(capabilities):
        return None
    workspace_edit = capabilities.workspace.workspace_edit
    annotated = bool(workspace_edit.change_annotation_support)
    uri = from_fs_path(target_path)
    encoding = ls.encoding
    open_document = ls.documents.get(uri)
    on_disk = read_text(target_path) if open_document is None else None
    changes: list = []
    if open_document is not None:
        version, current = open_document.version, open_document.lines
    elif on_disk is not None:
        version, current = None, LineIndex(encode(on_disk))
    else:
        version, current = None, LineIndex(b"")
        changes.append(types.CreateFile(
            uri=uri, options=types.CreateFileOptions(overwrite=False, ignore_if_exists=True),
            annotation_id=ANNOTATION_ID if annotated else None))
    whole = types.Range(start=types.Position(line=0, character=0),
                        end=current.end_position(encoding))
    edit = (types.AnnotatedTextEdit(range=whole, new_text=text, annotation_id=ANNOTATION_ID)
            if annotated else types.TextEdit(range=whole, new_text=text))
    changes.append(types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
        edits=[edit]))
    annotations = {ANNOTATION_ID: types.ChangeAnnotation(
        label=label, needs_confirmation=True,
        description=f"HIERA proposal -> {os.path.basename(target_path)}")} if annotated else None
    return types.WorkspaceEdit(document_changes=changes, change_annotations=annotations)


def pending_proposal(ls: ServerContext, source_path: str, record: IndexEntry) -> str | None:
    """The text of the index entry's best proposal, when its file is still in the store and
    `<stem>_hiera.py` (as open in the editor, else on disk) does not hold it yet."""
    stored = record.proposal.path if record.proposal else ""
    text = read_text(stored) if stored else None
    if text is None:
        return None
    target = proposal_path_for(source_path)
    open_document = ls.documents.get(from_fs_path(target))
    current = open_document.text if open_document is not None else read_text(target)
    return None if current is not None and same_up_to_final_newline(current, text) else text


def can_preview(capabilities: types.ClientCapabilities) -> bool:
    """The client (HIERA's VS Code extension) shows PREVIEW_REQUEST as a diff of the reference and
    the proposal and applies it on one confirmation; VS Code's own Refactor Preview shows a new
    file's edit unticked, as a diff against an empty file."""
    experimental = capabilities.experimental
    return isinstance(experimental, dict) and experimental.get(PREVIEW_CAPABILITY) is True


async def _preview(ls: ServerContext, source_path: str, target: str, text: str, label: str) -> bool:
    answer = await ls.protocol.send_request_async(PREVIEW_REQUEST, {
        "reference": from_fs_path(source_path), "target": from_fs_path(target), "text": text, "label": label})
    applied = answer.get("applied") if isinstance(answer, dict) else getattr(answer, "applied", False)
    return applied is True


async def apply_proposal(ls: ServerContext, source_path: str, text: str,
                         label: str) -> tuple[bool, str]:
    """Ask the client to apply the proposal, then show it. Returns (applied, target path)."""
    target = proposal_path_for(source_path)
    if can_preview(ls.client_capabilities):
        if not await _preview(ls, source_path, target, text, label):
            return False, target
    else:
        edit = proposal_edit(ls, target, text, label)
        if edit is None:
            return False, target
        result = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label=label))
        if not result.applied:
            return False, target
    if can_show_documents(ls):
        await ls.window_show_document_async(types.ShowDocumentParams(uri=from_fs_path(target),
                                                                     take_focus=True))
    return True, target


def can_show_documents(ls: ServerContext) -> bool:
    window = ls.client_capabilities.window
    return bool(window and window.show_document and window.show_document.support)

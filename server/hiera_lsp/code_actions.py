"""Code actions: optimize/profile/spec a module class, optimize the module that loads a kernel,
apply or re-verify a proposal.

Module actions appear anywhere inside an nn.Module class; "Apply proposal" carries the edit
itself (so the client previews it); everything that runs a job is a command.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import from_fs_path

from hiera_core.propose.proposal_file import proposal_path_for
from hiera_lsp import commands, proposals
from hiera_lsp.context import ServerContext
from hiera_lsp.diagnostics import STALE_PROPOSAL
from hiera_lsp.documents import Document
from hiera_lsp.records import all_records, read_record

if TYPE_CHECKING:
    from hiera_core.analysis.python_source import PyClass
    from hiera_core.index_entry import ProposalEntry

OPTIMIZE_KIND = "refactor.hiera.optimize"
PROFILE_KIND = "refactor.hiera.profile"
SPEC_KIND = "refactor.hiera.spec"
APPLY_KIND = "refactor.hiera.apply"
VERIFY_KIND = "refactor.hiera.verify"
KINDS = (OPTIMIZE_KIND, PROFILE_KIND, SPEC_KIND, APPLY_KIND, VERIFY_KIND, types.CodeActionKind.QuickFix)
# Findings that re-verification answers: a stale, hand-edited or unverified proposal.
_REVERIFY_CODES = {"HC201", "HC202", "HC203", STALE_PROPOSAL}


def _command_action(title: str, kind: str, command: str, arguments: list) -> types.CodeAction:
    return types.CodeAction(title=title, kind=kind,
                            command=types.Command(title=title, command=command, arguments=arguments))


def code_actions(ls: ServerContext, document: Document,
                 params: types.CodeActionParams) -> list[types.CodeAction]:
    if document.path is None:
        return []  # jobs need a file on disk
    offset = document.offset_at(params.range.start, ls.encoding)
    actions: list[types.CodeAction] = []
    if document.python is not None:
        cls = document.python.class_at(offset)
        if cls is not None and cls.is_module:
            actions += _module_actions(ls, document, cls, params.context.diagnostics)
        if document.python.proposal is not None:
            actions += _proposal_file_actions(ls, document, params.context.diagnostics)
    elif document.cuda is not None:
        function = document.cuda.function_at(offset)
        if function is not None and function.is_kernel:
            actions.append(_command_action(
                f"HIERA: Optimize the module that launches `{function.name}`", OPTIMIZE_KIND,
                commands.OPTIMIZE_KERNEL, [document.uri, function.name]))
    only = params.context.only
    if only:
        actions = [action for action in actions
                   if any(action.kind == kind or action.kind.startswith(f"{kind}.") for kind in only)]
    return actions


def _reverify_kind(diagnostics: list[types.Diagnostic]) -> str:
    fixes = any(diagnostic.source == "hiera" and diagnostic.code in _REVERIFY_CODES for diagnostic in diagnostics)
    return types.CodeActionKind.QuickFix if fixes else VERIFY_KIND


def _module_actions(ls: ServerContext, document: Document, cls: PyClass,
                    diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
    arguments = [document.uri, cls.name]
    actions = [
        _command_action("HIERA: Optimize this module", OPTIMIZE_KIND, commands.OPTIMIZE, arguments),
        _command_action("HIERA: Profile this module", PROFILE_KIND, commands.PROFILE, arguments),
        _command_action("HIERA: Show contract spec", SPEC_KIND, commands.SHOW_SPEC, arguments),
    ]
    record = read_record(document.path, cls.name)
    pending = proposals.pending_proposal(ls, document.path, record)
    if pending is not None:
        actions += _apply_action(ls, document.path, pending, cls.name, record.proposal)
    target = proposal_path_for(document.path)
    if os.path.isfile(target):
        actions.append(_command_action("HIERA: Re-verify proposal", _reverify_kind(diagnostics),
                                       commands.VERIFY_PROPOSAL, [from_fs_path(target)]))
    return actions


def _apply_action(ls: ServerContext, source_path: str, text: str, class_name: str,
                  proposal: ProposalEntry | None) -> list[types.CodeAction]:
    """The proposal edit as an action; none for clients that cannot create files through edits."""
    speedup = f" ({proposal.speedup:.2f}x)" if proposal and proposal.speedup is not None else ""
    target = proposal_path_for(source_path)
    title = f"HIERA: Apply proposal{speedup} -> {os.path.basename(target)}"
    if proposals.can_preview(ls.client_capabilities):  # the client's diff and confirmation, via the command
        return [_command_action(title, APPLY_KIND, commands.APPLY_PROPOSAL, [from_fs_path(source_path), class_name])]
    edit = proposals.proposal_edit(ls, target, text, f"HIERA proposal for {class_name}{speedup}")
    if edit is None:
        return []
    return [types.CodeAction(title=title, kind=APPLY_KIND, edit=edit)]


def _proposal_file_actions(ls: ServerContext, document: Document,
                           diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
    """In a run's proposal.py: apply it; in `<stem>_hiera.py`: re-verify it, or apply a newer one."""
    header = document.python.proposal
    record = next((r for r in all_records(document.path)
                   if r.proposal and r.proposal.run == header.run and r.file), None)
    actions = []
    if record is not None and os.path.normpath(record.proposal.path) == document.path:
        actions += _apply_action(ls, record.file, document.text, record.class_name or header.reference_class,
                                 record.proposal)
    elif os.path.basename(document.path).endswith("_hiera.py"):
        actions.append(_command_action("HIERA: Re-verify proposal", _reverify_kind(diagnostics),
                                       commands.VERIFY_PROPOSAL, [document.uri]))
        source = document.path[:-len("_hiera.py")] + ".py"
        if os.path.isfile(source):
            current = read_record(source, header.reference_class)
            pending = proposals.pending_proposal(ls, source, current)
            if pending is not None:
                actions += _apply_action(ls, source, pending, header.reference_class, current.proposal)
    return actions

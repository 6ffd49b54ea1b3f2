'use strict';
// Which two files "HIERA: Show proposal diff" compares (pure path logic on URI paths, always
// '/'-separated, also on Windows), and the server's hiera/previewProposal: the reference and the
// proposal side by side, written on one confirmation. The vscode API is passed in, so node --test
// covers this module with a stand-in.

const path = require('path').posix;

const PROPOSAL_SUFFIX = '_hiera.py';

/** `<stem>_hiera.py` next to the module's file, as hiera_core.propose.proposal_file.proposal_path_for names it. */
function proposalPathFor(sourcePath) {
  const extension = path.extname(sourcePath);
  return sourcePath.slice(0, sourcePath.length - extension.length) + PROPOSAL_SUFFIX;
}

/**
 * { source, proposal } paths for a file the user is looking at: a module's file gives its
 * proposal, a proposal gives its module. null for anything else (a .cu file has no proposal of
 * its own; its loading module does).
 */
function diffPair(filePath) {
  if (path.basename(filePath).endsWith(PROPOSAL_SUFFIX) && path.basename(filePath) !== PROPOSAL_SUFFIX) {
    return { source: filePath.slice(0, -PROPOSAL_SUFFIX.length) + '.py', proposal: filePath };
  }
  if (path.extname(filePath) === '.py') {
    return { source: filePath, proposal: proposalPathFor(filePath) };
  }
  return null;
}

/** The diff editor's title: "model.py ↔ model_hiera.py (HIERA proposal)". */
function diffTitle(pair) {
  return `${path.basename(pair.source)} ↔ ${path.basename(pair.proposal)} (HIERA proposal)`;
}

/** The scheme of the read-only documents that hold proposals not yet written. */
const PREVIEW_SCHEME = 'hiera-proposal';
const PREVIEW_REQUEST = 'hiera/previewProposal';
const APPLY = 'Apply';

/** Texts of the proposals being previewed, by preview URI: a TextDocumentContentProvider. */
class ProposalPreviews {
  constructor() {
    this.texts = new Map();
    this.count = 0;
  }

  /** A fresh URI for `text` (each preview its own, so an older diff keeps its content). */
  add(targetUri, text) {
    this.count += 1;
    const uri = targetUri.with({ scheme: PREVIEW_SCHEME, query: String(this.count) });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  provideTextDocumentContent(uri) {
    return this.texts.get(uri.toString()) || '';
  }
}

/**
 * Answers hiera/previewProposal { reference, target, text, label }: a diff with the reference on
 * the left and the proposal on the right, one "Apply" to write `target` with exactly `text`.
 * Resolves to { applied }.
 */
async function previewProposal(api, previews, params) {
  const reference = api.Uri.parse(params.reference);
  const target = api.Uri.parse(params.target);
  const shown = previews.add(target, params.text);
  const pair = { source: reference.path, proposal: target.path };
  await api.commands.executeCommand('vscode.diff', reference, shown, diffTitle(pair), { preview: true });
  const choice = await api.window.showInformationMessage(
    `${params.label}: write ${path.basename(target.path)}?`, APPLY, 'Discard');
  if (choice !== APPLY) {
    return { applied: false };
  }
  const edit = new api.WorkspaceEdit();
  const open = api.workspace.textDocuments.find((document) => document.uri.toString() === target.toString());
  if (open) {
    // An open editor keeps its undo history: replace its text, then save it as it now reads.
    edit.replace(target, new api.Range(0, 0, open.lineCount, 0), params.text);
  } else {
    edit.createFile(target, { overwrite: true, contents: Buffer.from(params.text, 'utf8') });
  }
  const applied = await api.workspace.applyEdit(edit);
  if (applied && open) {
    await open.save();
  }
  return { applied };
}

/**
 * A static client feature that tells the server this client previews proposals itself
 * (hiera_lsp.proposals.PREVIEW_CAPABILITY). vscode-languageclient 11 calls clear() on every
 * feature when the client stops: without it, stopping (a restart after a new hiera.pythonPath)
 * throws before the server is shut down, and the new server never starts.
 */
const proposalPreviewFeature = {
  fillClientCapabilities(capabilities) {
    capabilities.experimental = { ...(capabilities.experimental || {}), hieraProposalPreview: true };
  },
  initialize() {},
  getState() {
    return { kind: 'static' };
  },
  clear() {},
};

module.exports = {
  PROPOSAL_SUFFIX, PREVIEW_SCHEME, PREVIEW_REQUEST, ProposalPreviews, proposalPathFor, diffPair, diffTitle,
  previewProposal, proposalPreviewFeature,
};

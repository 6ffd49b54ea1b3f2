'use strict';
// Which two files "HIERA: Show proposal diff" compares. Pure path logic on URI paths (always
// '/'-separated, also on Windows), so node --test covers it.

const path = require('path').posix;

const PROPOSAL_SUFFIX = '_hiera.py';

/** `<stem>_hiera.py` next to the module's file, as hiera_core.proposal.proposal_path_for names it. */
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

module.exports = { PROPOSAL_SUFFIX, proposalPathFor, diffPair, diffTitle };

'use strict';
// What the extension relies on from hiera-lsp (server/hiera_lsp). tests/clients/ checks these
// names against the server's own modules, so a rename on either side fails CI, not a user's click.

/** VS Code language ids of the documents the server analyses (.py; .cu/.cuh). */
const LANGUAGES = ['python', 'cuda-cpp'];

/** The section the server asks for in workspace/configuration (hiera_lsp.settings.SECTION). */
const SETTINGS_SECTION = 'hiera';

/** Keys of hiera_lsp.settings.Settings: passed as initializationOptions and configuration. */
const SERVER_SETTINGS = ['model', 'baseUrl', 'budget', 'device', 'pythonPath', 'jobTimeLimit', 'maxParallelJobs'];

/** Settings only the extension reads: how to start the server, and LSP message tracing. */
const CLIENT_SETTINGS = ['serverPath', 'trace.server'];

/** workspace/executeCommand ids the extension sends itself (hiera_lsp.commands). */
const SERVER_COMMANDS = {
  listJobs: 'hiera.listJobs',
  cancelJob: 'hiera.cancelJob',
};

/** The kind of the server's "optimize" code actions (hiera_lsp.code_actions.OPTIMIZE_KIND). */
const OPTIMIZE_ACTION_KIND = 'refactor.hiera.optimize';

/** Job states in which hiera.cancelJob still has an effect (hiera_lsp.jobs). */
const ACTIVE_JOB_STATES = ['queued', 'running'];

/**
 * The extension's own commands. They must differ from the server's command ids: the language
 * client registers every id in executeCommandProvider as a VS Code command, and a duplicate
 * registration fails the client's start.
 */
const COMMANDS = {
  optimizeModule: 'hiera.vscode.optimizeModule',
  showProposalDiff: 'hiera.vscode.showProposalDiff',
  cancelJob: 'hiera.vscode.cancelJob',
  checkWorkspace: 'hiera.vscode.checkWorkspace',
};

/**
 * The command of the first optimize action the server offered at the cursor (hiera.optimize for a
 * module class, hiera.optimizeKernel for a __global__ kernel), or null when it offered none.
 */
function optimizeCommandFrom(actions) {
  for (const action of actions || []) {
    const isOptimize = action.kind === OPTIMIZE_ACTION_KIND || (action.kind || '').startsWith(`${OPTIMIZE_ACTION_KIND}.`);
    if (isOptimize && action.command && typeof action.command.command === 'string') {
      return { command: action.command.command, arguments: action.command.arguments || [] };
    }
  }
  return null;
}

module.exports = {
  LANGUAGES,
  SETTINGS_SECTION,
  SERVER_SETTINGS,
  CLIENT_SETTINGS,
  SERVER_COMMANDS,
  OPTIMIZE_ACTION_KIND,
  ACTIVE_JOB_STATES,
  COMMANDS,
  optimizeCommandFrom,
};

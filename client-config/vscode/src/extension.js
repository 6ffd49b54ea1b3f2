'use strict';
// The HIERA extension: starts hiera-lsp for Python and CUDA documents, and adds the commands
// "Optimize module", "Show proposal diff", "Cancel job" and "Check workspace", a status-bar item
// while jobs run, and an output channel with the server's log. Hover, diagnostics and code actions
// come from the server through the language client; a proposal comes as hiera/previewProposal,
// shown as a diff of the module and the proposal with one Apply (proposal.js).

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const {
  CloseAction,
  CodeActionRequest,
  CodeActionTriggerKind,
  ExecuteCommandRequest,
  LanguageClient,
  State,
} = require('vscode-languageclient/node');

const {
  CLIENT_SETTINGS,
  COMMANDS,
  LANGUAGES,
  OPTIMIZE_ACTION_KIND,
  SERVER_COMMANDS,
  SERVER_SETTINGS,
  SETTINGS_SECTION,
  optimizeCommandFrom,
} = require('./protocol');
const { RESTART_SETTINGS, probeCommand, serverLaunch, serverSettings, startFailureMessage } = require('./settings');
const {
  PREVIEW_REQUEST, PREVIEW_SCHEME, ProposalPreviews, diffPair, diffTitle, previewProposal, proposalPreviewFeature,
} = require('./proposal');
const { JobStatus, cancellableJobs } = require('./jobs');
const {
  GIT_FILES, checkCommand, hasReport, parseGitFiles, parseReport, problemsByFile, summary, summaryActions,
} = require('./workspaceCheck');

/** @type {HieraServer | undefined} */
let server;
const previews = new ProposalPreviews();

/** Runs the probe of a launch: { code, errorCode, stderr }, never rejects. */
function probe(launch, cwd) {
  const { command, args } = probeCommand(launch);
  return new Promise((resolve) => {
    childProcess.execFile(command, args, { cwd, timeout: 30000 }, (error, stdout, stderr) => {
      const spawnFailed = error && typeof error.code === 'string';
      resolve({ code: error ? (spawnFailed ? null : error.code) : 0, errorCode: spawnFailed ? error.code : undefined,
        stderr: String(stderr || '') });
    });
  });
}

/** The `hiera` section as a plain object of every key the extension knows. */
function readSection(scope) {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
  return Object.fromEntries([...SERVER_SETTINGS, ...CLIENT_SETTINGS].map((key) => [key, config.get(key)]));
}

/** What relative paths and ${workspaceFolder} in path settings resolve against. */
function whereFor(folder) {
  const fallback = (vscode.workspace.workspaceFolders || []).find((each) => each.uri.scheme === 'file');
  const chosen = folder || fallback;
  return { workspaceFolder: chosen ? chosen.uri.fsPath : undefined, home: os.homedir(), platform: process.platform };
}

/** The language client, across restarts (a new interpreter or server path needs a new process). */
class HieraServer {
  constructor(output, jobStatus, showJobs) {
    this.output = output;
    this.jobStatus = jobStatus;
    this.showJobs = showJobs;
    this.client = undefined;
  }

  async start() {
    const where = whereFor();
    const launch = serverLaunch(readSection(), where);
    const failure = startFailureMessage(launch, await probe(launch, where.workspaceFolder));
    if (failure) {
      this.output.error(failure);
      this.reportStartFailure(failure); // not awaited: activation must not wait on the user
      return;
    }
    let running = false;
    let defaults; // the client's own restart policy, one instance so its crash count adds up
    const client = new LanguageClient('hiera', 'HIERA', {
      command: launch.command,
      args: launch.args,
      options: { cwd: where.workspaceFolder },
    }, {
      documentSelector: LANGUAGES.flatMap((language) => [
        { scheme: 'file', language },
        { scheme: 'untitled', language },
      ]),
      outputChannel: this.output,
      errorHandler: {
        error: (error, message, count) => {
          defaults = defaults || client.createDefaultErrorHandler();
          return defaults.error(error, message, count);
        },
        // A server that dies before it ever answered would die again: say why once, no restarts.
        closed: () => {
          defaults = defaults || client.createDefaultErrorHandler();
          if (running) {
            return defaults.closed();
          }
          const tried = [launch.command, ...launch.args].join(' ');
          return { action: CloseAction.DoNotRestart, message: `HIERA: the language server (${tried}) exited at start; see Output ▸ HIERA.` };
        },
      },
      initializationOptions: () => serverSettings(readSection(), whereFor()),
      synchronize: { configurationSection: SETTINGS_SECTION },
      middleware: {
        workspace: {
          // Answer with the same normalised settings as initializationOptions (expanded paths).
          configuration: async (params, token, next) => {
            const answers = await next(params, token);
            if (!Array.isArray(answers)) {
              return answers;
            }
            return params.items.map((item, index) => (item.section === SETTINGS_SECTION
              ? serverSettings(readSection(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined), whereFor())
              : answers[index]));
          },
        },
        // Every job reports through a server-created work-done token. The status-bar item shows
        // it (with percentage and a click to cancel) instead of the client's own window progress,
        // which would show the same job a second time; only 'end' reaches that, to clean it up.
        handleWorkDoneProgress: (token, params, next) => {
          if (this.jobStatus.update(String(token), params)) {
            this.showJobs();
          }
          if (params.kind === 'end') {
            next(token, params);
          }
        },
      },
    });
    client.registerFeature(proposalPreviewFeature);
    client.onRequest(PREVIEW_REQUEST, (params) => previewProposal(vscode, previews, params));
    client.onDidChangeState((event) => {
      running = running || event.newState === State.Running;
      if (event.newState === State.Stopped && this.jobStatus.clear()) {
        this.showJobs(); // the server took its jobs with it
      }
    });
    this.client = client;
    this.output.info(`starting ${[launch.command, ...launch.args].join(' ')}`);
    try {
      await client.start();
    } catch (error) {
      // The client rejects with whatever the transport threw, not always an Error; the log has the rest.
      const reason = error instanceof Error && error.message ? error.message : 'it did not answer initialize';
      this.reportStartFailure(startFailureMessage(launch, { code: 1, stderr: reason }));
    }
  }

  async reportStartFailure(message) {
    const choice = await vscode.window.showErrorMessage(message, 'Open settings', 'Show log');
    if (choice === 'Open settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SETTINGS_SECTION}.`);
    } else if (choice === 'Show log') {
      this.output.show();
    }
  }

  async stop() {
    const client = this.client;
    this.client = undefined;
    if (client && client.needsStop()) {
      await client.stop();
    }
  }

  async restart() {
    try {
      await this.stop();
    } catch (error) {
      // Whatever went wrong with the old server, the user asked for a new one.
      this.output.error(`stopping the language server failed: ${error.message}`);
    }
    await this.start();
  }

  /** The running client, or undefined after telling the user why there is none. */
  running() {
    if (this.client && this.client.state === State.Running) {
      return this.client;
    }
    vscode.window.showErrorMessage('HIERA: the language server is not running; see the HIERA output for why.');
    this.output.show(true);
    return undefined;
  }
}

/** workspace/executeCommand, sent directly: it needs no VS Code command registered for it. */
function executeServerCommand(client, command, args) {
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
}

async function optimizeModule() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !LANGUAGES.includes(editor.document.languageId)) {
    vscode.window.showInformationMessage('HIERA: open a Python module (or a CUDA file) and put the cursor in the class to optimize.');
    return;
  }
  const document = editor.document;
  if (document.isUntitled) {
    vscode.window.showInformationMessage('HIERA: save the file first; jobs run the module from disk.');
    return;
  }
  const client = server.running();
  if (!client) {
    return;
  }
  if (document.isDirty) {
    await document.save(); // jobs read the file on disk, so run on what the user sees
  }
  // The server knows which class (or kernel) is at the cursor: ask for its optimize action.
  const actions = await client.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) },
    range: client.code2ProtocolConverter.asRange(editor.selection),
    context: { diagnostics: [], only: [OPTIMIZE_ACTION_KIND], triggerKind: CodeActionTriggerKind.Invoked },
  });
  const command = optimizeCommandFrom(actions);
  if (!command) {
    vscode.window.showInformationMessage(document.languageId === 'python'
      ? 'HIERA: put the cursor inside an nn.Module subclass, then run "HIERA: Optimize module" again.'
      : 'HIERA: put the cursor inside a __global__ kernel, then run "HIERA: Optimize module" again.');
    return;
  }
  const job = await executeServerCommand(client, command.command, command.arguments);
  if (job && job.id) {
    server.output.info(`${job.id}: ${job.title} (${job.state})`);
  }
}

async function exists(uri) {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

async function showProposalDiff(resource) {
  const uri = resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
  const pair = uri ? diffPair(uri.path) : null;
  if (!pair) {
    vscode.window.showInformationMessage('HIERA: open a Python module or its `<stem>_hiera.py` proposal to compare them.');
    return;
  }
  const source = uri.with({ path: pair.source });
  const proposal = uri.with({ path: pair.proposal });
  if (!(await exists(proposal))) {
    vscode.window.showInformationMessage(`HIERA: no proposal ${path.posix.basename(pair.proposal)} yet; `
      + 'run "HIERA: Optimize module" with the cursor in the module\'s class.');
    return;
  }
  if (!(await exists(source))) {
    vscode.window.showWarningMessage(`HIERA: the proposal's module ${path.posix.basename(pair.source)} is missing.`);
    return;
  }
  await vscode.commands.executeCommand('vscode.diff', source, proposal, diffTitle(pair));
}

async function cancelJob() {
  const client = server.running();
  if (!client) {
    return;
  }
  const items = cancellableJobs(await executeServerCommand(client, SERVER_COMMANDS.listJobs, []));
  if (items.length === 0) {
    vscode.window.showInformationMessage('HIERA: no job is queued or running.');
    return;
  }
  // A pick even for one job: clicking the status bar must not kill a long run by accident.
  const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Cancel which HIERA job?' });
  if (!picked) {
    return;
  }
  const answer = await executeServerCommand(client, SERVER_COMMANDS.cancelJob, [picked.jobId]);
  if (!answer || !answer.cancelled) {
    vscode.window.showInformationMessage(`HIERA: ${picked.label} had already finished.`);
  }
}

/** Runs a process to completion; cancelling the token kills it. */
function run(command, args, cwd, token) {
  return new Promise((resolve, reject) => {
    const child = childProcess.spawn(command, args, { cwd, env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const cancelled = token.onCancellationRequested(() => child.kill());
    child.on('error', (error) => {
      cancelled.dispose();
      reject(new Error(`could not run ${command}: ${error.message}`));
    });
    child.on('close', (code) => {
      cancelled.dispose();
      resolve({ code, stdout, stderr });
    });
  });
}

/** The git repository's tracked and untracked (not ignored) sources; null when git cannot say (walk instead). */
async function gitFiles(folderPath, token) {
  try {
    const listed = await run(GIT_FILES.command, GIT_FILES.args, folderPath, token);
    return listed.code === 0 ? parseGitFiles(listed.stdout) : null;
  } catch {
    return null; // no git on PATH
  }
}

function toDiagnostic(problem) {
  const { start, end } = problem.range;
  const severity = { error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning,
    info: vscode.DiagnosticSeverity.Information }[problem.severity];
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(start.line, start.character, end.line, end.character), problem.message, severity);
  diagnostic.source = 'hiera';
  diagnostic.code = problem.code;
  return diagnostic;
}

async function checkWorkspace(checkProblems, output) {
  const folders = (vscode.workspace.workspaceFolders || []).filter((folder) => folder.uri.scheme === 'file');
  if (folders.length === 0) {
    vscode.window.showInformationMessage('HIERA: open a folder to check it.');
    return;
  }
  const reports = await vscode.window.withProgress({
    location: vscode.ProgressLocation.Notification, title: 'HIERA: checking', cancellable: true,
  }, async (progress, token) => {
    const done = [];
    for (const folder of folders) {
      progress.report({ message: folder.name });
      const folderPath = folder.uri.fsPath;
      const launch = serverLaunch(readSection(folder.uri), whereFor(folder));
      const files = fs.existsSync(path.join(folderPath, '.git')) ? await gitFiles(folderPath, token) : null;
      if (files && files.length === 0) {
        done.push({ filesChecked: 0, problems: [] });
        continue;
      }
      const check = checkCommand(launch, files);
      output.info(`checking ${folderPath}: ${[check.command, ...check.args].join(' ')}`);
      const result = await run(check.command, check.args, folderPath, token);
      if (token.isCancellationRequested) {
        return undefined;
      }
      if (!hasReport(result.code)) {
        const reason = result.stderr.trim().split('\n').pop() || `exit status ${result.code}`;
        throw new Error(`hiera-lsp --check failed in ${folder.name}: ${reason}`);
      }
      done.push(parseReport(result.stdout, folderPath));
    }
    return done;
  });
  if (!reports) {
    return;
  }
  // Open documents already have the server's live diagnostics for the same rules: no duplicates.
  const open = new Set(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file').map((d) => d.uri.fsPath));
  checkProblems.clear();
  for (const [file, problems] of problemsByFile(reports.flatMap((report) => report.problems))) {
    if (!open.has(file)) {
      checkProblems.set(vscode.Uri.file(file), problems.map(toDiagnostic));
    }
  }
  const choice = await vscode.window.showInformationMessage(summary(reports), ...summaryActions(reports));
  if (choice === 'Show problems') {
    await vscode.commands.executeCommand('workbench.actions.view.problems');
  }
}

/** Registers a command whose failures (a refused request, a server gone) become a message and a log line. */
function registerCommand(id, handler, output) {
  return vscode.commands.registerCommand(id, async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      output.error(`${id}: ${error.message}`);
      vscode.window.showErrorMessage(`HIERA: ${error.message}`);
      return undefined;
    }
  });
}

async function activate(context) {
  const output = vscode.window.createOutputChannel('HIERA', { log: true });
  const jobStatus = new JobStatus();
  const statusItem = vscode.window.createStatusBarItem('hiera.jobs', vscode.StatusBarAlignment.Left, 0);
  statusItem.name = 'HIERA jobs';
  statusItem.command = COMMANDS.cancelJob;
  const showJobs = () => {
    const view = jobStatus.view();
    if (view) {
      statusItem.text = view.text;
      statusItem.tooltip = view.tooltip;
      statusItem.show();
    } else {
      statusItem.hide();
    }
  };
  const checkProblems = vscode.languages.createDiagnosticCollection('hiera-check');
  server = new HieraServer(output, jobStatus, showJobs);

  context.subscriptions.push(
    output,
    statusItem,
    checkProblems,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    registerCommand(COMMANDS.optimizeModule, optimizeModule, output),
    registerCommand(COMMANDS.showProposalDiff, showProposalDiff, output),
    registerCommand(COMMANDS.cancelJob, cancelJob, output),
    registerCommand(COMMANDS.checkWorkspace, () => checkWorkspace(checkProblems, output), output),
    // Once open, a document gets the server's live diagnostics; the check's snapshot would double them.
    vscode.workspace.onDidOpenTextDocument((document) => checkProblems.delete(document.uri)),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      const changed = RESTART_SETTINGS.filter((key) => event.affectsConfiguration(`${SETTINGS_SECTION}.${key}`));
      if (changed.length === 0) {
        return;
      }
      const choice = await vscode.window.showInformationMessage(
        `HIERA: ${changed.map((key) => `${SETTINGS_SECTION}.${key}`).join(' and ')} changed. `
          + 'Restart the language server with it? Running jobs are stopped.', 'Restart');
      if (choice === 'Restart') {
        await server.restart();
      }
    }),
  );
  await server.start();
}

async function deactivate() {
  if (server) {
    await server.stop();
  }
}

module.exports = { activate, deactivate };

'use strict';
// The `hiera.*` settings -> what the server is sent, and how the server is started.
// No vscode import here: node --test covers this module directly.

const path = require('path');
const { SERVER_SETTINGS } = require('./protocol');

/**
 * A path setting as a file to run: expands ${workspaceFolder}, ${userHome} and a leading ~
 * (VS Code expands none of these in extension settings), and takes a relative path with a
 * directory part (".venv/bin/python") from the workspace folder. A bare name ("python3") is left
 * alone, to be found on PATH.
 * `where` = { workspaceFolder (may be undefined), home, platform (process.platform) }.
 */
function expandPath(value, where) {
  const paths = where.platform === 'win32' ? path.win32 : path.posix;
  let expanded = value.replace(/\$\{userHome\}/g, where.home);
  if (where.workspaceFolder) {
    expanded = expanded.replace(/\$\{workspaceFolder\}/g, where.workspaceFolder);
  }
  if (expanded === '~' || expanded.startsWith('~/') || expanded.startsWith('~\\')) {
    expanded = paths.join(where.home, expanded.slice(1));
  }
  if (paths.isAbsolute(expanded)) {
    return paths.normalize(expanded); // "${workspaceFolder}/../venv/bin/python" reads better in logs without ".."
  }
  const hasDirectory = expanded.includes('/') || (where.platform === 'win32' && expanded.includes('\\'));
  return hasDirectory && where.workspaceFolder ? paths.resolve(where.workspaceFolder, expanded) : expanded;
}

/**
 * The server's settings (hiera_lsp.settings.Settings keys) from the `hiera` section, sent both as
 * initializationOptions and as the answer to workspace/configuration so the two never disagree.
 * Every key is present: null (unset budget) and "" (no model, default device, default
 * interpreter) are what the server treats as "use the default".
 */
function serverSettings(section, where) {
  const settings = {};
  for (const key of SERVER_SETTINGS) {
    const value = section[key] === undefined ? null : section[key];
    settings[key] = key === 'pythonPath' && typeof value === 'string' && value !== '' ? expandPath(value, where) : value;
  }
  return settings;
}

/** The interpreter used when hiera.pythonPath is empty: the one on PATH, named as each OS names it. */
function defaultPython(platform) {
  return platform === 'win32' ? 'python' : 'python3';
}

/**
 * How to start the server: hiera.serverPath (a `hiera-lsp` executable) when set, else
 * `<hiera.pythonPath> -m hiera_lsp`, which needs the `hiera[lsp]` distribution in that interpreter.
 */
function serverLaunch(section, where) {
  if (section.serverPath) {
    return { command: expandPath(section.serverPath, where), args: [] };
  }
  const python = section.pythonPath ? expandPath(section.pythonPath, where) : defaultPython(where.platform);
  return { command: python, args: ['-m', 'hiera_lsp'] };
}

/**
 * A quick run of the launch's interpreter (or hiera-lsp) that fails the way the server would fail
 * at start: no such file, or no hiera_lsp in that environment. Checked before the language client
 * starts, so a wrong interpreter is one message, not a crash loop of the client's restarts.
 */
function probeCommand(launch) {
  if (launch.args.length === 2 && launch.args[0] === '-m') {
    return { command: launch.command, args: ['-c', `import ${launch.args[1]}`] };
  }
  return { command: launch.command, args: ['--help'] };
}

/**
 * The start-failure message for a failed probe, naming what was tried and the fix; null when the
 * probe passed. `result` = { code, errorCode (e.g. 'ENOENT' when spawning failed), stderr }.
 */
function startFailureMessage(launch, result) {
  if (result.code === 0 && !result.errorCode) {
    return null;
  }
  const tried = [launch.command, ...launch.args].join(' ');
  let reason;
  if (result.errorCode === 'ENOENT') {
    reason = `${launch.command} was not found`;
  } else if (result.errorCode) {
    reason = `${launch.command} could not be run (${result.errorCode})`;
  } else {
    const lastLine = (result.stderr || '').trim().split('\n').pop();
    reason = lastLine || `it exited with status ${result.code}`;
  }
  return `HIERA: cannot start the language server \`${tried}\`: ${reason}. `
    + 'Set hiera.pythonPath to an interpreter that has HIERA (`pip install hiera`), or hiera.serverPath to its '
    + '`hiera-lsp`, in User or Remote settings.';
}

/** Settings whose change needs a new server process (the others reach the running server). */
const RESTART_SETTINGS = ['serverPath', 'pythonPath'];

module.exports = {
  expandPath, serverSettings, serverLaunch, defaultPython, probeCommand, startFailureMessage, RESTART_SETTINGS,
};

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

/** Settings whose change needs a new server process (the others reach the running server). */
const RESTART_SETTINGS = ['serverPath', 'pythonPath'];

module.exports = { expandPath, serverSettings, serverLaunch, defaultPython, RESTART_SETTINGS };

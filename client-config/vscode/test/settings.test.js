'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { expandPath, probeCommand, serverSettings, serverLaunch, startFailureMessage } = require('../src/settings');
const { SERVER_SETTINGS } = require('../src/protocol');

const linux = { workspaceFolder: '/work/proj', home: '/home/ada', platform: 'linux' };
const windows = { workspaceFolder: 'C:\\proj', home: 'C:\\Users\\ada', platform: 'win32' };

test('the default settings send every server key, unset ones as null or empty', () => {
  const section = { model: '', baseUrl: '', budget: null, device: '', pythonPath: '', jobTimeLimit: 3600, maxParallelJobs: 1,
    serverPath: '', 'trace.server': 'off' };
  assert.deepEqual(serverSettings(section, linux), {
    model: '', baseUrl: '', budget: null, device: '', pythonPath: '', jobTimeLimit: 3600, maxParallelJobs: 1,
  });
});

test('client-only settings never reach the server', () => {
  const sent = serverSettings({ serverPath: '/opt/hiera-lsp', 'trace.server': 'verbose', budget: 4 }, linux);
  assert.deepEqual(Object.keys(sent).sort(), [...SERVER_SETTINGS].sort());
  assert.equal(sent.budget, 4);
  assert.equal(sent.model, null); // a key missing from the section is sent as null: the server keeps its default
});

test('pythonPath is sent expanded, so jobs run the interpreter the server runs on', () => {
  const sent = serverSettings({ pythonPath: '${workspaceFolder}/.venv/bin/python', model: 'qwen', budget: 8,
    device: 'cuda', baseUrl: 'http://localhost:8000/v1', jobTimeLimit: 90, maxParallelJobs: 2 }, linux);
  assert.deepEqual(sent, { model: 'qwen', baseUrl: 'http://localhost:8000/v1', budget: 8, device: 'cuda',
    pythonPath: '/work/proj/.venv/bin/python', jobTimeLimit: 90, maxParallelJobs: 2 });
});

test('path settings: variables, ~, workspace-relative paths; bare names stay for PATH lookup', () => {
  assert.equal(expandPath('${userHome}/envs/h/bin/python', linux), '/home/ada/envs/h/bin/python');
  assert.equal(expandPath('~/envs/h/bin/python', linux), '/home/ada/envs/h/bin/python');
  assert.equal(expandPath('.venv/bin/python', linux), '/work/proj/.venv/bin/python');
  assert.equal(expandPath('python3.11', linux), 'python3.11');
  assert.equal(expandPath('/usr/bin/python3', linux), '/usr/bin/python3');
  assert.equal(expandPath('${workspaceFolder}/../envs/h/bin/python', linux), '/work/envs/h/bin/python');
  assert.equal(expandPath('.venv\\Scripts\\python.exe', windows), 'C:\\proj\\.venv\\Scripts\\python.exe');
  assert.equal(expandPath('~\\envs\\python.exe', windows), 'C:\\Users\\ada\\envs\\python.exe');
});

test('without a workspace folder, ${workspaceFolder} and relative paths are left as written', () => {
  const noFolder = { ...linux, workspaceFolder: undefined };
  assert.equal(expandPath('${workspaceFolder}/.venv/bin/python', noFolder), '${workspaceFolder}/.venv/bin/python');
  assert.equal(expandPath('.venv/bin/python', noFolder), '.venv/bin/python');
});

test('the server starts as `<python> -m hiera_lsp`, python3 (python on Windows) by default', () => {
  assert.deepEqual(serverLaunch({ pythonPath: '', serverPath: '' }, linux), { command: 'python3', args: ['-m', 'hiera_lsp'] });
  assert.deepEqual(serverLaunch({}, windows), { command: 'python', args: ['-m', 'hiera_lsp'] });
  assert.deepEqual(serverLaunch({ pythonPath: '.venv/bin/python' }, linux),
    { command: '/work/proj/.venv/bin/python', args: ['-m', 'hiera_lsp'] });
});

test('serverPath wins over pythonPath and is started without arguments', () => {
  assert.deepEqual(serverLaunch({ pythonPath: '/usr/bin/python3', serverPath: '~/.local/bin/hiera-lsp' }, linux),
    { command: '/home/ada/.local/bin/hiera-lsp', args: [] });
});

test('the interpreter is probed for hiera_lsp before the client starts; serverPath with --help', () => {
  assert.deepEqual(probeCommand({ command: '/venv/bin/python', args: ['-m', 'hiera_lsp'] }),
    { command: '/venv/bin/python', args: ['-c', 'import hiera_lsp'] });
  assert.deepEqual(probeCommand({ command: '/opt/hiera-lsp', args: [] }), { command: '/opt/hiera-lsp', args: ['--help'] });
});

test('a failed probe is one message naming the interpreter tried, why, and the setting to fix', () => {
  const launch = { command: 'python3', args: ['-m', 'hiera_lsp'] };
  assert.equal(startFailureMessage(launch, { code: 0, stderr: '' }), null);
  const missing = startFailureMessage(launch, { code: 1, stderr: 'Traceback ...\nModuleNotFoundError: No module named \'hiera_lsp\'\n' });
  assert.match(missing, /^HIERA: cannot start the language server `python3 -m hiera_lsp`: ModuleNotFoundError: No module named 'hiera_lsp'\. /);
  assert.match(missing, /Set hiera\.pythonPath to an interpreter that has HIERA \(`pip install hiera`\)/);
  assert.match(startFailureMessage({ command: '/nope/python', args: ['-m', 'hiera_lsp'] }, { code: null, errorCode: 'ENOENT' }),
    /`\/nope\/python -m hiera_lsp`: \/nope\/python was not found\./);
});

test('interpreter paths set in User settings reach a remote window (code-server, Remote-SSH)', () => {
  // VS Code applies local User settings in a remote window only for these scopes
  // (LOCAL_MACHINE_SCOPES in src/vs/workbench/services/configuration/common/configuration.ts):
  // `machine` and `machine-overridable` values are dropped there, and the server started on python3.
  const userScopesInRemoteWindows = ['application', 'window', 'resource', 'language-overridable'];
  const { properties } = require('../package.json').contributes.configuration;
  for (const key of ['hiera.pythonPath', 'hiera.serverPath']) {
    assert.ok(userScopesInRemoteWindows.includes(properties[key].scope || 'window'), `${key}: ${properties[key].scope}`);
    assert.notEqual(properties[key].scope, 'application', `${key} must stay settable per workspace folder`);
  }
});

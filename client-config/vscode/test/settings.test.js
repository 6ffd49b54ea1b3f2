'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { expandPath, serverSettings, serverLaunch } = require('../src/settings');
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

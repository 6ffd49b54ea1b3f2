'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { COMMANDS, optimizeCommandFrom } = require('../src/protocol');

const optimizeModel = { title: 'HIERA: Optimize this module', kind: 'refactor.hiera.optimize',
  command: { title: 'HIERA: Optimize this module', command: 'hiera.optimize', arguments: ['file:///w/m.py', 'Model'] } };

test("the optimize action's command is run as the server sent it", () => {
  const profile = { title: 'HIERA: Profile this module', kind: 'refactor.hiera.profile',
    command: { title: 'p', command: 'hiera.profile', arguments: ['file:///w/m.py', 'Model'] } };
  assert.deepEqual(optimizeCommandFrom([profile, optimizeModel]),
    { command: 'hiera.optimize', arguments: ['file:///w/m.py', 'Model'] });
});

test('a kernel in a .cu file gives hiera.optimizeKernel', () => {
  const kernel = { title: 'HIERA: Optimize the module that launches `saxpy`', kind: 'refactor.hiera.optimize',
    command: { title: 't', command: 'hiera.optimizeKernel', arguments: ['file:///w/k.cu', 'saxpy'] } };
  assert.deepEqual(optimizeCommandFrom([kernel]), { command: 'hiera.optimizeKernel', arguments: ['file:///w/k.cu', 'saxpy'] });
});

test('no optimize action (cursor outside a module class), or an edit-only action: nothing to run', () => {
  assert.equal(optimizeCommandFrom(null), null);
  assert.equal(optimizeCommandFrom([]), null);
  assert.equal(optimizeCommandFrom([{ title: 'Apply', kind: 'refactor.hiera.apply', edit: {} }]), null);
  assert.equal(optimizeCommandFrom([{ title: 'x', kind: 'refactor.hiera.optimizeish', command: { command: 'x' } }]), null);
});

test("the extension's command ids are its own: the client registers the server's ids", () => {
  for (const id of Object.values(COMMANDS)) {
    assert.match(id, /^hiera\.vscode\./);
  }
});

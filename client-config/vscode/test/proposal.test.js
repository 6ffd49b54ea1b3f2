'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {
  ProposalPreviews, diffPair, diffTitle, previewProposal, proposalPathFor, proposalPreviewFeature,
} = require('../src/proposal');

test("a module's proposal is <stem>_hiera.py next to it", () => {
  assert.equal(proposalPathFor('/w/models/softmax.py'), '/w/models/softmax_hiera.py');
  assert.equal(proposalPathFor('/w/models/v1.2.py'), '/w/models/v1.2_hiera.py');
  assert.equal(proposalPathFor('/c:/Users/ada/model.py'), '/c:/Users/ada/model_hiera.py');
});

test('from the module: left is the module, right its proposal', () => {
  assert.deepEqual(diffPair('/w/models/softmax.py'), { source: '/w/models/softmax.py', proposal: '/w/models/softmax_hiera.py' });
});

test('from the proposal: the same pair, so the diff reads the same way round', () => {
  assert.deepEqual(diffPair('/w/models/softmax_hiera.py'), { source: '/w/models/softmax.py', proposal: '/w/models/softmax_hiera.py' });
});

test('a file named just _hiera.py is a module, not a proposal of "".py', () => {
  assert.deepEqual(diffPair('/w/_hiera.py'), { source: '/w/_hiera.py', proposal: '/w/_hiera_hiera.py' });
});

test('a directory named *_hiera.py does not confuse the file name', () => {
  assert.deepEqual(diffPair('/w/x_hiera.py/model.py'), { source: '/w/x_hiera.py/model.py', proposal: '/w/x_hiera.py/model_hiera.py' });
});

test('CUDA sources and other files have no proposal of their own', () => {
  assert.equal(diffPair('/w/kernels/softmax.cu'), null);
  assert.equal(diffPair('/w/kernels/softmax.cuh'), null);
  assert.equal(diffPair('/w/README.md'), null);
});

test('the diff title names both files', () => {
  assert.equal(diffTitle(diffPair('/w/softmax.py')), 'softmax.py ↔ softmax_hiera.py (HIERA proposal)');
});

/** A stand-in for the vscode API: records what the preview asks of it. */
function fakeVscode({ choice, openText }) {
  const calls = [];
  class Uri {
    constructor(scheme, path, query = '') { Object.assign(this, { scheme, path, query }); }
    static parse(text) { const [, scheme, path] = text.match(/^(\w[\w-]*):\/\/(.*)$/); return new Uri(scheme, path); }
    with(change) { return new Uri(change.scheme ?? this.scheme, change.path ?? this.path, change.query ?? this.query); }
    toString() { return `${this.scheme}://${this.path}${this.query ? `?${this.query}` : ''}`; }
  }
  const open = openText === undefined ? [] : [{ uri: Uri.parse('file:///w/m_hiera.py'), lineCount: openText.split('\n').length,
    save: async () => { calls.push(['save']); return true; } }];
  return {
    calls,
    api: {
      Uri,
      Range: class { constructor(...args) { this.args = args; } },
      WorkspaceEdit: class {
        constructor() { this.ops = []; }
        createFile(uri, options) { this.ops.push(['createFile', uri.toString(), options.overwrite, Buffer.from(options.contents).toString()]); }
        replace(uri, range, text) { this.ops.push(['replace', uri.toString(), text]); }
      },
      commands: { executeCommand: async (...args) => { calls.push(['command', args[0], args[1].toString(), args[2].toString(), args[3]]); } },
      window: { showInformationMessage: async (...args) => { calls.push(['ask', ...args]); return choice; } },
      workspace: { textDocuments: open, applyEdit: async (edit) => { calls.push(['apply', ...edit.ops]); return true; } },
    },
  };
}

const params = { reference: 'file:///w/m.py', target: 'file:///w/m_hiera.py', text: 'proposal\n', label: 'HIERA proposal for Model (2.50x)' };

test('the preview is a diff of the reference (left) and the proposal (right), applied on one Apply', async () => {
  const { api, calls } = fakeVscode({ choice: 'Apply' });
  const previews = new ProposalPreviews();
  assert.deepEqual(await previewProposal(api, previews, params), { applied: true });
  const [diff, ask, apply] = calls;
  assert.deepEqual(diff, ['command', 'vscode.diff', 'file:///w/m.py', 'hiera-proposal:///w/m_hiera.py?1',
    'm.py ↔ m_hiera.py (HIERA proposal)']);
  assert.equal(previews.provideTextDocumentContent(api.Uri.parse('file:///w/m_hiera.py').with({ scheme: 'hiera-proposal', query: '1' })), 'proposal\n');
  assert.deepEqual(ask, ['ask', 'HIERA proposal for Model (2.50x): write m_hiera.py?', 'Apply', 'Discard']);
  assert.deepEqual(apply, ['apply', ['createFile', 'file:///w/m_hiera.py', true, 'proposal\n']]);
  assert.equal(calls.length, 3);
});

test('an open proposal is replaced in its editor and saved; declining writes nothing', async () => {
  const open = fakeVscode({ choice: 'Apply', openText: 'old\n' });
  assert.deepEqual(await previewProposal(open.api, new ProposalPreviews(), params), { applied: true });
  assert.deepEqual(open.calls.slice(2), [['apply', ['replace', 'file:///w/m_hiera.py', 'proposal\n']], ['save']]);

  const declined = fakeVscode({ choice: undefined });
  assert.deepEqual(await previewProposal(declined.api, new ProposalPreviews(), params), { applied: false });
  assert.equal(declined.calls.filter(([kind]) => kind === 'apply').length, 0);
});

test('the preview feature has every method the locked vscode-languageclient calls on a static feature', () => {
  // The client calls each one unguarded (clear() when it stops); one missing breaks a restart.
  const declarations = fs.readFileSync(
    path.join(__dirname, '..', 'node_modules', 'vscode-languageclient', 'lib', 'common', 'features.d.ts'), 'utf8');
  const body = declarations.match(/export interface StaticFeature \{([\s\S]*?)\n\}/)[1].replace(/\/\*\*[\s\S]*?\*\//g, '');
  const required = [...body.matchAll(/^\s*(\w+)\(/gm)].map((match) => match[1]);
  assert.ok(required.includes('clear'), `parsed ${required}`);
  for (const method of required) {
    assert.equal(typeof proposalPreviewFeature[method], 'function', `missing ${method}()`);
  }
  const capabilities = { experimental: { other: 1 } };
  proposalPreviewFeature.fillClientCapabilities(capabilities);
  assert.deepEqual(capabilities.experimental, { other: 1, hieraProposalPreview: true });
});

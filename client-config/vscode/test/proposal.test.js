'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { diffPair, diffTitle, proposalPathFor } = require('../src/proposal');

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

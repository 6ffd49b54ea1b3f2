'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { JobStatus, cancellableJobs } = require('../src/jobs');

test('no job: the status-bar item is hidden', () => {
  assert.equal(new JobStatus().view(), null);
});

test('one job: its title and percentage; the stage message in the tooltip', () => {
  const status = new JobStatus();
  assert.equal(status.update('hiera/job-1', { kind: 'begin', title: 'HIERA optimize Model (softmax.py)', message: 'queued', percentage: 0 }), true);
  assert.equal(status.update('hiera/job-1', { kind: 'report', message: 'verify: candidate 2/4', percentage: 42.4 }), true);
  const view = status.view();
  assert.equal(view.text, '$(sync~spin) HIERA optimize Model (softmax.py) 42% · verify');
  assert.match(view.tooltip, /^HIERA optimize Model \(softmax\.py\) 42%: verify: candidate 2\/4\n/);
  assert.match(view.tooltip, /Click to cancel a job\.$/);
});

test("while a step runs without events, the status bar shows the step's time, so it visibly moves", () => {
  const status = new JobStatus();
  status.update('t', { kind: 'begin', title: 'HIERA optimize Model (m.py)', percentage: 0 });
  status.update('t', { kind: 'report', message: 'verify: candidate 1/4 compiling', percentage: 57 });
  assert.equal(status.view().text, '$(sync~spin) HIERA optimize Model (m.py) 57% · verify');
  status.update('t', { kind: 'report', message: 'verify: candidate 1/4 compiling · 45 s', percentage: 57 });
  assert.equal(status.view().text, '$(sync~spin) HIERA optimize Model (m.py) 57% · verify · 45 s');
  status.update('t', { kind: 'report', message: 'verify: candidate 1/4 compiling · 3 min 05 s', percentage: 57 });
  assert.equal(status.view().text, '$(sync~spin) HIERA optimize Model (m.py) 57% · verify · 3 min 05 s');
  status.update('t', { kind: 'report', message: 'starting · 2 s', percentage: 57 });
  assert.equal(status.view().text, '$(sync~spin) HIERA optimize Model (m.py) 57% · starting · 2 s');
});

test('a report without a percentage keeps the last one', () => {
  const status = new JobStatus();
  status.update('t', { kind: 'begin', title: 'HIERA profile M (m.py)', percentage: 10 });
  status.update('t', { kind: 'report', message: 'profile: warm-up' });
  assert.equal(status.view().text, '$(sync~spin) HIERA profile M (m.py) 10% · profile');
});

test('a job without percentages shows no number', () => {
  const status = new JobStatus();
  status.update('t', { kind: 'begin', title: 'HIERA spec M (m.py)' });
  assert.equal(status.view().text, '$(sync~spin) HIERA spec M (m.py)');
});

test('several jobs: a count, and each job in the tooltip', () => {
  const status = new JobStatus();
  status.update('a', { kind: 'begin', title: 'HIERA optimize A (a.py)', percentage: 5 });
  status.update('b', { kind: 'begin', title: 'HIERA optimize B (b.py)', message: 'queued behind job-1 (optimize)', percentage: 0 });
  const view = status.view();
  assert.equal(view.text, '$(sync~spin) HIERA: 2 jobs');
  assert.deepEqual(view.tooltip.split('\n').slice(0, 2),
    ['HIERA optimize A (a.py) 5%', 'HIERA optimize B (b.py) 0%: queued behind job-1 (optimize)']);
});

test('end removes the job; the item hides once the last one ends', () => {
  const status = new JobStatus();
  status.update('a', { kind: 'begin', title: 'A', percentage: 0 });
  status.update('b', { kind: 'begin', title: 'B', percentage: 0 });
  assert.equal(status.update('a', { kind: 'end', message: 'HIERA optimize A: 2.10x faster' }), true);
  assert.equal(status.view().text, '$(sync~spin) B 0%');
  status.update('b', { kind: 'report', message: 'queued behind job-1 (optimize)' });
  assert.equal(status.view().text, '$(sync~spin) B 0% · queued behind job-1 (optimize)');
  status.update('b', { kind: 'report', message: 'a message far too long to fit in the status bar next to the title' });
  assert.equal(status.view().text, '$(sync~spin) B 0%');
  status.update('b', { kind: 'end' });
  assert.equal(status.view(), null);
});

test('progress for a token that never began (or already ended) changes nothing', () => {
  const status = new JobStatus();
  assert.equal(status.update('ghost', { kind: 'report', message: 'x', percentage: 50 }), false);
  assert.equal(status.update('ghost', { kind: 'end' }), false);
  assert.equal(status.view(), null);
});

test('clear forgets every job and says whether there were any', () => {
  const status = new JobStatus();
  assert.equal(status.clear(), false);
  status.update('a', { kind: 'begin', title: 'A' });
  assert.equal(status.clear(), true);
  assert.equal(status.view(), null);
});

test('only queued and running jobs can be picked for cancelling', () => {
  const listed = [
    { id: 'job-1', title: 'HIERA optimize A (a.py)', state: 'succeeded', progress: 1, stage: 'profile', message: 'done' },
    { id: 'job-2', title: 'HIERA optimize B (b.py)', state: 'running', progress: 0.375, stage: 'verify', message: 'candidate 3/8' },
    { id: 'job-3', title: 'HIERA profile B (b.py)', state: 'queued', progress: 0, stage: '', message: '' },
    { id: 'job-4', title: 'HIERA verify C (c.py)', state: 'cancelled', progress: 0.1, stage: 'verify', message: 'cancelled' },
  ];
  assert.deepEqual(cancellableJobs(listed), [
    { label: 'HIERA optimize B (b.py)', description: 'running, 38%, verify', detail: 'candidate 3/8', jobId: 'job-2' },
    { label: 'HIERA profile B (b.py)', description: 'queued', detail: undefined, jobId: 'job-3' },
  ]);
  assert.deepEqual(cancellableJobs([]), []);
});

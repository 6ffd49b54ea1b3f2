'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const {
  GIT_FILES, checkCommand, hasReport, parseGitFiles, parseReport, problemsByFile, summary, summaryActions,
} = require('../src/workspaceCheck');

// The shape `hiera-lsp --check --format json` prints (tests/clients/ checks it against the real CLI).
const REPORT = JSON.stringify({
  files_checked: 3,
  findings: [
    { code: 'HC102', severity: 'error', message: '__syncthreads() under a branch', path: './kernels/k.cu',
      start_byte: 75, end_byte: 90, start_line: 2, start_col_byte: 15, end_line: 2, end_col_byte: 30,
      hint: 'move the barrier out of the conditional', location: { line: 3, column: 16, end_line: 3, end_column: 31 } },
    { code: 'HC201', severity: 'warning', message: 'stale proposal', path: 'model_hiera.py',
      start_byte: 0, end_byte: 0, start_line: 0, start_col_byte: 0, end_line: 0, end_col_byte: 0,
      hint: '', location: { line: 1, column: 1, end_line: 1, end_column: 1 } },
    { code: 'HC103', severity: 'info', message: 'another', path: 'kernels/k.cu',
      start_byte: 0, end_byte: 1, start_line: 0, start_col_byte: 0, end_line: 0, end_col_byte: 1,
      hint: '', location: { line: 1, column: 1, end_line: 1, end_column: 2 } },
  ],
});

test('the check runs through the same launcher as the server', () => {
  assert.deepEqual(checkCommand({ command: '/v/bin/python', args: ['-m', 'hiera_lsp'] }, ['a.py']),
    { command: '/v/bin/python', args: ['-m', 'hiera_lsp', '--check', '--format', 'json', 'a.py'] });
  assert.deepEqual(checkCommand({ command: '/v/bin/hiera-lsp', args: [] }, ['k.cu']),
    { command: '/v/bin/hiera-lsp', args: ['--check', '--format', 'json', 'k.cu'] });
});

test('outside git the whole folder is walked; in git its tracked and untracked files, not the ignored ones', () => {
  assert.deepEqual(checkCommand({ command: 'python3', args: ['-m', 'hiera_lsp'] }, null).args.slice(-1), ['.']);
  assert.deepEqual(GIT_FILES.args.slice(0, 5), ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  assert.deepEqual(parseGitFiles('model.py\0kernels/k.cu\0model.py\0'), ['model.py', 'kernels/k.cu']);
});

test("HIERA's own .hiera/ folder (past runs' candidates and proposals) is not checked as the user's sources", () => {
  const listed = 'model.py\0.hiera/runs/r1/proposal.py\0sub/.hiera/cache/inductor/x.py\0sub/k.cu\0my.hiera.py\0';
  assert.deepEqual(parseGitFiles(listed), ['model.py', 'sub/k.cu', 'my.hiera.py']);
});

test('nothing to check says why instead of "0 files checked"', () => {
  assert.match(summary([{ filesChecked: 0, problems: [] }]), /^HIERA check: no \.py, \.cu or \.cuh file to check: none in the workspace folders outside \.gitignore/);
});

test('exit status 0 and 1 carry a report; 2 is an error', () => {
  assert.equal(hasReport(0), true);
  assert.equal(hasReport(1), true);
  assert.equal(hasReport(2), false);
  assert.equal(hasReport(null), false); // killed by a signal
});

test('findings become problems with absolute paths and 0-based ranges', () => {
  const { filesChecked, problems } = parseReport(REPORT, '/w/proj');
  assert.equal(filesChecked, 3);
  assert.deepEqual(problems[0], {
    file: '/w/proj/kernels/k.cu',
    range: { start: { line: 2, character: 15 }, end: { line: 2, character: 30 } },
    severity: 'error',
    code: 'HC102',
    message: '__syncthreads() under a branch\nmove the barrier out of the conditional',
  });
  assert.equal(problems[1].message, 'stale proposal'); // no hint, no trailing line
  assert.equal(problems[1].file, '/w/proj/model_hiera.py');
});

test("problems are grouped by file, './x' and 'x' being the same file", () => {
  const grouped = problemsByFile(parseReport(REPORT, '/w/proj').problems);
  assert.deepEqual([...grouped.keys()], ['/w/proj/kernels/k.cu', '/w/proj/model_hiera.py']);
  assert.deepEqual(grouped.get('/w/proj/kernels/k.cu').map((p) => p.code), ['HC102', 'HC103']);
});

test('output that is not the JSON report is an error that quotes it', () => {
  assert.throws(() => parseReport('/usr/bin/python3: No module named hiera_lsp\n', '/w'),
    /printed no JSON report: \/usr\/bin\/python3: No module named hiera_lsp/);
  assert.throws(() => parseReport('{"files": 1}', '/w'), /without "findings"/);
});

test('the summary counts files and severities over every folder', () => {
  const clean = parseReport('{"files_checked": 1, "findings": []}', '/w/other');
  assert.equal(summary([parseReport(REPORT, '/w/proj'), clean]),
    'HIERA check: 4 files checked, 1 error, 1 warning, 1 info');
  assert.equal(summary([clean]), 'HIERA check: 1 file checked, 0 errors, 0 warnings, 0 infos');
});

test('the summary offers to show problems only when there are some', () => {
  const clean = { filesChecked: 1, problems: [] };
  assert.deepEqual(summaryActions([{ filesChecked: 0, problems: [] }]), []);
  assert.deepEqual(summaryActions([clean]), []);
  assert.deepEqual(summaryActions([clean, parseReport(REPORT, '/w/proj')]), ['Show problems']);
});

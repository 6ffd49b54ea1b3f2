'use strict';
// "HIERA: Check workspace" runs the pre-commit check (`hiera-lsp --check --format json`) over each
// workspace folder and shows its findings as problems. This module builds the command and reads
// the report; the extension runs the process and owns the diagnostics. Pure, for node --test.

const path = require('path');

const SEVERITIES = ['error', 'warning', 'info'];

/**
 * In a git repository, the files to check: tracked and untracked ones, not the ignored ones
 * (a new project's files are often not added yet; pre-commit's own run checks the staged ones).
 */
const GIT_FILES = {
  command: 'git',
  args: ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.py', '*.cu', '*.cuh'],
};

/** HIERA's own state folder (caches, past runs' candidates and proposals): never the user's sources. */
const STATE_FOLDER = '.hiera';

/**
 * `git ls-files -z` output as paths, without duplicates (a file both tracked and modified is
 * listed once), and without `.hiera/`: in a repository with no .gitignore for it, its untracked
 * copies of past candidates would be checked and flagged as proposals whose module is missing.
 */
function parseGitFiles(stdout) {
  return [...new Set(stdout.split('\0').filter((file) => file && !file.split('/').includes(STATE_FOLDER)))];
}

/**
 * The check's command line, from the server's launch command: the git repository's files
 * (`files`, from GIT_FILES), or, outside git (`files` null), the whole folder walked.
 */
function checkCommand(launch, files) {
  return {
    command: launch.command,
    args: [...launch.args, '--check', '--format', 'json', ...(files || ['.'])],
  };
}

/** Exit status 0 (clean) and 1 (findings) come with a report; 2 is a usage or internal error. */
function hasReport(exitCode) {
  return exitCode === 0 || exitCode === 1;
}

/**
 * The JSON report as { filesChecked, problems }: each problem has an absolute `file`, an LSP-style
 * 0-based `range`, `severity` ("error" | "warning" | "info"), `code` and `message` (worded as the
 * server words the same finding in the editor). The report's columns count code points; VS Code
 * counts UTF-16 units, which differ only after an astral character (an emoji) on the same line.
 */
function parseReport(stdout, folderPath) {
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    throw new Error(`hiera-lsp --check printed no JSON report: ${stdout.trim().split('\n')[0] || '(nothing)'}`);
  }
  if (!report || !Array.isArray(report.findings)) {
    throw new Error('hiera-lsp --check printed JSON without "findings"');
  }
  const problems = report.findings.map((finding) => ({
    file: path.resolve(folderPath, finding.path),
    range: {
      start: { line: finding.location.line - 1, character: finding.location.column - 1 },
      end: { line: finding.location.end_line - 1, character: finding.location.end_column - 1 },
    },
    severity: SEVERITIES.includes(finding.severity) ? finding.severity : 'warning',
    code: finding.code,
    message: finding.hint ? `${finding.message}\n${finding.hint}` : finding.message,
  }));
  return { filesChecked: report.files_checked, problems };
}

/** problems grouped by file, in report order. */
function problemsByFile(problems) {
  const byFile = new Map();
  for (const problem of problems) {
    if (!byFile.has(problem.file)) {
      byFile.set(problem.file, []);
    }
    byFile.get(problem.file).push(problem);
  }
  return byFile;
}

/**
 * "HIERA check: 24 files checked, 1 error, 2 warnings, 0 infos" over all folders' reports, or why
 * nothing was checked.
 */
function summary(reports) {
  const files = reports.reduce((sum, report) => sum + report.filesChecked, 0);
  if (files === 0) {
    return 'HIERA check: no .py, .cu or .cuh file to check: none in the workspace folders outside '
      + '.gitignore (git repositories) or outside hidden and build folders (other folders)';
  }
  const counts = SEVERITIES.map((severity) => {
    const count = reports.reduce((sum, report) => sum + report.problems.filter((p) => p.severity === severity).length, 0);
    return `${count} ${severity}${count === 1 ? '' : 's'}`;
  });
  return `HIERA check: ${files} file${files === 1 ? '' : 's'} checked, ${counts.join(', ')}`;
}

/** The summary's buttons: "Show problems" only where the check found some (none: nothing to show). */
function summaryActions(reports) {
  return reports.some((report) => report.problems.length > 0) ? ['Show problems'] : [];
}

module.exports = {
  GIT_FILES, checkCommand, hasReport, parseGitFiles, parseReport, problemsByFile, summary, summaryActions,
};

'use strict';
// Running jobs as the extension shows them: the status-bar text, fed by the server's work-done
// progress ($/progress begin/report/end, one token per job), and the "Cancel job" pick list,
// fed by hiera.listJobs. Pure, so node --test covers it.

const { ACTIVE_JOB_STATES } = require('./protocol');

class JobStatus {
  constructor() {
    /** token -> { title, message, percentage } of each job whose progress has begun and not ended */
    this.jobs = new Map();
  }

  /** Takes one $/progress value; returns true when what the status bar shows changed. */
  update(token, value) {
    if (value.kind === 'begin') {
      this.jobs.set(token, { title: value.title, message: value.message || '', percentage: value.percentage });
      return true;
    }
    const job = this.jobs.get(token);
    if (job === undefined) {
      return false;
    }
    if (value.kind === 'end') {
      this.jobs.delete(token);
      return true;
    }
    if (value.message !== undefined) {
      job.message = value.message;
    }
    if (value.percentage !== undefined) {
      job.percentage = value.percentage;
    }
    return true;
  }

  /** Forgets every job (the server stopped, and its jobs with it); returns true if there were any. */
  clear() {
    const hadJobs = this.jobs.size > 0;
    this.jobs.clear();
    return hadJobs;
  }

  /** { text, tooltip } for the status-bar item, or null when no job runs (the item is hidden). */
  view() {
    const jobs = [...this.jobs.values()];
    if (jobs.length === 0) {
      return null;
    }
    const lines = jobs.map((job) => `${job.title}${percent(job)}${job.message ? `: ${job.message}` : ''}`);
    const text = jobs.length === 1
      ? `$(sync~spin) ${jobs[0].title}${percent(jobs[0])}${stage(jobs[0])}`
      : `$(sync~spin) HIERA: ${jobs.length} jobs`;
    return { text, tooltip: `${lines.join('\n')}\n\nClick to cancel a job.` };
  }
}

/**
 * The time the current step has taken, from the server's repeated message while a step runs
 * without events ("verify: candidate 1/4 compiling · 45 s", hiera_lsp.progress.elapsed's format).
 */
const STEP_TIME = / · (\d+ min \d{2} s|\d+ s)$/;

/**
 * " · verify" from the server's "verify: candidate 2/4"; short messages ("queued") as they are.
 * With the step's time when the server repeats it (" · verify · 45 s"): a candidate compiling for
 * minutes leaves the percentage where it is, and the status bar must still show it is alive.
 */
function stage(job) {
  const head = job.message.split(':')[0].trim();
  const shown = head && head.length <= 40 ? ` · ${head}` : '';
  const stepTime = job.message.match(STEP_TIME);
  return stepTime && !shown.endsWith(stepTime[0]) ? `${shown} · ${stepTime[1]}` : shown;
}

function percent(job) {
  return typeof job.percentage === 'number' ? ` ${Math.round(job.percentage)}%` : '';
}

/** hiera.listJobs's answer -> quick-pick items for the jobs that can still be cancelled. */
function cancellableJobs(described) {
  return (described || [])
    .filter((job) => ACTIVE_JOB_STATES.includes(job.state))
    .map((job) => ({
      label: job.title,
      description: job.state === 'running'
        ? `running, ${Math.round((job.progress || 0) * 100)}%${job.stage ? `, ${job.stage}` : ''}`
        : 'queued',
      detail: job.message || undefined,
      jobId: job.id,
    }));
}

module.exports = { JobStatus, cancellableJobs };

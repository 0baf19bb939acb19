// What the dashboard says about a job: its timings, its short id, its latest state, why it failed. Pure (tested under Node).
import type { ReviewJob } from '../../service/api/schemas.ts';

export interface JobTimings {
  /** From created to started (or to now while queued). */
  waitedMs?: number;
  /** From started to completed/failed (or to now while running). */
  ranMs?: number;
  totalMs?: number;
}

export function jobTimings(job: ReviewJob, now = Date.now()): JobTimings {
  const created = Date.parse(job.created_at);
  const started = job.started_at ? Date.parse(job.started_at) : undefined;
  const ended = job.completed_at
    ? Date.parse(job.completed_at)
    : job.status === 'failed'
      ? Date.parse(job.updated_at)
      : undefined;
  const timings: JobTimings = {};
  timings.waitedMs = (started ?? ended ?? now) - created;
  if (started !== undefined) timings.ranMs = (ended ?? now) - started;
  if (ended !== undefined) timings.totalMs = ended - created;
  return timings;
}

export const shortId = (id: string) =>
  id
    .replace(/^(rev|tok)_/, '')
    .slice(-8)
    .toLowerCase();

const STATUS_RANK = { queued: 0, running: 1, completed: 2, failed: 2 } as const;

/**
 * The later of two states of one job. Answers and pushed updates can cross on the way (a get
 * answered "running" may arrive after the pushed "completed"): a job never goes back.
 */
export function laterState(current: ReviewJob | undefined, next: ReviewJob): ReviewJob {
  if (!current || current.review_id !== next.review_id) return next;
  const rank = STATUS_RANK[next.status] - STATUS_RANK[current.status];
  if (rank !== 0) return rank > 0 ? next : current;
  return next.updated_at >= current.updated_at ? next : current;
}

const FAILURE_TITLE: Record<string, string> = {
  invalid_diff: 'The diff could not be read',
  timeout: 'The review took too long',
  cancelled: 'Stopped on request',
  internal_error: 'The service failed while reviewing',
};

/** Why a review failed, in a few words (the detail's heading and the list row). */
export const failureTitle = (code: string): string => FAILURE_TITLE[code] ?? 'The review failed';

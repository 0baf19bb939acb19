// How times, durations and comments are shown. Pure functions (tested under Node).
import type { ReviewComment, ReviewJob, Severity } from '../../service/api/schemas.ts';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));

/** "just now", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function formatAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return `${days} day${days === 1 ? '' : 's'} ago`;
  return formatDate(iso);
}

/** 0.2 s, 12 s, 3 min 4 s, 2 h 5 min. */
export function formatDuration(ms: number): string {
  if (ms < 0) ms = 0;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

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

export type SeverityCounts = Record<Severity, number>;

export interface FileComments {
  filePath: string;
  comments: ReviewComment[];
  counts: SeverityCounts;
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function countSeverities(comments: readonly ReviewComment[]): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const comment of comments) counts[comment.severity] += 1;
  return counts;
}

/** Comments grouped by file (files with errors first, then by path), each sorted by line. */
export function groupCommentsByFile(comments: readonly ReviewComment[]): FileComments[] {
  const byFile = new Map<string, ReviewComment[]>();
  for (const comment of comments) {
    const list = byFile.get(comment.file_path) ?? [];
    list.push(comment);
    byFile.set(comment.file_path, list);
  }
  return [...byFile]
    .map(([filePath, list]) => ({
      filePath,
      comments: list.sort((a, b) => a.line - b.line || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]),
      counts: countSeverities(list),
    }))
    .sort((a, b) => b.counts.error - a.counts.error || a.filePath.localeCompare(b.filePath));
}

export function isExpired(expiresAt: string | null, now = Date.now()): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= now;
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

// What `diff-review review` exits with, so CI and hooks can gate on it.
import type { Severity } from '../api/schemas.ts';

export const EXIT = {
  /** Nothing at or above --fail-on. */
  clean: 0,
  /** A finding at or above --fail-on. */
  findings: 1,
  /** A usage or configuration error: bad flags, a bad config file, not a repository, not a diff. */
  usage: 2,
  /** The review could not be done: the service was unreachable or failed the review. */
  reviewFailed: 3,
} as const;

export const FAIL_ON = ['error', 'warning', 'info', 'none'] as const;
export type FailOn = (typeof FAIL_ON)[number];

const RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

/** Whether a finding of this severity fails the run under `failOn`. */
export function failsRun(severity: Severity, failOn: FailOn): boolean {
  return failOn !== 'none' && RANK[severity] >= RANK[failOn];
}

/** A usage or configuration error (exit 2). The message says what is wrong and where. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The review could not be done (exit 3): the service could not be reached, or it failed the review. */
export class ReviewFailedError extends Error {
  override name = 'ReviewFailedError';
}

// What to tell the user when a review does not end with comments: one message that says what to
// do, and the buttons that help do it. Plain data (no vscode import), tested under vitest.
import type { ReviewJob } from '../../service/api/schemas.ts';
import { AbortError, ApiError, NetworkError, TimeoutError } from '../../service/client/index.ts';
import { GitError, NoBaseBranchError } from '../../service/git/index.ts';
import { DiffTooLargeError, formatBytes } from './review-runner.ts';

export type FailureAction = 'Show Log' | 'Set Token' | 'Open Settings';

export interface FailureReport {
  /** A short identifier for logs and tests: `unauthorized`, `diff_too_large`, `network`, … */
  kind: string;
  message: string;
  actions: FailureAction[];
}

export interface FailureContext {
  /** "the bundled service" or the configured URL. */
  service: string;
}

export function describeFailedJob(job: ReviewJob): FailureReport {
  const code = job.error?.code ?? 'internal_error';
  const detail = job.error?.message ?? 'The service gave no reason.';
  return { kind: `job_${code}`, message: `The review failed (${code}): ${detail}`, actions: ['Show Log'] };
}

export function describeFailure(error: unknown, context: FailureContext): FailureReport {
  if (error instanceof AbortError) return { kind: 'cancelled', message: 'The review was cancelled.', actions: [] };
  if (error instanceof DiffTooLargeError) {
    return {
      kind: 'diff_too_large',
      message: `The diff is too large to review: ${formatBytes(error.diffBytes)}, and the service accepts at most ${formatBytes(error.limitBytes)}. Review a smaller branch, or set a closer base branch ("Diff Review: Base Branch").`,
      actions: ['Open Settings', 'Show Log'],
    };
  }
  if (error instanceof ApiError) return describeApiError(error, context);
  if (error instanceof NetworkError) {
    return {
      kind: 'network',
      // The configured URL as the user wrote it; the bundled service's own address.
      message: `Could not reach ${/^https?:/.test(context.service) ? `the Diff Review service at ${context.service}` : `${context.service} at ${origin(error.url)}`}${error.code ? ` (${error.code})` : ''}. Check that it is running and that "Diff Review: Service URL" is right.`,
      actions: ['Open Settings', 'Show Log'],
    };
  }
  if (error instanceof TimeoutError) {
    return {
      kind: 'timeout',
      message: `${error.message} Try again, or raise "Diff Review: Request Timeout" if ${context.service} is slow.`,
      actions: ['Open Settings', 'Show Log'],
    };
  }
  if (error instanceof NoBaseBranchError) return { kind: 'no_base_branch', message: error.message, actions: ['Open Settings', 'Show Log'] };
  if (error instanceof GitError) return { kind: 'git', message: error.message, actions: ['Show Log'] };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'unexpected', message: `Diff Review failed: ${message}`, actions: ['Show Log'] };
}

function describeApiError(error: ApiError, context: FailureContext): FailureReport {
  const said = error.message ? ` ${ensureStop(error.message)}` : '';
  switch (error.status) {
    case 401:
      return {
        kind: 'unauthorized',
        message: `${capitalize(context.service)} refused the API token (401 ${error.error}). Set a valid review token with "Diff Review: Set API Token".`,
        actions: ['Set Token', 'Show Log'],
      };
    case 403:
      return {
        kind: error.error === 'token_expired' ? 'token_expired' : 'forbidden',
        message:
          error.error === 'token_expired'
            ? `The API token has expired (403 token_expired). Set a new one with "Diff Review: Set API Token".`
            : `The API token may not do this (403 ${error.error}): it needs the reviews:read and reviews:write scopes.${said}`,
        actions: ['Set Token', 'Show Log'],
      };
    case 413:
      return { kind: 'diff_too_large', message: `The diff is too large to review (413).${said}`, actions: ['Open Settings', 'Show Log'] };
    case 429: {
      const when = error.retryAfterSeconds === undefined ? 'in a moment' : `in ${error.retryAfterSeconds} s`;
      return { kind: 'rate_limited', message: `${capitalize(context.service)} is busy (429 ${error.error}). Try again ${when}.`, actions: ['Show Log'] };
    }
    default:
      if (error.status >= 500) {
        return { kind: 'server_error', message: `${capitalize(context.service)} failed (${error.status} ${error.error}).${said} Try again; the log has details.`, actions: ['Show Log'] };
      }
      return { kind: error.error, message: `${capitalize(context.service)} refused the review (${error.status} ${error.error}).${said}`, actions: ['Show Log'] };
  }
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const ensureStop = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

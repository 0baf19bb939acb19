// What to tell the user when a review does not end with comments: one message that says what to
// do, and the buttons that help do it. Plain data (no vscode import), tested under vitest.
import type { ReviewJob } from '../../service/api/schemas.ts';
import { AbortError, ApiError, NetworkError, TimeoutError } from '../../service/client/index.ts';
import { GitError, NoBaseBranchError } from '../../service/git/index.ts';
import { DiffOverLimitError, formatBytes } from './review-runner.ts';

export type FailureAction =
  | 'Show Log'
  | 'Set Token'
  | 'Open Settings'
  | 'Open Folder'
  | 'Choose Base Branch'
  | 'Try Again'
  | 'Open .diff-review.yml';

export interface FailureReport {
  /** A short identifier for logs and tests: `unauthorized`, `diff_too_large`, `network`, … */
  kind: string;
  message: string;
  actions: FailureAction[];
  /** The setting "Open Settings" leads to, e.g. `diffReview.serviceUrl`; none: all of the extension's. */
  setting?: string;
  /** The file "Open .diff-review.yml" opens (absolute path). */
  file?: string;
}

export interface FailureContext {
  /** "the bundled service" or the configured URL. */
  service: string;
  /** The base branch setting; empty: found by the extension. */
  baseBranch?: string;
}

/** The settings a failure may lead to. */
export const SETTING = {
  serviceUrl: 'diffReview.serviceUrl',
  baseBranch: 'diffReview.baseBranch',
  requestTimeout: 'diffReview.requestTimeout',
} as const;

/** The configured service URL is not one (see service-url.ts). */
export function describeInvalidServiceUrl(problem: string): FailureReport {
  return { kind: 'invalid_service_url', message: problem, actions: ['Open Settings'], setting: SETTING.serviceUrl };
}

export function describeFailedJob(job: ReviewJob): FailureReport {
  const code = job.error?.code ?? 'internal_error';
  const detail = job.error?.message ?? 'The service gave no reason.';
  return { kind: `job_${code}`, message: `The review failed (${code}): ${detail}`, actions: ['Show Log'] };
}

export function describeFailure(error: unknown, context: FailureContext): FailureReport {
  if (error instanceof AbortError) return { kind: 'cancelled', message: 'The review was cancelled.', actions: [] };
  if (error instanceof DiffOverLimitError) {
    return {
      kind: 'diff_too_large',
      message: `The diff is too large to review: ${formatBytes(error.diffBytes)}, and the service accepts at most ${formatBytes(error.limitBytes)}. Review a smaller branch, or set a closer base branch ("Diff Review: Base Branch").`,
      actions: ['Open Settings', 'Show Log'],
      setting: SETTING.baseBranch,
    };
  }
  if (error instanceof ApiError) return describeApiError(error, context);
  if (error instanceof NetworkError) {
    const where = ` at ${origin(error.url)}${error.code ? ` (${error.code})` : ''}`;
    // The bundled service has no URL to check: the extension chose its address itself.
    if (!isUrl(context.service))
      return {
        kind: 'network',
        message: `Could not reach ${context.service}${where}. Try again; the log has details.`,
        actions: ['Try Again', 'Show Log'],
      };
    return {
      kind: 'network',
      // The configured URL as the user wrote it.
      message: `Could not reach the Diff Review service at ${context.service}${error.code ? ` (${error.code})` : ''}. Check that it is running and that "Diff Review: Service URL" is right.`,
      actions: ['Open Settings', 'Show Log'],
      setting: SETTING.serviceUrl,
    };
  }
  if (error instanceof TimeoutError) {
    return {
      kind: 'timeout',
      message: `${error.message} Try again, or raise "Diff Review: Request Timeout" if ${context.service} is slow.`,
      actions: ['Open Settings', 'Show Log'],
      setting: SETTING.requestTimeout,
    };
  }
  if (error instanceof NoBaseBranchError) {
    // Found by the extension: none of the usual names exists (no origin, no main). A picker helps more than git advice.
    const message = context.baseBranch
      ? error.message
      : `No base branch to compare with: none of ${error.tried.join(', ')} exists. Choose the branch your work is compared against.`;
    return {
      kind: 'no_base_branch',
      message,
      actions: ['Choose Base Branch', 'Show Log'],
      setting: SETTING.baseBranch,
    };
  }
  if (error instanceof GitError) return { kind: 'git', message: error.message, actions: ['Show Log'] };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'unexpected', message: `Diff Review failed: ${message}`, actions: ['Show Log'] };
}

function describeApiError(error: ApiError, context: FailureContext): FailureReport {
  // Every answer of the API carries {"error": …}; a web server that is something else does not.
  if (isUrl(context.service) && !hasErrorBody(error) && error.status !== 429 && error.status < 500) {
    return {
      kind: 'not_diff_review',
      message: `${context.service} does not answer like a Diff Review service (${error.status} to ${error.method} ${pathOf(error.url)}). Check "Diff Review: Service URL".`,
      actions: ['Open Settings', 'Show Log'],
      setting: SETTING.serviceUrl,
    };
  }
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
      return {
        kind: 'diff_too_large',
        message: `The diff is too large to review (413).${said}`,
        actions: ['Open Settings', 'Show Log'],
        setting: SETTING.baseBranch,
      };
    case 429: {
      const when = error.retryAfterSeconds === undefined ? 'in a moment' : `in ${error.retryAfterSeconds} s`;
      return {
        kind: 'rate_limited',
        message: `${capitalize(context.service)} is busy (429 ${error.error}). Try again ${when}.`,
        actions: ['Show Log'],
      };
    }
    default:
      if (error.status >= 500) {
        return {
          kind: 'server_error',
          message: `${capitalize(context.service)} failed (${error.status} ${error.error}).${said} Try again; the log has details.`,
          actions: ['Show Log'],
        };
      }
      return {
        kind: error.error,
        message: `${capitalize(context.service)} refused the review (${error.status} ${error.error}).${said}`,
        actions: ['Show Log'],
      };
  }
}

/** "the bundled service" → "The bundled service"; a URL is left as it is written. */
const capitalize = (text: string) => (isUrl(text) ? text : text.charAt(0).toUpperCase() + text.slice(1));
const isUrl = (text: string) => /^https?:/.test(text);
const hasErrorBody = (error: ApiError) =>
  typeof error.body === 'object' &&
  error.body !== null &&
  typeof (error.body as { error?: unknown }).error === 'string';
const ensureStop = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

// waitForReview: the event stream when the service has one, polling with backoff otherwise.
import type { ReviewJob } from '../api/schemas.ts';
import { AbortError, ApiError, DiffReviewError, TimeoutError } from './errors.ts';
import type { CallOptions, EventsOptions, WaitOptions } from './options.ts';
import { isTerminal } from '../api/review-status.ts';
import { abortErrorFrom, formatMs } from './to-client-error.ts';

/** The two client calls waiting is made of. */
export interface WaitDependencies {
  events(reviewId: string, options: EventsOptions): AsyncIterable<ReviewJob>;
  getReview(reviewId: string, options: CallOptions): Promise<ReviewJob>;
}

/**
 * Resolves with the job once it is `completed` or `failed`. Rejects with ApiError when the
 * service refuses (401, 403, 404 …), TimeoutError after `timeoutMs`, AbortError when the signal fires.
 */
export async function waitForReview(
  deps: WaitDependencies,
  reviewId: string,
  options: WaitOptions = {},
): Promise<ReviewJob> {
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const maxPollIntervalMs = Math.max(options.maxPollIntervalMs ?? 5000, pollIntervalMs);
  if (options.signal?.aborted) throw abortErrorFrom(options.signal);

  const deadline = new AbortController();
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;

  let last: ReviewJob | undefined;
  const seen = (job: ReviewJob): ReviewJob => {
    if (!last || last.status !== job.status || last.updated_at !== job.updated_at) options.onUpdate?.(job);
    last = job;
    return job;
  };

  // Whatever failed, an abort or the deadline is the real reason.
  const stopped = (error: unknown): unknown => {
    if (options.signal?.aborted) return abortErrorFrom(options.signal);
    if (deadline.signal.aborted) {
      const status = last ? ` (last status: ${last.status})` : '';
      return new TimeoutError(
        `Review ${reviewId} did not finish within ${formatMs(options.timeoutMs ?? 0)}${status}.`,
        options.timeoutMs ?? 0,
        { cause: error },
      );
    }
    return error;
  };

  try {
    if (options.useEvents !== false) {
      try {
        for await (const job of deps.events(reviewId, { signal })) {
          if (isTerminal(seen(job))) return job;
        }
      } catch (error) {
        if (signal.aborted || !fallsBackToPolling(error)) throw error;
      }
    }
    let interval = pollIntervalMs;
    for (;;) {
      const job = seen(await deps.getReview(reviewId, { signal }));
      if (isTerminal(job)) return job;
      await sleep(interval, signal);
      interval = Math.min(maxPollIntervalMs, Math.ceil(interval * 1.5));
    }
  } catch (error) {
    throw stopped(error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polling can still succeed when the event stream is missing (404/405/501), broke, ended early,
 * or the service hiccuped (5xx, 429). Not when the token is refused: polling would be refused too.
 */
function fallsBackToPolling(error: unknown): boolean {
  if (error instanceof AbortError) return false;
  if (error instanceof ApiError) return error.status !== 401 && error.status !== 403;
  return error instanceof DiffReviewError;
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

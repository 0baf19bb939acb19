// GET /v1/events: every state change of the token owner's reviews on one stream. On connect the
// service tells the unfinished reviews, then `ready`; then each change. followReviews keeps such a
// stream open (reconnecting with backoff, as waitForReview falls back), for a dashboard that
// follows many jobs with one socket.
import type { ReviewJob } from '../api/schemas.ts';
import { AbortError, ApiError, DiffReviewError } from './errors.ts';
import { JOB_EVENTS, parseJob, serverSentEvents } from './events.ts';
import type { EventsOptions, FollowOptions } from './options.ts';
import { abortErrorFrom } from './to-client-error.ts';
import type { Transport } from './transport.ts';
import { sleep } from './wait.ts';

export type OwnerEvent =
  /** A state of one of the owner's reviews. */
  | { type: 'review'; job: ReviewJob }
  /** Every review unfinished on connect has been told (`unfinished` of them). */
  | { type: 'ready'; unfinished: number };

const WHAT = "The event stream of the owner's reviews";

/**
 * Yields the owner's reviews' events until the service ends the stream (its lifetime, or a
 * shutdown). Throws ApiError on a non-2xx answer (404 from a service without it), EventStreamError
 * when it breaks, AbortError when the signal fires.
 */
export async function* ownerEvents(
  transport: Transport,
  options: EventsOptions = {},
): AsyncGenerator<OwnerEvent, void, undefined> {
  for await (const event of serverSentEvents(transport, '/v1/events', WHAT, options)) {
    if (event.event === 'ready') {
      const { unfinished } = (parseJson(event.data) as { unfinished?: unknown } | null) ?? {};
      yield { type: 'ready', unfinished: typeof unfinished === 'number' ? unfinished : 0 };
    } else if (JOB_EVENTS.has(event.event)) yield { type: 'review', job: parseJob(event.data, WHAT) };
  }
}

/**
 * Follows the owner's reviews until the signal fires (then rejects with AbortError) or the token
 * is refused (401, 403: rejects with that ApiError). A stream that ends is opened again at once; one
 * refused or broken is opened again after a pause that grows (1 s by half up to 30 s, or the
 * 429's Retry-After). Meanwhile `onDown` runs at once and after each such pause, however long
 * the Retry-After: the caller polls there what it must not miss.
 */
export async function followReviews(transport: Transport, options: FollowOptions): Promise<never> {
  const { signal } = options;
  const first = options.retryIntervalMs ?? 1000;
  const longest = Math.max(options.maxRetryIntervalMs ?? 30_000, first);
  let pause = first;
  for (;;) {
    if (signal?.aborted) throw abortErrorFrom(signal);
    try {
      const unfinished = new Set<string>();
      let ready = false;
      for await (const event of ownerEvents(transport, { signal })) {
        if (event.type === 'review') {
          if (!ready) unfinished.add(event.job.review_id);
          options.onUpdate(event.job);
        } else if (!ready) {
          ready = true;
          pause = first;
          await options.onReady?.(unfinished);
        }
      }
    } catch (error) {
      if (signal?.aborted) throw abortErrorFrom(signal);
      if (!opensAgain(error)) throw error;
      // A 429's Retry-After can be minutes (until the oldest stream's lifetime ends): the stream
      // waits for it, the polling in onDown does not.
      const asked = error instanceof ApiError ? (error.retryAfterSeconds ?? 0) * 1000 : 0;
      const reopenAt = Date.now() + Math.max(pause, asked);
      for (let poll = pause; ; poll = Math.min(longest, Math.ceil(poll * 1.5))) {
        await options.onDown?.(error);
        const left = reopenAt - Date.now();
        if (left <= 0) break;
        try {
          await sleep(Math.min(poll, left), signal ?? new AbortController().signal);
        } catch {
          throw abortErrorFrom(signal!);
        }
      }
      pause = Math.min(longest, Math.ceil(pause * 1.5));
    }
  }
}

/** Worth opening again: the stream broke or ended early, the service hiccuped or refused for now (429, 5xx), or lacks it (404). Not a refused token. */
function opensAgain(error: unknown): boolean {
  if (error instanceof AbortError) return false;
  if (error instanceof ApiError) return error.status !== 401 && error.status !== 403;
  return error instanceof DiffReviewError;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

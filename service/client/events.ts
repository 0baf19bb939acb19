// GET /v1/reviews/{id}/events: the job as it is on connect, then on every change; the stream
// ends after a terminal state. GET /v1/events: every change of the owner's reviews (owner-events.ts).
import type { ReviewJob } from '../api/schemas.ts';
import { DiffReviewError, EventStreamError } from './errors.ts';
import type { EventsOptions } from './options.ts';
import { isTerminal } from '../api/review-status.ts';
import { parseServerSentEvents, type ServerSentEvent } from './sse.ts';
import { abortErrorFrom } from './to-client-error.ts';
import type { Transport } from './transport.ts';

/** Event names that carry a job; `message` (no `event:` line) is accepted as well. */
export const JOB_EVENTS = new Set(['review', 'message']);

/**
 * Yields each state of the job until a terminal one, then ends. Throws ApiError when the
 * endpoint answers non-2xx (404 also when the service has no event stream), EventStreamError
 * when the stream breaks or ends early, AbortError when the signal fires.
 */
export async function* reviewEvents(
  transport: Transport,
  reviewId: string,
  options: EventsOptions = {},
): AsyncGenerator<ReviewJob, void, undefined> {
  const what = `The event stream of review ${reviewId}`;
  const path = `/v1/reviews/${encodeURIComponent(reviewId)}/events`;
  for await (const event of serverSentEvents(transport, path, what, options)) {
    if (!JOB_EVENTS.has(event.event)) continue;
    const job = parseJob(event.data, what);
    yield job;
    if (isTerminal(job)) return;
  }
  throw new EventStreamError(`${what} ended before the review finished.`);
}

/**
 * The events of one stream as they come; ends when the server ends it. Throws ApiError on a
 * non-2xx answer, EventStreamError when it is no event stream or breaks, AbortError on the signal.
 * `what` names the stream in errors ("The event stream of …").
 */
export async function* serverSentEvents(
  transport: Transport,
  path: string,
  what: string,
  { signal }: EventsOptions,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const request = { method: 'GET' as const, path, headers: { accept: 'text/event-stream' }, signal };
  const response = await transport.open(request);
  const contentType = response.headers.get('content-type') ?? '';
  if (!/^text\/event-stream\b/i.test(contentType) || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw new EventStreamError(
      `${transport.urlOf(request)} answered ${contentType || 'without a content type'} instead of an event stream (text/event-stream).`,
    );
  }
  try {
    yield* parseServerSentEvents(response.body, signal);
  } catch (error) {
    if (signal?.aborted) throw abortErrorFrom(signal);
    if (error instanceof DiffReviewError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new EventStreamError(`${what} broke: ${reason}.`, { cause: error });
  }
}

export function parseJob(data: string, what: string): ReviewJob {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    throw new EventStreamError(`${what} carried data that is not JSON.`, { cause: error });
  }
  const job = value as Partial<ReviewJob> | null;
  if (typeof job !== 'object' || job === null || typeof job.review_id !== 'string' || typeof job.status !== 'string') {
    throw new EventStreamError(`${what} carried an event that is not a review job.`);
  }
  return job as ReviewJob;
}

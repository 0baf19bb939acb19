// GET /v1/reviews/{id}/events: the job as it is on connect, then on every change; the stream
// ends after a terminal state.
import type { ReviewJob } from '../api/schemas.ts';
import { DiffReviewError, EventStreamError } from './errors.ts';
import type { EventsOptions } from './options.ts';
import { isTerminal } from '../api/review-status.ts';
import { parseServerSentEvents } from './sse.ts';
import { abortErrorFrom } from './to-client-error.ts';
import type { Transport } from './transport.ts';

/** Event names that carry a job; `message` (no `event:` line) is accepted as well. */
const JOB_EVENTS = new Set(['review', 'message']);

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
  const { signal } = options;
  const request = {
    method: 'GET' as const,
    path: `/v1/reviews/${encodeURIComponent(reviewId)}/events`,
    headers: { accept: 'text/event-stream' },
    signal,
  };
  const response = await transport.open(request);
  const contentType = response.headers.get('content-type') ?? '';
  if (!/^text\/event-stream\b/i.test(contentType) || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw new EventStreamError(
      `${transport.urlOf(request)} answered ${contentType || 'without a content type'} instead of an event stream (text/event-stream).`,
    );
  }

  try {
    for await (const event of parseServerSentEvents(response.body)) {
      if (!JOB_EVENTS.has(event.event)) continue;
      const job = parseJob(event.data, reviewId);
      yield job;
      if (isTerminal(job)) return;
    }
  } catch (error) {
    if (signal?.aborted) throw abortErrorFrom(signal);
    if (error instanceof DiffReviewError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new EventStreamError(`The event stream of review ${reviewId} broke: ${reason}.`, { cause: error });
  }
  throw new EventStreamError(`The event stream of review ${reviewId} ended before the review finished.`);
}

function parseJob(data: string, reviewId: string): ReviewJob {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    throw new EventStreamError(`The event stream of review ${reviewId} carried data that is not JSON.`, {
      cause: error,
    });
  }
  const job = value as Partial<ReviewJob> | null;
  if (typeof job !== 'object' || job === null || typeof job.review_id !== 'string' || typeof job.status !== 'string') {
    throw new EventStreamError(`The event stream of review ${reviewId} carried an event that is not a review job.`);
  }
  return job as ReviewJob;
}

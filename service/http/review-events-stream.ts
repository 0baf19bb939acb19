// GET /v1/reviews/{id}/events: the job as it is on connect, then on every change, as
// Server-Sent Events; the stream ends after a terminal state, after its maximum lifetime (the
// client reconnects or polls), or when the service stops.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReviewJob } from '../api/schemas.ts';
import { isTerminal } from '../api/review-status.ts';
import type { ReviewEvents } from '../jobs/review-events.ts';
import type { StoredReview } from '../store/types.ts';
import type { EventStreamSlot } from './event-stream-slots.ts';

const HEARTBEAT_MS = 15_000;

export interface ReviewStreamOptions {
  review: StoredReview;
  events: ReviewEvents;
  view: (review: StoredReview) => Promise<ReviewJob>;
  /** The stream's place among the open ones, given back when it ends. */
  slot: EventStreamSlot;
  lifetimeMs: number;
}

export function streamReviewEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  { review, events, view, slot, lifetimeMs }: ReviewStreamOptions,
) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let done = false;
  // view() is async (a completed job reads its comments), so events go out through one chain, in order.
  let chain = Promise.resolve();
  const send = (state: StoredReview) => {
    chain = chain
      .then(async () => {
        if (done) return;
        raw.write(`event: review\ndata: ${JSON.stringify(await view(state))}\n\n`);
        if (isTerminal(state)) finish();
      })
      .catch((error: unknown) => {
        request.log.error({ err: error, review_id: state.review_id }, 'event stream failed');
        finish();
      });
  };
  const unsubscribe = events.subscribe(review.review_id, send, review);
  const stopOnShutdown = events.onShutdown(() => finish());
  const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const expiry = setTimeout(() => finish(), lifetimeMs);
  function finish() {
    if (done) return;
    done = true;
    unsubscribe();
    stopOnShutdown();
    clearInterval(heartbeat);
    clearTimeout(expiry);
    slot.release();
    raw.end();
  }
  raw.on('close', finish);
  send({ ...review });
}

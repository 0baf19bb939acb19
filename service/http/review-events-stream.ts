// GET /v1/reviews/{id}/events: the job as it is on connect, then on every change, as
// Server-Sent Events; the stream ends after a terminal state, after its maximum lifetime (the
// client reconnects or polls), or when the service stops.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReviewJob } from '../api/schemas.ts';
import { isTerminal } from '../api/review-status.ts';
import type { ReviewEvents } from '../jobs/review-events.ts';
import type { StoredReview } from '../store/types.ts';
import type { EventStreamSlot } from './event-stream-slots.ts';
import { openEventStream } from './event-stream.ts';

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
  let unsubscribe = () => {};
  const stream = openEventStream(reply, { events, slot, lifetimeMs, onEnd: () => unsubscribe() });
  // view() is async (a completed job reads its comments), so events go out through one chain, in order.
  let chain = Promise.resolve();
  const send = (state: StoredReview) => {
    chain = chain
      .then(async () => {
        if (stream.ended) return;
        stream.send('review', await view(state));
        if (isTerminal(state)) stream.end();
      })
      .catch((error: unknown) => {
        request.log.error({ err: error, review_id: state.review_id }, 'event stream failed');
        stream.end();
      });
  };
  unsubscribe = events.subscribe(review.review_id, send, review);
  send({ ...review });
}

// GET /v1/reviews/{id}/events: the job as it is on connect, then on every change, as
// Server-Sent Events; the stream ends after a terminal state, after its maximum lifetime (the
// client reconnects or polls), or when the service stops.
import type { FastifyReply } from 'fastify';
import type { ReviewJob } from '../api/schemas.ts';
import { isTerminal } from '../api/review-status.ts';
import type { ReviewEvents } from '../jobs/review-events.ts';
import type { StoredReview } from '../store/types.ts';
import type { EventStreamSlot } from './event-stream-slots.ts';
import { openEventStream } from './event-stream.ts';
import { isNewerState, type ToldState, toldStateOf } from './told-state.ts';

export interface ReviewStreamOptions {
  reviewId: string;
  /** Reads the job as it is now (the owner's, or 404). */
  find: () => Promise<StoredReview>;
  events: ReviewEvents;
  view: (review: StoredReview) => Promise<ReviewJob>;
  /** The stream's place among the open ones, given back when it ends. */
  slot: EventStreamSlot;
  lifetimeMs: number;
}

export function streamReviewEvents(
  reply: FastifyReply,
  { reviewId, find, events, view, slot, lifetimeMs }: ReviewStreamOptions,
) {
  let unsubscribe = () => {};
  const stream = openEventStream(reply, {
    events,
    slot,
    lifetimeMs,
    onEnd: () => unsubscribe(),
    logFields: { review_id: reviewId },
  });
  let told: ToldState | undefined;
  const tell = async (state: StoredReview) => {
    if (stream.ended || !isNewerState(state, told)) return;
    told = toldStateOf(state);
    stream.send('review', await view(state));
    if (isTerminal(state)) stream.end();
  };
  // Followed first, read second: a change made while the job is read is heard, not lost (the job
  // may finish during the read, and would then never be told); what the read finds that was already
  // heard is left out.
  unsubscribe = events.subscribe(reviewId, (state) => stream.inOrder(() => tell(state)));
  stream.inOrder(async () => tell({ ...(await find()) }));
}

// GET /v1/events: every state change of the token owner's reviews on one Server-Sent Events
// stream, so that a dashboard following many jobs holds one socket, not one per job. On connect
// (and again when PostgreSQL mode's listener was away and changes may have been missed) the
// owner's unfinished reviews are told, then `event: ready`; after it, each change as it happens.
// A client that reconnects gets that again: a job it followed that is not among them finished
// meanwhile, and one GET (or the list) reads it. No `id:` lines: resuming from Last-Event-ID would
// need a log of changes the service does not keep.
import type { FastifyReply } from 'fastify';
import { LRUCache } from 'lru-cache';
import { isTerminal } from '../api/review-status.ts';
import type { ReviewJob } from '../api/schemas.ts';
import type { ReviewEvents } from '../jobs/review-events.ts';
import type { StoredReview } from '../store/types.ts';
import type { EventStreamSlot } from './event-stream-slots.ts';
import { openEventStream } from './event-stream.ts';
import { isNewerState, type ToldState, toldStateOf } from './told-state.ts';

export interface OwnerStreamOptions {
  owner: string;
  events: ReviewEvents;
  reviews: {
    view(review: StoredReview): Promise<ReviewJob>;
    unfinishedOf(owner: string): Promise<StoredReview[]>;
    find(owner: string, id: string): Promise<StoredReview>;
  };
  slot: EventStreamSlot;
  lifetimeMs: number;
}

/** States told per stream, to leave out repeats (PostgreSQL mode hears a change twice) and stale re-reads. */
const TOLD_MAX = 10_000;

export function streamOwnerEvents(
  reply: FastifyReply,
  { owner, events, reviews, slot, lifetimeMs }: OwnerStreamOptions,
) {
  const unsubscribe: (() => void)[] = [];
  const stream = openEventStream(reply, {
    events,
    slot,
    lifetimeMs,
    onEnd: () => {
      for (const off of unsubscribe) off();
    },
  });
  const told = new LRUCache<string, ToldState>({ max: TOLD_MAX });
  const tell = async (state: StoredReview) => {
    if (!isNewerState(state, told.get(state.review_id)) || stream.ended) return;
    told.set(state.review_id, toldStateOf(state));
    stream.send('review', await reviews.view(state));
  };
  const tellUnfinished = async () => {
    const unfinished = await reviews.unfinishedOf(owner);
    for (const review of unfinished) await tell(review);
    return unfinished.length;
  };
  unsubscribe.push(events.subscribeOwner(owner, (state) => stream.inOrder(() => tell(state))));
  unsubscribe.push(
    events.onResync(() =>
      stream.inOrder(async () => {
        // What was told unfinished may have finished unheard; and new jobs may have come.
        for (const [id, state] of [...told.entries()]) {
          if (isTerminal(state)) continue;
          const now = await reviews.find(owner, id).catch(() => undefined); // deleted meanwhile
          if (now) await tell(now);
        }
        await tellUnfinished();
      }),
    ),
  );
  stream.inOrder(async () => {
    stream.send('ready', { unfinished: await tellUnfinished() });
  });
}

// Job state changes, for the Server-Sent Events streams (and anything else that wants to follow a
// job): one job's followers, and an owner's (GET /v1/events, every job of one owner). In PostgreSQL
// mode a change can be heard twice (from this instance's runner and from the database's NOTIFY):
// followers leave out what they already told (http/told-state.ts).
import { EventEmitter } from 'node:events';
import type { StoredReview } from '../store/types.ts';

export type ReviewListener = (review: StoredReview) => void;

export class ReviewEvents {
  readonly #emitter = new EventEmitter().setMaxListeners(0);
  /** Followers of every job of one owner, by owner. */
  readonly #owners = new EventEmitter().setMaxListeners(0);

  changed(review: StoredReview): void {
    if (this.#owners.listenerCount(review.owner) > 0) this.#owners.emit(review.owner, { ...review });
    // a copy: listeners run later (async) and must see this state, not a later one
    if (this.#emitter.listenerCount(review.review_id) > 0) this.#emitter.emit(review.review_id, { ...review });
  }

  /** Returns the function that unsubscribes. */
  subscribe(reviewId: string, listener: ReviewListener): () => void {
    this.#emitter.on(reviewId, listener);
    return () => this.#emitter.off(reviewId, listener);
  }

  /** Follows every job of the owner. Returns the function that unsubscribes. */
  subscribeOwner(owner: string, listener: ReviewListener): () => void {
    this.#owners.on(owner, listener);
    return () => this.#owners.off(owner, listener);
  }

  /** Whether anyone follows every job of some owner (then any change heard from elsewhere is worth a read). */
  followsOwners(): boolean {
    return this.#owners.eventNames().length > 0;
  }

  /**
   * The listener that hears other instances' changes was away and is back: changes may have been
   * missed, so owner-wide followers read again what they follow. Returns the function that unsubscribes.
   */
  onResync(listener: () => void): () => void {
    this.#emitter.on(RESYNC, listener);
    return () => this.#emitter.off(RESYNC, listener);
  }

  resync(): void {
    this.#emitter.emit(RESYNC);
  }

  /** Whether anyone follows the job (a change heard from elsewhere is worth a read only then). */
  followed(reviewId: string): boolean {
    return this.#emitter.listenerCount(reviewId) > 0;
  }

  /** The jobs someone follows. */
  followedReviews(): string[] {
    return this.#emitter.eventNames().filter((name): name is string => typeof name === 'string');
  }

  /** The service is stopping: open streams end. Returns the function that unsubscribes. */
  onShutdown(listener: () => void): () => void {
    this.#emitter.on(SHUTDOWN, listener);
    return () => this.#emitter.off(SHUTDOWN, listener);
  }

  shutdown(): void {
    this.#emitter.emit(SHUTDOWN);
  }
}

const SHUTDOWN = Symbol('shutdown');
const RESYNC = Symbol('resync');

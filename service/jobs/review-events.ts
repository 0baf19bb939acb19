// Job state changes, for the Server-Sent Events stream (and anything else that wants to follow a job).
import { EventEmitter } from 'node:events';
import type { StoredReview } from '../store/types.ts';

export type ReviewListener = (review: StoredReview) => void;

export class ReviewEvents {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  changed(review: StoredReview): void {
    // a copy: listeners run later (async) and must see this state, not a later one
    this.#emitter.emit(review.review_id, { ...review });
  }

  /** Returns the function that unsubscribes. */
  subscribe(reviewId: string, listener: ReviewListener): () => void {
    this.#emitter.on(reviewId, listener);
    return () => this.#emitter.off(reviewId, listener);
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

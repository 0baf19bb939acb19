// The bytes GET /v1/reviews/{id} answers for a finished review, serialized once.
import { LRUCache } from 'lru-cache';
import { isTerminal } from '../api/review-status.ts';
import type { StoredReview } from '../store/types.ts';

interface Entry {
  updatedAt: string;
  status: string;
  bytes: Buffer;
}

/**
 * A finished review no longer changes (a cancel, a result and a retry all need it unfinished), so
 * every poll of it gets the same bytes: the route serializes them once, with its own serializer
 * (so they are exactly what it would send), and every later poll sends them as they are. Keyed by
 * id and checked against updated_at and status, so a review that did change is never answered from
 * here; bounded by bytes.
 */
export class FinishedBodies {
  readonly #cache = new LRUCache<string, Entry>({
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (e) => e.bytes.length + 100,
  });

  /** The answer kept for the review as it is now, or undefined. */
  get(review: StoredReview): Buffer | undefined {
    const entry = this.#cache.get(review.review_id);
    return entry !== undefined && entry.updatedAt === review.updated_at && entry.status === review.status
      ? entry.bytes
      : undefined;
  }

  /** Keeps the answer of a finished review; an unfinished one's answer changes, and is not kept. */
  set(review: StoredReview, bytes: Buffer): void {
    if (isTerminal(review))
      this.#cache.set(review.review_id, { updatedAt: review.updated_at, status: review.status, bytes });
  }
}

// Idempotency keys: which review a keyed create made, so a retry of it gets the same review.
import type { IdempotencyRecord, StoredReview } from './types.ts';

export interface IdempotencyStore {
  getIdempotency(owner: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Resolves once the record is durable: a create acknowledged with a key is replayed after a crash. */
  putIdempotency(record: IdempotencyRecord): Promise<void>;
  deleteIdempotency(owner: string, key: string): Promise<void>;
  /** Forgets the records created before the date; resolves with how many. */
  deleteIdempotencyBefore(date: string): Promise<number>;
  /**
   * For a store shared by several processes (PostgreSQL): inserts the review and claims its key in
   * one step, atomically across processes. When a record created at or after `liveSince` already
   * holds the key, nothing is written and that record is answered. A store without it is used by
   * one process, which serialises keyed creates itself (see ReviewService).
   */
  insertReviewWithKey?(
    review: StoredReview,
    record: IdempotencyRecord,
    liveSince: string,
  ): Promise<IdempotencyRecord | undefined>;
}

// Idempotency keys: which review a keyed create made, so a retry of it gets the same review.
import type { IdempotencyRecord, StoredReview } from './types.ts';

/**
 * What every store guarantees (tested for each in test/service/store/store-contract.ts):
 * **a key answers its last record until it is forgotten.** getIdempotency answers the last record
 * put for the owner's key (keys are per owner) until deleteIdempotency forgets it, also after a
 * restart: a forgotten key never comes back. deleteIdempotencyBefore is housekeeping, not a
 * promise: a record older than its date may still be answered later (lowdb keeps the records of
 * the date's own hour on disk), so callers judge a record's age by its created_at.
 */
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
   * holds the key, nothing is written and that record is answered: the first live claim wins. A
   * store without it is used by one process, which serialises keyed creates itself (see
   * ReviewCreator).
   */
  insertReviewWithKey?(
    review: StoredReview,
    record: IdempotencyRecord,
    liveSince: string,
  ): Promise<IdempotencyRecord | undefined>;
}

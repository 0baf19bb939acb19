// Idempotency keys: which review a keyed create made, so a retry of it gets the same review.
import type { IdempotencyRecord } from './types.ts';

export interface IdempotencyStore {
  getIdempotency(owner: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Resolves once the record is durable: a create acknowledged with a key is replayed after a crash. */
  putIdempotency(record: IdempotencyRecord): Promise<void>;
  deleteIdempotency(owner: string, key: string): Promise<void>;
  /** Forgets the records created before the date; resolves with how many. */
  deleteIdempotencyBefore(date: string): Promise<number>;
}

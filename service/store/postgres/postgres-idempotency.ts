// Idempotency keys in PostgreSQL (the IdempotencyStore), with the claim that makes one keyed create
// win across instances: the review and its key are written in one transaction, or neither is.
import type pg from 'pg';
import type { IdempotencyStore } from '../idempotency-store.ts';
import type { IdempotencyRecord, StoredReview } from '../types.ts';
import { read, transaction, write } from './queries.ts';
import { INSERT_REVIEW, reviewValues, toIdempotencyRecord, type IdempotencyRow } from './rows.ts';

export class PostgresIdempotency implements IdempotencyStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async insertReviewWithKey(review: StoredReview, record: IdempotencyRecord, liveSince: string) {
    return transaction(this.#pool, async (client) => {
      // Concurrent claims of one key queue on its row: the later one waits for the first to commit,
      // then finds it live (the WHERE fails, no row comes back) and answers it. A row that fails
      // the WHERE is still locked by this transaction (PostgreSQL's ON CONFLICT DO UPDATE locks
      // it), so no retention or released key can delete it before the SELECT below reads it.
      const claimed = await client.query(
        `INSERT INTO idempotency_keys (owner, key, request_hash, review_id, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (owner, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, review_id = EXCLUDED.review_id, created_at = EXCLUDED.created_at
         WHERE idempotency_keys.created_at < $6
         RETURNING review_id`,
        [record.owner, record.key, record.request_hash, record.review_id, record.created_at, liveSince],
      );
      if (claimed.rowCount === 1) {
        await client.query(INSERT_REVIEW, reviewValues(review));
        return { commit: true, value: undefined };
      }
      const { rows } = await client.query<IdempotencyRow>(
        'SELECT * FROM idempotency_keys WHERE owner = $1 AND key = $2',
        [record.owner, record.key],
      );
      return { commit: false, value: rows[0] && toIdempotencyRecord(rows[0]) };
    });
  }

  async getIdempotency(owner: string, key: string) {
    const { rows } = await read<IdempotencyRow>(
      this.#pool,
      'SELECT * FROM idempotency_keys WHERE owner = $1 AND key = $2',
      [owner, key],
    );
    return rows[0] && toIdempotencyRecord(rows[0]);
  }

  async putIdempotency(record: IdempotencyRecord) {
    await write(
      this.#pool,
      `INSERT INTO idempotency_keys (owner, key, request_hash, review_id, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (owner, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, review_id = EXCLUDED.review_id, created_at = EXCLUDED.created_at`,
      [record.owner, record.key, record.request_hash, record.review_id, record.created_at],
    );
  }

  async deleteIdempotency(owner: string, key: string) {
    await write(this.#pool, 'DELETE FROM idempotency_keys WHERE owner = $1 AND key = $2', [owner, key]);
  }

  async deleteIdempotencyBefore(date: string) {
    const { rowCount } = await write(this.#pool, 'DELETE FROM idempotency_keys WHERE created_at < $1', [date]);
    return rowCount ?? 0;
  }
}

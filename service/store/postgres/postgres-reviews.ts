// The reviews' records in PostgreSQL (the ReviewStore): guarded updates, so that the first end of a
// review wins whichever instance wrote it, and finished reviews answered from the copies at hand,
// which this instance's own writes replace or drop.
import type { ReviewStore } from '../review-store.ts';
import type { ReviewFilter, ReviewQuery, StoredReview } from '../types.ts';
import type { PostgresAtHand } from './at-hand.ts';
import { claimPeriodicTask } from './coordination.ts';
import { read, write } from './queries.ts';
import { INSERT_REVIEW, reviewPatchColumns, reviewValues, toStoredReview, type ReviewRow } from './rows.ts';
import type pg from 'pg';

export class PostgresReviews implements ReviewStore {
  readonly #pool: pg.Pool;
  readonly #atHand: PostgresAtHand;

  constructor(pool: pg.Pool, atHand: PostgresAtHand) {
    this.#pool = pool;
    this.#atHand = atHand;
  }

  async insertReview(review: StoredReview) {
    await write(this.#pool, INSERT_REVIEW, reviewValues(review));
  }

  async getReview(id: string) {
    const finished = this.#atHand.peekReview(id); // its status will not change (a deletion is announced)
    if (finished) return { ...finished }; // a copy, as a read from the database would be
    const { rows } = await read<ReviewRow>(this.#pool, 'SELECT * FROM reviews WHERE review_id = $1', [id]);
    const review = rows[0] && toStoredReview(rows[0]);
    if (review) this.#atHand.remember(review);
    return review;
  }

  /**
   * A patch that sets a status applies only to a review still queued or running: the first end wins
   * (ReviewStore), whichever instance wrote it, and the review as it is comes back. The copy at hand
   * is replaced by what was written: reads answer the live record.
   */
  async updateReview(id: string, patch: Partial<StoredReview>) {
    const columns = reviewPatchColumns(patch);
    const sets = columns.map(([column], i) => `${column} = $${i + 2}`);
    const guard = patch.status === undefined ? '' : " AND status IN ('queued', 'running')";
    const sql =
      sets.length === 0
        ? 'SELECT * FROM reviews WHERE review_id = $1'
        : `UPDATE reviews SET ${sets.join(', ')} WHERE review_id = $1${guard} RETURNING *`;
    const { rows } = await write<ReviewRow>(this.#pool, sql, [id, ...columns.map(([, value]) => value)]);
    if (rows[0]) {
      const review = toStoredReview(rows[0]);
      this.#atHand.forget(id);
      this.#atHand.remember(review);
      return review;
    }
    const ended = guard === '' ? undefined : await this.getReview(id);
    if (!ended) throw new Error(`no review ${id}`);
    return ended;
  }

  async listReviews(query: ReviewQuery) {
    const { rows } = await read<ReviewRow>(
      this.#pool,
      `SELECT * FROM reviews
       WHERE owner = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR repository = $3) AND ($4::text IS NULL OR review_id < $4)
       ORDER BY review_id DESC LIMIT $5`,
      [query.owner, query.status ?? null, query.repository ?? null, query.before ?? null, query.limit],
    );
    return rows.map(toStoredReview);
  }

  /** One count over the (owner, review_id) index. */
  async countReviews(filter: ReviewFilter) {
    const { rows } = await read<{ n: number }>(
      this.#pool,
      `SELECT count(*)::int AS n FROM reviews
       WHERE owner = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR repository = $3)`,
      [filter.owner, filter.status ?? null, filter.repository ?? null],
    );
    return rows[0]!.n;
  }

  async unfinishedReviews() {
    const { rows } = await read<ReviewRow>(
      this.#pool,
      "SELECT * FROM reviews WHERE status IN ('queued', 'running') ORDER BY review_id",
      [],
    );
    return rows.map(toStoredReview);
  }

  async deleteFinishedBefore(date: string) {
    // One statement: the records and their files go together, or not at all.
    const { rows } = await write<{ review_id: string }>(
      this.#pool,
      `WITH gone AS (
         DELETE FROM reviews WHERE status IN ('completed', 'failed') AND updated_at < $1 RETURNING review_id
       ), diffs AS (
         DELETE FROM review_diffs WHERE review_id IN (SELECT review_id FROM gone)
       ), findings AS (
         DELETE FROM review_findings WHERE review_id IN (SELECT review_id FROM gone)
       )
       SELECT review_id FROM gone`,
      [date],
    );
    // Not answered from memory any more (other instances forget them when the deletion is announced).
    for (const { review_id } of rows) this.#atHand.forget(review_id);
    return rows.length;
  }

  claimPeriodicTask(task: string, periodMs: number, now: string) {
    return claimPeriodicTask(this.#pool, task, periodMs, now);
  }
}

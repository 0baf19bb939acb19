// A review job's state changes in PostgreSQL mode, each one guarded in SQL so that a job delivered
// twice (pg-boss delivers at least once) has its effect once: a job starts only from queued or
// running, finishes only from there (with its findings and the diff's removal in the same
// transaction), goes back to queued only from running, and never moves backwards.
import type pg from 'pg';
import type { Finding } from '../../engine/types.ts';
import { StoreWriteError, type StoredReview } from '../types.ts';
import { toStoredReview, type ReviewRow } from './rows.ts';

export class PostgresReviewJobs {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Marks the job running (again, after its worker died); undefined when it is finished or gone. */
  async start(id: string, at: string): Promise<StoredReview | undefined> {
    const { rows } = await this.#query<ReviewRow>(
      `UPDATE reviews SET status = 'running', started_at = $2, updated_at = $2, attempts = attempts + 1
       WHERE review_id = $1 AND status IN ('queued', 'running') RETURNING *`,
      [id, at],
    );
    return rows[0] && toStoredReview(rows[0]);
  }

  /**
   * Records the job's end: completed with its findings, or failed with its error. Undefined (and
   * nothing written) when it had already ended: a cancel, or another delivery of the same job.
   */
  async finish(
    id: string,
    end: { at: string; findings: Finding[] } | { at: string; error: NonNullable<StoredReview['error']> },
  ): Promise<StoredReview | undefined> {
    const client = await this.#connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const { rows } =
        'findings' in end
          ? await client.query<ReviewRow>(
              `UPDATE reviews SET status = 'completed', completed_at = $2, updated_at = $2
               WHERE review_id = $1 AND status IN ('queued', 'running') RETURNING *`,
              [id, end.at],
            )
          : await client.query<ReviewRow>(
              `UPDATE reviews SET status = 'failed', error_code = $3, error_message = $4, updated_at = $2
               WHERE review_id = $1 AND status IN ('queued', 'running') RETURNING *`,
              [id, end.at, end.error.code, end.error.message],
            );
      if (rows[0] && 'findings' in end) {
        await client.query(
          'INSERT INTO review_findings (review_id, findings) VALUES ($1, $2) ON CONFLICT (review_id) DO NOTHING',
          [id, JSON.stringify(end.findings)],
        );
      }
      if (rows[0]) await client.query('DELETE FROM review_diffs WHERE review_id = $1', [id]);
      await client.query('COMMIT');
      return rows[0] && toStoredReview(rows[0]);
    } catch (error) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw new StoreWriteError(error);
    } finally {
      client.release(broken);
    }
  }

  /** Puts a running job back in line (its instance is stopping); undefined when it is no longer running. */
  async requeue(id: string, at: string): Promise<StoredReview | undefined> {
    const { rows } = await this.#query<ReviewRow>(
      `UPDATE reviews SET status = 'queued', started_at = NULL, updated_at = $2
       WHERE review_id = $1 AND status = 'running' RETURNING *`,
      [id, at],
    );
    return rows[0] && toStoredReview(rows[0]);
  }

  /** Those of the reviews that have ended (or are gone): a cancel on another instance, missed as a NOTIFY. */
  async ended(ids: string[]): Promise<string[]> {
    const { rows } = await this.#query<{ review_id: string }>(
      `SELECT id AS review_id FROM unnest($1::text[]) AS t(id)
       WHERE NOT EXISTS (SELECT 1 FROM reviews WHERE review_id = t.id AND status IN ('queued', 'running'))`,
      [ids],
    );
    return rows.map((r) => r.review_id);
  }

  /** Jobs waiting for a worker on any instance. */
  async queued(): Promise<number> {
    const { rows } = await this.#query<{ n: number }>(
      "SELECT count(*)::int AS n FROM reviews WHERE status = 'queued'",
      [],
    );
    return rows[0]!.n;
  }

  async #connect(): Promise<pg.PoolClient> {
    try {
      return await this.#pool.connect();
    } catch (error) {
      throw new StoreWriteError(error);
    }
  }

  async #query<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.#pool.query<R>(sql, params);
    } catch (error) {
      throw new StoreWriteError(error);
    }
  }
}

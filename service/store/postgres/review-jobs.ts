// A review job's state changes in PostgreSQL mode, each one guarded in SQL so that a job delivered
// twice (pg-boss delivers at least once) has its effect once: a job starts only from queued or
// running, finishes only from there (with its findings and the diff's removal in the same
// transaction), goes back to queued only from running, and never moves backwards.
import type pg from 'pg';
import type { Finding } from '../../engine/types.ts';
import { withLineTexts } from '../flagged-lines.ts';
import type { StoredReview } from '../types.ts';
import { read, transaction, write } from './queries.ts';
import { toStoredReview, type ReviewRow } from './rows.ts';

export class PostgresReviewJobs {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Marks the job running (again, after its worker died); undefined when it is finished or gone. */
  async start(id: string, at: string): Promise<StoredReview | undefined> {
    const { rows } = await write<ReviewRow>(
      this.#pool,
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
    return transaction(this.#pool, async (client) => {
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
      if (!rows[0]) return { commit: false, value: undefined };
      if ('findings' in end) {
        // The lines' texts from the diff, which this transaction deletes.
        const diff =
          end.findings.length === 0
            ? undefined
            : (
                await client.query<{ diff: Buffer }>('SELECT diff FROM review_diffs WHERE review_id = $1', [id])
              ).rows[0]?.diff.toString('utf8');
        await client.query(
          'INSERT INTO review_findings (review_id, findings) VALUES ($1, $2) ON CONFLICT (review_id) DO NOTHING',
          [id, JSON.stringify(withLineTexts(diff, end.findings))],
        );
      }
      await client.query('DELETE FROM review_diffs WHERE review_id = $1', [id]);
      return { commit: true, value: toStoredReview(rows[0]) };
    });
  }

  /** Puts a running job back in line (its instance is stopping); undefined when it is no longer running. */
  async requeue(id: string, at: string): Promise<StoredReview | undefined> {
    const { rows } = await write<ReviewRow>(
      this.#pool,
      `UPDATE reviews SET status = 'queued', started_at = NULL, updated_at = $2
       WHERE review_id = $1 AND status = 'running' RETURNING *`,
      [id, at],
    );
    return rows[0] && toStoredReview(rows[0]);
  }

  /** Those of the reviews that have ended (or are gone): a cancel on another instance, missed as a NOTIFY. */
  async ended(ids: string[]): Promise<string[]> {
    const { rows } = await read<{ review_id: string }>(
      this.#pool,
      `SELECT id AS review_id FROM unnest($1::text[]) AS t(id)
       WHERE NOT EXISTS (SELECT 1 FROM reviews WHERE review_id = t.id AND status IN ('queued', 'running'))`,
      [ids],
    );
    return rows.map((r) => r.review_id);
  }

  /** Queued reviews last changed before the date, oldest first. */
  async queuedBefore(date: string): Promise<string[]> {
    const { rows } = await read<{ review_id: string }>(
      this.#pool,
      "SELECT review_id FROM reviews WHERE status = 'queued' AND updated_at < $1 ORDER BY review_id",
      [date],
    );
    return rows.map((r) => r.review_id);
  }

  /** Jobs waiting for a worker on any instance. */
  async queued(): Promise<number> {
    const { rows } = await read<{ n: number }>(
      this.#pool,
      "SELECT count(*)::int AS n FROM reviews WHERE status = 'queued'",
      [],
    );
    return rows[0]!.n;
  }
}

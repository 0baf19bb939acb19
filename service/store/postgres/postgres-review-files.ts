// The bulky parts of a review in PostgreSQL (the ReviewFileStore): its diff and its findings, in
// tables of their own beside the record.
import type pg from 'pg';
import type { Finding } from '../../engine/types.ts';
import { type StoredFinding, withLineTexts } from '../flagged-lines.ts';
import type { ReviewFileStore } from '../review-file-store.ts';
import { read, write } from './queries.ts';

export class PostgresReviewFiles implements ReviewFileStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async writeDiff(id: string, diff: string) {
    await write(
      this.#pool,
      'INSERT INTO review_diffs (review_id, diff) VALUES ($1, $2) ON CONFLICT (review_id) DO UPDATE SET diff = EXCLUDED.diff',
      [id, Buffer.from(diff, 'utf8')],
    );
  }

  async readDiff(id: string) {
    const { rows } = await read<{ diff: Buffer }>(this.#pool, 'SELECT diff FROM review_diffs WHERE review_id = $1', [
      id,
    ]);
    if (!rows[0]) throw new Error(`no diff is stored for review ${id}`);
    return rows[0].diff.toString('utf8');
  }

  async deleteDiff(id: string) {
    await write(this.#pool, 'DELETE FROM review_diffs WHERE review_id = $1', [id]);
  }

  async writeFindings(id: string, findings: Finding[]) {
    const diff = findings.length === 0 ? undefined : await this.readDiff(id).catch(() => undefined);
    await write(
      this.#pool,
      'INSERT INTO review_findings (review_id, findings) VALUES ($1, $2) ON CONFLICT (review_id) DO UPDATE SET findings = EXCLUDED.findings',
      [id, JSON.stringify(withLineTexts(diff, findings))],
    );
  }

  async readFindings(id: string) {
    const { rows } = await read<{ findings: StoredFinding[] }>(
      this.#pool,
      'SELECT findings FROM review_findings WHERE review_id = $1',
      [id],
    );
    if (!rows[0]) throw new Error(`no findings are stored for review ${id}`);
    return rows[0].findings;
  }
}

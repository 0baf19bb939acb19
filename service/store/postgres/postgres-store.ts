// The store on PostgreSQL, for several instances over one database: the same interfaces as the
// lowdb store (reviews, review files, tokens, idempotency keys), plain parameterised SQL through
// a bounded node-postgres pool. Nothing is kept on local disk, and nothing is cached here that
// another instance could change: every read asks the database.
import pg from 'pg';
import type { Finding } from '../../engine/types.ts';
import type { StoreLog } from '../store-log.ts';
import type { IdempotencyRecord, ReviewQuery, Store, StoredReview, StoredToken, TokenType } from '../types.ts';
import { DatabaseUnreachableError, describeDatabase, libpqConnectionString } from './database-url.ts';
import { PostgresAtHand } from './at-hand.ts';
import { claimPeriodicTask, countInWindow } from './coordination.ts';
import { migrate } from './migrations.ts';
import { isConnectionError, read, transaction, write } from './queries.ts';
import {
  INSERT_REVIEW,
  reviewPatchColumns,
  reviewValues,
  TOKEN_COLUMNS,
  toIdempotencyRecord,
  toStoredReview,
  toStoredToken,
  type IdempotencyRow,
  type ReviewRow,
  type TokenRow,
} from './rows.ts';

export interface PostgresStoreOptions {
  /** Connections this instance opens at most. Default 10. */
  poolSize?: number;
  /** A connection not had within this long fails the query. Default 5 s. */
  connectTimeoutMs?: number;
  /** A query unanswered this long fails (503), and its connection is dropped. Default 10 s. */
  queryTimeoutMs?: number;
  log?: StoreLog;
}

/** last_used_at is not worth a write per request: the latest use of each token goes in one write this often. */
const TOUCH_FLUSH_MS = 2000;

export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  /** Tokens and finished reviews in memory, for the hot paths (at-hand.ts); kept current by NOTIFY. */
  readonly atHand: PostgresAtHand;
  /** Uses of tokens not yet written: token id → last_used_at. */
  #touched = new Map<string, string>();
  #touchTimer: NodeJS.Timeout | null = null;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
    this.atHand = new PostgresAtHand(pool);
  }

  /**
   * Connects, applies the migrations that are missing, and answers the store. A database that
   * cannot be reached fails with DatabaseUnreachableError, whose message names host, port and
   * database, never the password.
   */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const pool = new pg.Pool({
      connectionString: libpqConnectionString(url),
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      // A database that stops answering (frozen, or a network that drops packets) would otherwise
      // hold a request for as long as TCP takes to notice: minutes. The HTTP timeouts cover reading
      // the request, not writing the answer, so the bound is here (query.ts maps it to a 503).
      query_timeout: options.queryTimeoutMs ?? 10_000,
      keepAlive: true,
      application_name: 'diff-review',
    });
    // An idle connection that breaks (the server restarted) is dropped by the pool; without a
    // listener the error would end the process. The next query opens a new one.
    pool.on('error', (error: Error & { code?: string }) => {
      options.log?.warn(
        { database: describeDatabase(url), code: error.code },
        'an idle database connection broke; it is replaced on the next query',
      );
    });
    try {
      await migrate(pool);
    } catch (error) {
      await pool.end().catch(() => {});
      if (isConnectionError(error)) throw new DatabaseUnreachableError(url, error);
      throw error;
    }
    return new PostgresStore(pool);
  }

  async insertReview(review: StoredReview) {
    await write(this.pool, INSERT_REVIEW, reviewValues(review));
  }

  async insertReviewWithKey(review: StoredReview, record: IdempotencyRecord, liveSince: string) {
    return transaction(this.pool, async (client) => {
      // Concurrent claims of one key queue on its row: the later one waits for the first to commit,
      // then finds it live (the WHERE fails, no row comes back) and answers it.
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

  async getReview(id: string) {
    const finished = this.atHand.peekReview(id); // it will not change (a deletion is announced)
    if (finished) return { ...finished }; // a copy, as a read from the database would be
    const { rows } = await read<ReviewRow>(this.pool, 'SELECT * FROM reviews WHERE review_id = $1', [id]);
    const review = rows[0] && toStoredReview(rows[0]);
    if (review) this.atHand.remember(review);
    return review;
  }

  /**
   * A patch that ends the review (completed or failed) applies only to one still queued or running:
   * the first end wins, whichever instance wrote it, and the review as it is comes back.
   */
  async updateReview(id: string, patch: Partial<StoredReview>) {
    const columns = reviewPatchColumns(patch);
    const sets = columns.map(([column], i) => `${column} = $${i + 2}`);
    const ending = patch.status === 'completed' || patch.status === 'failed';
    const guard = ending ? " AND status IN ('queued', 'running')" : '';
    const sql =
      sets.length === 0
        ? 'SELECT * FROM reviews WHERE review_id = $1'
        : `UPDATE reviews SET ${sets.join(', ')} WHERE review_id = $1${guard} RETURNING *`;
    const { rows } = await write<ReviewRow>(this.pool, sql, [id, ...columns.map(([, value]) => value)]);
    if (rows[0]) return toStoredReview(rows[0]);
    const ended = ending ? await this.getReview(id) : undefined;
    if (!ended) throw new Error(`no review ${id}`);
    return ended;
  }

  async listReviews(query: ReviewQuery) {
    const { rows } = await read<ReviewRow>(
      this.pool,
      `SELECT * FROM reviews
       WHERE owner = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR repository = $3) AND ($4::text IS NULL OR review_id < $4)
       ORDER BY review_id DESC LIMIT $5`,
      [query.owner, query.status ?? null, query.repository ?? null, query.before ?? null, query.limit],
    );
    return rows.map(toStoredReview);
  }

  async unfinishedReviews() {
    const { rows } = await read<ReviewRow>(
      this.pool,
      "SELECT * FROM reviews WHERE status IN ('queued', 'running') ORDER BY review_id",
      [],
    );
    return rows.map(toStoredReview);
  }

  async deleteFinishedBefore(date: string) {
    // One statement: the records and their files go together, or not at all.
    const { rows } = await write<{ n: number }>(
      this.pool,
      `WITH gone AS (
         DELETE FROM reviews WHERE status IN ('completed', 'failed') AND updated_at < $1 RETURNING review_id
       ), diffs AS (
         DELETE FROM review_diffs WHERE review_id IN (SELECT review_id FROM gone)
       ), findings AS (
         DELETE FROM review_findings WHERE review_id IN (SELECT review_id FROM gone)
       )
       SELECT count(*)::int AS n FROM gone`,
      [date],
    );
    return rows[0]!.n;
  }

  claimPeriodicTask(task: string, periodMs: number, now: string) {
    return claimPeriodicTask(this.pool, task, periodMs, now);
  }

  /** Rate-limit counts shared by the instances (see coordination.ts). */
  countInWindow(key: string, windowMs: number) {
    return countInWindow(this.pool, key, windowMs);
  }

  async writeDiff(id: string, diff: string) {
    await write(
      this.pool,
      'INSERT INTO review_diffs (review_id, diff) VALUES ($1, $2) ON CONFLICT (review_id) DO UPDATE SET diff = EXCLUDED.diff',
      [id, Buffer.from(diff, 'utf8')],
    );
  }

  async readDiff(id: string) {
    const { rows } = await read<{ diff: Buffer }>(this.pool, 'SELECT diff FROM review_diffs WHERE review_id = $1', [
      id,
    ]);
    if (!rows[0]) throw new Error(`no diff is stored for review ${id}`);
    return rows[0].diff.toString('utf8');
  }

  async deleteDiff(id: string) {
    await write(this.pool, 'DELETE FROM review_diffs WHERE review_id = $1', [id]);
  }

  async writeFindings(id: string, findings: Finding[]) {
    await write(
      this.pool,
      'INSERT INTO review_findings (review_id, findings) VALUES ($1, $2) ON CONFLICT (review_id) DO UPDATE SET findings = EXCLUDED.findings',
      [id, JSON.stringify(findings)],
    );
  }

  async readFindings(id: string) {
    const { rows } = await read<{ findings: Finding[] }>(
      this.pool,
      'SELECT findings FROM review_findings WHERE review_id = $1',
      [id],
    );
    if (!rows[0]) throw new Error(`no findings are stored for review ${id}`);
    return rows[0].findings;
  }

  async insertToken(token: StoredToken) {
    const values = TOKEN_COLUMNS.map((column) => token[column] ?? null);
    await write(
      this.pool,
      `INSERT INTO tokens (${TOKEN_COLUMNS.join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`,
      values,
    );
  }

  async getTokenByHash(hash: string) {
    const { rows } = await read<TokenRow>(this.pool, 'SELECT * FROM tokens WHERE hash = $1', [hash]);
    return rows[0] && this.#withTouch(toStoredToken(rows[0]));
  }

  async getToken(id: string) {
    const { rows } = await read<TokenRow>(this.pool, 'SELECT * FROM tokens WHERE id = $1', [id]);
    return rows[0] && this.#withTouch(toStoredToken(rows[0]));
  }

  async listTokens(owner: string, type: TokenType) {
    const { rows } = await read<TokenRow>(
      this.pool,
      'SELECT * FROM tokens WHERE owner = $1 AND type = $2 AND revoked_at IS NULL ORDER BY id DESC',
      [owner, type],
    );
    return rows.map((row) => this.#withTouch(toStoredToken(row)));
  }

  async updateToken(id: string, patch: Partial<StoredToken>) {
    const columns = TOKEN_COLUMNS.filter((column) => column !== 'id' && column in patch);
    if (columns.length === 0) return;
    const sets = columns.map((column, i) => `${column} = $${i + 2}`);
    const { rowCount } = await write(this.pool, `UPDATE tokens SET ${sets.join(', ')} WHERE id = $1`, [
      id,
      ...columns.map((column) => patch[column] ?? null),
    ]);
    if (rowCount === 0) throw new Error(`no token ${id}`);
    await this.atHand.tokenChanged(id).catch(() => {}); // this instance sees its own change (a revocation) at once
  }

  touchToken(id: string, at: string) {
    this.#touched.set(id, at);
    this.#touchTimer ??= setTimeout(() => void this.#flushTouches().catch(() => {}), TOUCH_FLUSH_MS).unref();
  }

  /** A use not written yet is still seen by this instance's reads. */
  #withTouch(token: StoredToken): StoredToken {
    const at = this.#touched.get(token.id);
    if (at !== undefined && (token.last_used_at === null || at > token.last_used_at)) token.last_used_at = at;
    return token;
  }

  async #flushTouches() {
    this.#touchTimer = null;
    if (this.#touched.size === 0) return;
    const touched = this.#touched;
    this.#touched = new Map();
    // Never backwards: another instance may have written a later use.
    await this.pool.query(
      `UPDATE tokens SET last_used_at = t.at FROM unnest($1::text[], $2::timestamptz[]) AS t(id, at)
       WHERE tokens.id = t.id AND (tokens.last_used_at IS NULL OR tokens.last_used_at < t.at)`,
      [[...touched.keys()], [...touched.values()]],
    );
  }

  async getIdempotency(owner: string, key: string) {
    const { rows } = await read<IdempotencyRow>(
      this.pool,
      'SELECT * FROM idempotency_keys WHERE owner = $1 AND key = $2',
      [owner, key],
    );
    return rows[0] && toIdempotencyRecord(rows[0]);
  }

  async putIdempotency(record: IdempotencyRecord) {
    await write(
      this.pool,
      `INSERT INTO idempotency_keys (owner, key, request_hash, review_id, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (owner, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, review_id = EXCLUDED.review_id, created_at = EXCLUDED.created_at`,
      [record.owner, record.key, record.request_hash, record.review_id, record.created_at],
    );
  }

  async deleteIdempotency(owner: string, key: string) {
    await write(this.pool, 'DELETE FROM idempotency_keys WHERE owner = $1 AND key = $2', [owner, key]);
  }

  async deleteIdempotencyBefore(date: string) {
    const { rowCount } = await write(this.pool, 'DELETE FROM idempotency_keys WHERE created_at < $1', [date]);
    return rowCount ?? 0;
  }

  async close() {
    if (this.#touchTimer) clearTimeout(this.#touchTimer);
    await this.#flushTouches().catch(() => {});
    await this.pool.end();
  }
}

// The store on PostgreSQL, for several instances over one database: the same interfaces as the
// lowdb store, each in a file of its own (reviews, review files, tokens, idempotency keys), plain
// parameterised SQL through one bounded node-postgres pool. Nothing is kept on local disk. What is
// kept in memory (tokens, finished reviews: at-hand.ts) is kept current by NOTIFY, and not
// trusted while the listener is away. This file opens the pool and answers the Store.
import pg from 'pg';
import type { Finding } from '../../engine/types.ts';
import type { StoreLog } from '../store-log.ts';
import type {
  IdempotencyRecord,
  ReviewFilter,
  ReviewQuery,
  Store,
  StoredReview,
  StoredToken,
  TokenType,
} from '../types.ts';
import { PostgresAtHand } from './at-hand.ts';
import { countInWindow } from './coordination.ts';
import { checkDatabaseUrl, DatabaseUnreachableError, describeDatabase, libpqConnectionString } from './database-url.ts';
import { migrate } from './migrations.ts';
import { PostgresIdempotency } from './postgres-idempotency.ts';
import { PostgresReviewFiles } from './postgres-review-files.ts';
import { PostgresReviews } from './postgres-reviews.ts';
import { PostgresTokens } from './postgres-tokens.ts';
import { isConnectionError } from './queries.ts';

export interface PostgresStoreOptions {
  /** Connections this instance opens at most. Default 10. */
  poolSize?: number;
  /** A connection not had within this long fails the query. Default 5 s. */
  connectTimeoutMs?: number;
  /** A query unanswered this long fails (503), and its connection is dropped. Default 10 s. */
  queryTimeoutMs?: number;
  log?: StoreLog;
}

export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  /** Tokens and finished reviews in memory, for the hot paths (at-hand.ts); kept current by NOTIFY. */
  readonly atHand: PostgresAtHand;
  readonly #reviews: PostgresReviews;
  readonly #files: PostgresReviewFiles;
  readonly #tokens: PostgresTokens;
  readonly #keys: PostgresIdempotency;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
    this.atHand = new PostgresAtHand(pool);
    this.#reviews = new PostgresReviews(pool, this.atHand);
    this.#files = new PostgresReviewFiles(pool);
    this.#tokens = new PostgresTokens(pool, this.atHand);
    this.#keys = new PostgresIdempotency(pool);
  }

  /**
   * Connects, applies the migrations that are missing, and answers the store. A database that
   * cannot be reached fails with DatabaseUnreachableError, whose message names host, port and
   * database, never the password.
   */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    checkDatabaseUrl(url);
    const pool = new pg.Pool({
      connectionString: libpqConnectionString(url),
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      // A database that stops answering (frozen, or a network that drops packets) would otherwise
      // hold a request for as long as TCP takes to notice: minutes. The HTTP timeouts cover reading
      // the request, not writing the answer, so the bound is here (queries.ts maps it to a 503).
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

  // ReviewStore (postgres-reviews.ts)
  insertReview = (review: StoredReview) => this.#reviews.insertReview(review);
  getReview = (id: string) => this.#reviews.getReview(id);
  updateReview = (id: string, patch: Partial<StoredReview>) => this.#reviews.updateReview(id, patch);
  listReviews = (query: ReviewQuery) => this.#reviews.listReviews(query);
  countReviews = (filter: ReviewFilter) => this.#reviews.countReviews(filter);
  unfinishedReviews = () => this.#reviews.unfinishedReviews();
  deleteFinishedBefore = (date: string) => this.#reviews.deleteFinishedBefore(date);
  claimPeriodicTask = (task: string, periodMs: number, now: string) =>
    this.#reviews.claimPeriodicTask(task, periodMs, now);

  /** Rate-limit counts shared by the instances (see coordination.ts). */
  countInWindow = (key: string, windowMs: number) => countInWindow(this.pool, key, windowMs);

  // ReviewFileStore (postgres-review-files.ts)
  writeDiff = (id: string, diff: string) => this.#files.writeDiff(id, diff);
  readDiff = (id: string) => this.#files.readDiff(id);
  deleteDiff = (id: string) => this.#files.deleteDiff(id);
  writeFindings = (id: string, findings: Finding[]) => this.#files.writeFindings(id, findings);
  readFindings = (id: string) => this.#files.readFindings(id);

  // TokenStore (postgres-tokens.ts)
  insertToken = (token: StoredToken) => this.#tokens.insertToken(token);
  getTokenByHash = (hash: string) => this.#tokens.getTokenByHash(hash);
  getToken = (id: string) => this.#tokens.getToken(id);
  listTokens = (owner: string, type: TokenType) => this.#tokens.listTokens(owner, type);
  updateToken = (id: string, patch: Partial<StoredToken>) => this.#tokens.updateToken(id, patch);
  touchToken = (id: string, at: string) => this.#tokens.touchToken(id, at);

  // IdempotencyStore (postgres-idempotency.ts)
  insertReviewWithKey = (review: StoredReview, record: IdempotencyRecord, liveSince: string) =>
    this.#keys.insertReviewWithKey(review, record, liveSince);
  getIdempotency = (owner: string, key: string) => this.#keys.getIdempotency(owner, key);
  putIdempotency = (record: IdempotencyRecord) => this.#keys.putIdempotency(record);
  deleteIdempotency = (owner: string, key: string) => this.#keys.deleteIdempotency(owner, key);
  deleteIdempotencyBefore = (date: string) => this.#keys.deleteIdempotencyBefore(date);

  async close() {
    await this.#tokens.close();
    await this.pool.end();
  }
}

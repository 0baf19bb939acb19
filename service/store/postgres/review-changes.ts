// Hears every review and token change any instance makes (the NOTIFYs of migrations 3 and 6) on
// one dedicated connection, and new jobs (announceJob). A connection that breaks (the server restarted) is
// opened again with a growing pause; after each (re)connect `onListening` runs, so the caller
// re-reads what it follows: a change made while nobody listened is not missed. A connection that
// breaks silently (a network that drops packets, a frozen server) would go on looking healthy until
// TCP gives up, minutes later; so the listener proves it is alive with a round trip every
// PROOF_EVERY_MS, and one unanswered for PROOF_LATE_MS counts as lost: within a second of any
// change it heard of, or cannot have heard of, the instance stops trusting what it keeps at hand.
import pg from 'pg';
import type { ReviewStatus } from '../../api/schemas.ts';
import type { StoreLog } from '../store-log.ts';
import { describeDatabase, libpqConnectionString } from './database-url.ts';

const REVIEWS = 'diff_review_reviews';
const TOKENS = 'diff_review_tokens';
const JOBS = 'diff_review_jobs';

/** A round trip on the listener's connection this often... */
const PROOF_EVERY_MS = 200;
/** ...and one unanswered this long means the connection is lost (200 + 600 + a tick: under 1 s). */
const PROOF_LATE_MS = 600;

export interface ReviewChangeHandlers {
  /** A review was written (its status now), or deleted. */
  reviewChanged(reviewId: string, status: ReviewStatus | 'deleted'): void;
  tokenChanged(tokenId: string): void;
  jobQueued(): void;
  /** The listener is (again) connected: notifications from before may have been missed. */
  onListening(): void;
  /** The listener lost its connection: notifications are missed until onListening. */
  onLost(): void;
}

export class ReviewChanges {
  readonly #url: string;
  readonly #handlers: ReviewChangeHandlers;
  readonly #log: StoreLog;
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #pauseMs = 100;
  #proofs: NodeJS.Timeout | undefined;

  private constructor(url: string, handlers: ReviewChangeHandlers, log: StoreLog) {
    this.#url = url;
    this.#handlers = handlers;
    this.#log = log;
  }

  /** Resolves once listening (a first connection that fails rejects: the database is unreachable). */
  static async listen(url: string, handlers: ReviewChangeHandlers, log: StoreLog): Promise<ReviewChanges> {
    const changes = new ReviewChanges(url, handlers, log);
    await changes.#connect();
    return changes;
  }

  /** Wakes the instances waiting for work (sent after a job is queued). */
  static announceJob(pool: pg.Pool): Promise<unknown> {
    return pool.query(`SELECT pg_notify('${JOBS}', '')`);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: libpqConnectionString(this.#url),
      application_name: 'diff-review listener',
      keepAlive: true,
    });
    client.on('notification', ({ channel, payload }) => {
      if (channel === JOBS) return this.#handlers.jobQueued();
      if (channel === TOKENS) return payload && this.#handlers.tokenChanged(payload);
      const [id, status] = (payload ?? '').split(' ');
      if (id && status) this.#handlers.reviewChanged(id, status as ReviewStatus | 'deleted');
    });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${REVIEWS}; LISTEN ${TOKENS}; LISTEN ${JOBS}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw error;
    }
    this.#client = client;
    this.#pauseMs = 100;
    this.#proveAlive(client);
    this.#handlers.onListening();
  }

  /** A `SELECT 1` every PROOF_EVERY_MS; one that stays unanswered PROOF_LATE_MS loses the connection. */
  #proveAlive(client: pg.Client) {
    let sentAt: number | undefined;
    clearInterval(this.#proofs);
    this.#proofs = setInterval(() => {
      if (this.#client !== client) return;
      if (sentAt === undefined) {
        const at = Date.now();
        sentAt = at;
        client.query('SELECT 1').then(
          () => sentAt === at && (sentAt = undefined),
          () => this.#lost(client),
        );
      } else if (Date.now() - sentAt >= PROOF_LATE_MS) {
        // After a busy event loop the answer may be read but not handled yet (timers run before
        // I/O): judged once the I/O that is waiting has been handled.
        const late = sentAt;
        setImmediate(() => sentAt === late && this.#lost(client));
      }
    }, PROOF_EVERY_MS).unref();
  }

  #lost(client: pg.Client) {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    clearInterval(this.#proofs);
    client.end().catch(() => {}); // with a proof unanswered, node-postgres destroys the socket at once
    this.#handlers.onLost();
    this.#log.warn(
      { database: describeDatabase(this.#url) },
      'the database listener lost its connection; reconnecting',
    );
    this.#reconnectLater();
  }

  #reconnectLater() {
    this.#retry = setTimeout(() => {
      if (this.#closed) return;
      this.#connect().catch(() => {
        this.#pauseMs = Math.min(this.#pauseMs * 2, 5_000);
        this.#reconnectLater();
      });
    }, this.#pauseMs).unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearInterval(this.#proofs);
    await this.#client?.end().catch(() => {});
  }
}

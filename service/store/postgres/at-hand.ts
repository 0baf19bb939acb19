// What an instance in PostgreSQL mode keeps in memory for the hottest requests (a token check on
// every request; the poll of a finished review), so that they need no round trip: every token,
// and finished reviews (whose status never changes again). This instance's own writes replace or
// drop its copies at once (postgres-reviews.ts, postgres-tokens.ts); other instances' changes
// arrive by NOTIFY (migration 6): a token is read again when it changes (a revocation reaches every
// instance within milliseconds), a deleted review is forgotten. While the listener is disconnected
// the tokens are not trusted (tokensAtHand() is false) and each check asks the database, as the
// store does; the finished reviews are forgotten then too (a deletion announced meanwhile would be
// missed), and none is kept again until the listener is back.
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { isTerminal } from '../../api/review-status.ts';
import type { InMemoryLookups } from '../in-memory-lookups.ts';
import type { StoredReview, StoredToken } from '../types.ts';
import { read } from './queries.ts';
import { toStoredToken, type TokenRow } from './rows.ts';

/** Finished reviews kept; a poll of an older one reads the database once and is kept again. */
const FINISHED_KEPT = 10_000;

export class PostgresAtHand implements InMemoryLookups {
  readonly #pool: pg.Pool;
  readonly #tokensByHash = new Map<string, StoredToken>();
  readonly #hashOf = new Map<string, string>();
  readonly #finished = new LRUCache<string, StoredReview>({ max: FINISHED_KEPT });
  #trusted = false;
  /** Token reads in order: a slower earlier read must not overwrite a later one. */
  #tokenReads: Promise<unknown> = Promise.resolve();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  tokensAtHand(): boolean {
    return this.#trusted;
  }

  // Records as kept, not copies (as lowdb's lookups answer): callers read them and never write.
  getTokenByHashSync(hash: string): StoredToken | undefined {
    return this.#tokensByHash.get(hash);
  }

  peekReview(id: string): StoredReview | undefined {
    return this.#finished.get(id);
  }

  /** Keeps a review that has ended (its status will not change again; its deletion is announced). */
  remember(review: StoredReview): void {
    if (this.#trusted && isTerminal(review)) this.#finished.set(review.review_id, { ...review });
  }

  forget(reviewId: string): void {
    this.#finished.delete(reviewId);
  }

  /** The listener is (again) connected: every token is read, then trusted. */
  reloadTokens(): Promise<void> {
    return this.#inOrder(async () => {
      const { rows } = await read<TokenRow>(this.#pool, 'SELECT * FROM tokens', []);
      this.#tokensByHash.clear();
      this.#hashOf.clear();
      for (const row of rows) this.#put(toStoredToken(row));
      this.#trusted = true;
    });
  }

  /** The listener lost its connection: changes may be missed until reloadTokens(). */
  distrust(): void {
    this.#trusted = false;
    this.#finished.clear();
  }

  /** A token changed somewhere: read again (or dropped, when deleted). */
  tokenChanged(id: string): Promise<void> {
    return this.#inOrder(async () => {
      const { rows } = await read<TokenRow>(this.#pool, 'SELECT * FROM tokens WHERE id = $1', [id]);
      const old = this.#hashOf.get(id);
      if (old !== undefined) this.#tokensByHash.delete(old);
      this.#hashOf.delete(id);
      if (rows[0]) this.#put(toStoredToken(rows[0]));
    });
  }

  #put(token: StoredToken) {
    this.#tokensByHash.set(token.hash, token);
    this.#hashOf.set(token.id, token.hash);
  }

  #inOrder(work: () => Promise<void>): Promise<void> {
    const next = this.#tokenReads.then(work);
    // A read that fails (the database went away) leaves the copy untrusted until the next reload.
    this.#tokenReads = next.catch(() => this.distrust());
    return next;
  }
}

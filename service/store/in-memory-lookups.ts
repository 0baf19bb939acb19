// Lookups answered without a promise, by a store that holds the records in memory (lowdb's, or the
// copies an instance keeps in PostgreSQL mode: postgres/at-hand.ts). The hottest requests use them
// where they are given (a poll of a finished review, every token check), with the same answers as
// the async interfaces.
import type { StoredReview, StoredToken } from './types.ts';

export interface SyncReviewLookup {
  /**
   * The review if it is at hand now, whoever owns it. undefined means "not at hand", not "absent":
   * ReviewStore.getReview knows.
   */
  peekReview(id: string): StoredReview | undefined;
}

export interface SyncTokenLookup {
  /** TokenStore.getTokenByHash without a promise. Final for a store (undefined is an unknown token), not for a copy. */
  getTokenByHashSync(hash: string): StoredToken | undefined;
  /**
   * Present on a copy of another process's tokens (PostgreSQL mode), which may lag by milliseconds:
   * a token it lacks may be new (callers ask TokenStore), and while it returns false (its listener
   * is lost) the copy is not used at all.
   */
  tokensAtHand?(): boolean;
}

/** Both lookups, as a store that holds everything in memory offers them. */
export interface InMemoryLookups extends SyncReviewLookup, SyncTokenLookup {}
